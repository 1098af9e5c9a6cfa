/* coll.signature planted on an intercommunicator (mpicheck-inter.h: world
 * ranks 0, 1 against 2, 3), each collective completing:
 *   MPI_Gather to world rank 0 (MPI_ROOT; world rank 1 MPI_PROC_NULL):
 *   the root expects 3 MPI_INT from each member of the other group, which
 *   send 2 (8 bytes against 12, twice);
 *   MPI_Allgather: every member sends 1 MPI_INT and receives 1 MPI_INT
 *   from each member of the other group, but world rank 3 receives 1
 *   MPI_FLOAT (the same bytes, another signature: the first sender it
 *   disagrees with, world rank 0).
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_size, 3 MPI_Comm_split,
 * 4 MPI_Intercomm_create, 5 MPI_Comm_set_errhandler, 6 MPI_Gather,
 * 7 MPI_Allgather, 8 and 9 MPI_Comm_free, 10 MPI_Finalize.
 */
#include "mpicheck-inter.h"

int main(int argc, char **argv)
{
    MPI_Comm half, inter;
    int mine[2] = {1, 2}, all[6];
    int rank = mpicheck_inter(&argc, &argv, &half, &inter);
    int root = rank == 0 ? MPI_ROOT : rank == 1 ? MPI_PROC_NULL : 0;
    MPI_Gather(mine, 2, MPI_INT, all, 3, MPI_INT, root, inter);
    MPI_Allgather(mine, 1, MPI_INT, all, 1, rank == 3 ? MPI_FLOAT : MPI_INT,
                  inter);
    mpicheck_inter_free(&half, &inter);
    MPI_Finalize();
    return 0;
}
