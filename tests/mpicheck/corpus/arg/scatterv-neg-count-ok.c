/* corpus: class=arg expect=ok np=3 */
/* Root 1 scatters rank+1 ints to each rank with MPI_Scatterv
 * (correct twin of scatterv-neg-count-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, i, counts[3], displs[3], src[6] = {0, 1, 2, 3, 4, 5}, dst[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < size; i++) {
        counts[i] = i + 1;
        displs[i] = i * (i + 1) / 2;
    }
    MPI_Scatterv(src, counts, displs, MPI_INT, dst, rank + 1, MPI_INT, 1,
                 MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
