/* coll-inter-signature-bad.c fixed: the root of the MPI_Gather expects 2
 * MPI_INT from each member of the other group, and every member of the
 * MPI_Allgather receives MPI_INT. Events as there.
 */
#include "mpicheck-inter.h"

int main(int argc, char **argv)
{
    MPI_Comm half, inter;
    int mine[2] = {1, 2}, all[6];
    int rank = mpicheck_inter(&argc, &argv, &half, &inter);
    int root = rank == 0 ? MPI_ROOT : rank == 1 ? MPI_PROC_NULL : 0;
    MPI_Gather(mine, 2, MPI_INT, all, 2, MPI_INT, root, inter);
    MPI_Allgather(mine, 1, MPI_INT, all, 1, MPI_INT, inter);
    mpicheck_inter_free(&half, &inter);
    MPI_Finalize();
    return 0;
}
