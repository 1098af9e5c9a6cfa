/* coll-inter-root-bad.c fixed: in both MPI_Bcast on the intercommunicator
 * world rank 0 passes MPI_ROOT, world rank 1 MPI_PROC_NULL, and the other
 * group's members (world ranks 2, 3) root 0. Events as there.
 */
#include "mpicheck-inter.h"

int main(int argc, char **argv)
{
    MPI_Comm half, inter;
    int buf[4] = {1, 2, 3, 4};
    int rank = mpicheck_inter(&argc, &argv, &half, &inter);
    int root = rank == 0 ? MPI_ROOT : rank == 1 ? MPI_PROC_NULL : 0;
    MPI_Bcast(buf, 4, MPI_INT, root, inter);
    MPI_Bcast(buf, 4, MPI_INT, root, inter);
    mpicheck_inter_free(&half, &inter);
    MPI_Finalize();
    return 0;
}
