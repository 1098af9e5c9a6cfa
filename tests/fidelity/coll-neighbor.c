/* Neighbourhood collectives, each form, whose records carry the topology
 * and counts drdb check reads (LOG_F_NEIGHBORS, LOG_F_ARRAY): the replay
 * ignores those and gives the same data. 4 ranks: a 2 x 2 grid periodic
 * in dimension 0 (both neighbours there are one rank) and a distributed
 * graph; each rank prints what it received. */
#include <mpi.h>
#include <stdio.h>

static void show(int rank, const char *what, const int *v, int n)
{
    printf("rank %d: %s", rank, what);
    for (int i = 0; i < n; i++)
        printf(" %d", v[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    int rank, dims[2] = {2, 2}, periods[2] = {1, 0}, in[16], out[16];
    MPI_Comm grid, g;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    for (int i = 0; i < 16; i++)
        out[i] = 100 * rank + i;

    for (int i = 0; i < 16; i++)
        in[i] = -1;
    MPI_Neighbor_allgather(out, 1, MPI_INT, in, 1, MPI_INT, grid);
    show(rank, "allgather", in, 4);

    /* Equal blocks both ways in dimension 0: MPICH 4.0.2 pairs them
     * block by block there (tests/mpicheck/coll-nsignature-dir-bad.c). */
    int sc[4] = {2, 2, 1, 2}, rc[4] = {2, 2, 2, 1}, d[4] = {0, 2, 4, 6};
    for (int i = 0; i < 16; i++)
        in[i] = -1;
    MPI_Neighbor_alltoallv(out, sc, d, MPI_INT, in, rc, d, MPI_INT, grid);
    show(rank, "alltoallv", in, 8);

    MPI_Aint bd[4] = {0, 8, 16, 24};
    MPI_Datatype t[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
    for (int i = 0; i < 16; i++)
        in[i] = -1;
    MPI_Ineighbor_alltoallw(out, sc, bd, t, in, rc, bd, t, grid, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    show(rank, "ialltoallw", in, 8);

    MPI_Neighbor_alltoall_init(out, 2, MPI_INT, in, 2, MPI_INT, grid,
                               MPI_INFO_NULL, &req);
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 16; i++)
            in[i] = -1;
        out[0] = 100 * rank + 50 + k;
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        show(rank, "alltoall_init", in, 8);
    }
    MPI_Request_free(&req);
    MPI_Comm_free(&grid);

    /* 0->1, 0->2, 1->2, 2->3, 2->0, 3->0 */
    static const int ns[4] = {2, 1, 2, 1};
    static const int srcs[4][2] = {{3, 2}, {0, 0}, {1, 0}, {2, 2}};
    static const int dsts[4][2] = {{1, 2}, {2, 2}, {3, 0}, {0, 0}};
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, ns[rank], srcs[rank],
                                   MPI_UNWEIGHTED, ns[rank], dsts[rank],
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
    int gc[2], gd[2] = {0, 4};
    for (int i = 0; i < 2; i++)
        gc[i] = srcs[rank][i] % 2 + 1;
    for (int i = 0; i < 16; i++)
        in[i] = -1;
    MPI_Neighbor_allgatherv(out, rank % 2 + 1, MPI_INT, in, gc, gd, MPI_INT,
                            g);
    show(rank, "allgatherv", in, 8);
    for (int i = 0; i < 16; i++)
        in[i] = -1;
    MPI_Neighbor_alltoall_c(out, 3, MPI_INT, in, 3, MPI_INT, g);
    show(rank, "alltoall_c", in, 6);
    MPI_Comm_free(&g);
    MPI_Finalize();
    return 0;
}
