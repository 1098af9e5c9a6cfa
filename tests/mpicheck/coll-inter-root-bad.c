/* coll.root planted on an intercommunicator (mpicheck-inter.h: world
 * ranks 0, 1 against 2, 3), two MPI_Bcast from world rank 0 (rank 0 of
 * its group), each completing:
 *   #0: world rank 3 names root 1, a rank of the root's group that passes
 *   MPI_PROC_NULL (MPICH's receiving group takes the data from its own
 *   rank 0, which names the right root: the run completes);
 *   #1: world ranks 0 and 1 both pass MPI_ROOT (world rank 1's message to
 *   the other group's rank 0 is never received).
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_size, 3 MPI_Comm_split,
 * 4 MPI_Intercomm_create, 5 MPI_Comm_set_errhandler, 6 MPI_Bcast #0,
 * 7 MPI_Bcast #1, 8 and 9 MPI_Comm_free, 10 MPI_Finalize.
 */
#include "mpicheck-inter.h"

int main(int argc, char **argv)
{
    MPI_Comm half, inter;
    int buf[4] = {1, 2, 3, 4};
    int rank = mpicheck_inter(&argc, &argv, &half, &inter);
    int root = rank == 0 ? MPI_ROOT : rank == 1 ? MPI_PROC_NULL
               : rank == 3 ? 1 : 0;
    MPI_Bcast(buf, 4, MPI_INT, root, inter);
    root = rank < 2 ? MPI_ROOT : 0;
    MPI_Bcast(buf, 4, MPI_INT, root, inter);
    mpicheck_inter_free(&half, &inter);
    MPI_Finalize();
    return 0;
}
