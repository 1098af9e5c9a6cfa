/* corpus: class=coll expect=ok np=3 */
/* Twin of split-dup-bad: every rank calls MPI_Comm_split (color 0, key =
 * rank), which yields a copy of MPI_COMM_WORLD. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm comm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank < 0)
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
