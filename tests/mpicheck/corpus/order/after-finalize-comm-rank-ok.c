/* corpus: class=order expect=ok np=3 */
/* Ranks exchange data in a ring and finalize; the rank obtained before
 * MPI_Finalize is used afterwards (twin of after-finalize-comm-rank-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, in = 0, out;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    out = rank;
    MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    if (in != (rank + size - 1) % size)
        printf("rank %d: wrong value %d\n", rank, in);
    return 0;
}
