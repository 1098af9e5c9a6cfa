/* corpus: class=order expect=bad np=3 */
/* Ranks exchange data in a ring, finalize, and then call MPI_Comm_rank to
 * decide who prints.  Breaks MPI 4.0 sec. 11.2.2: after MPI_Finalize only
 * MPI_Finalized, MPI_Initialized, MPI_Get_version etc. may be called.
 * MPICH 4.0.2 aborts: MPI routine used after finalizing. */
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
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (in != (rank + size - 1) % size)
        printf("rank %d: wrong value %d\n", rank, in);
    return 0;
}
