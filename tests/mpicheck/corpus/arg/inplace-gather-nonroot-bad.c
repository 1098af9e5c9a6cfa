/* corpus: class=arg expect=bad np=3 */
/* Gather of one int per rank to root 0; rank 2 (not the root) passes
 * MPI_IN_PLACE as sendbuf.  Breaks MPI 4.0 sec. 6.5: MPI_IN_PLACE is allowed
 * for MPI_Gather only as sendbuf at the root.
 * MPICH 4.0.2 crashes (SIGSEGV), no MPI error. */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, mine, all[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine = 10 * rank;
    all[0] = mine;
    if (rank == 0)
        MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else if (rank == 2)
        MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Gather(&mine, 1, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
