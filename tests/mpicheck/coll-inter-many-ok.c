/* Every intercommunicator collective the coll.* checks compare, used
 * correctly between groups of unequal sizes whose world ranks interleave:
 * world ranks 0, 2, 3 (group a: ranks 0, 1, 2 there) against world rank 1
 * (group b), so a rank in the remote group is not a world rank. coll.*
 * must find nothing.
 */
#include "mpicheck-init.h"

int main(int argc, char **argv)
{
    MPI_Comm half, inter;
    int rank = mpicheck_init(&argc, &argv, 4);
    int in_b = rank == 1, me, i;
    MPI_Comm_split(MPI_COMM_WORLD, in_b, rank, &half);
    MPI_Comm_rank(half, &me);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, in_b ? 0 : 1, 7, &inter);
    int s[16], r[16], c[3] = {1, 2, 3}, d[3] = {0, 4, 8}, c4[3] = {4, 4, 4};
    int one[3] = {1, 1, 1}, three[3] = {3, 0, 0};
    for (i = 0; i < 16; i++)
        s[i] = i;
    /* Rooted at world rank 1 (b's rank 0), then at world rank 3 (a's 2). */
    int root_b = in_b ? MPI_ROOT : 0;
    int root_a = in_b ? 2 : me == 2 ? MPI_ROOT : MPI_PROC_NULL;
    MPI_Bcast(s, 4, MPI_INT, root_b, inter);
    MPI_Gatherv(s, 2, MPI_INT, r, c + 1, d, MPI_INT, root_a, inter);
    MPI_Scatterv(s, c, d, MPI_INT, r, me + 1, MPI_INT, root_b, inter);
    MPI_Scatter(s, 2, MPI_INT, r, 2, MPI_INT, root_b, inter);
    MPI_Gather(s, 1, MPI_INT, r, 1, MPI_INT, root_b, inter);
    MPI_Reduce(s, r, 2, MPI_INT, MPI_SUM, root_a, inter);
    /* Each group sends its own amount. */
    if (in_b) {
        MPI_Allgatherv(s, 2, MPI_INT, r, c, d, MPI_INT, inter);
        MPI_Alltoallv(s, c4, d, MPI_INT, r, c, d, MPI_INT, inter);
        MPI_Allgather(s, 3, MPI_INT, r, 1, MPI_INT, inter);
        MPI_Reduce_scatter_block(s, r, 3, MPI_INT, MPI_SUM, inter);
    } else {
        int two[1] = {2}, mine[1] = {me + 1}, four[1] = {4};
        MPI_Allgatherv(s, me + 1, MPI_INT, r, two, d, MPI_INT, inter);
        MPI_Alltoallv(s, mine, d, MPI_INT, r, four, d, MPI_INT, inter);
        MPI_Allgather(s, 1, MPI_INT, r, 3, MPI_INT, inter);
        MPI_Reduce_scatter_block(s, r, 1, MPI_INT, MPI_SUM, inter);
    }
    MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, inter);
    MPI_Allreduce(s, r, 2, MPI_INT, MPI_MAX, inter);
    /* recvcounts: one per member of the caller's group, 3 in a (1 each)
     * and 1 in b (3): each group's vector has 3 elements. */
    MPI_Reduce_scatter(s, r, in_b ? three : one, MPI_INT, MPI_SUM, inter);
    MPI_Barrier(inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
