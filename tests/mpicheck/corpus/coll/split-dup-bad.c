/* corpus: class=coll expect=bad np=3 hang=1 */
/* Ranks 0 and 1 call MPI_Comm_split on MPI_COMM_WORLD while rank 2 calls
 * MPI_Comm_dup: both are collective over the parent and all members must
 * call the same one (MPI 4.0 sections 7.4.2 and 6.14). Hangs
 * under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm comm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2)
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    else
        MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &comm);
    MPI_Comm_size(comm, &size);
    printf("rank %d: new communicator of size %d\n", rank, size);
    MPI_Barrier(comm);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
