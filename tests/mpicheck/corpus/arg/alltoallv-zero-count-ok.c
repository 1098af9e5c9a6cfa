/* corpus: class=arg expect=ok np=2 */
/* MPI_Alltoallv where every rank sends one int to each other rank and nothing
 * to itself (count 0 entries are legal; twin of alltoallv-neg-count-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, i, sc[4], sd[4], rc[4], rd[4], sb[4], rb[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < size; i++) {
        sc[i] = rc[i] = (i == rank) ? 0 : 1;
        sd[i] = rd[i] = i;
        sb[i] = 100 * rank + i;
    }
    MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
