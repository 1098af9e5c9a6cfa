/* coll.signature on a neighbourhood collective planted, 4 ranks on a
 * distributed graph (MPI_Dist_graph_create_adjacent; edges 0->1, 0->2,
 * 1->2, 2->3, 2->0, 3->0, listed out of order):
 *   MPI_Ineighbor_alltoallv: rank S sends S + D + 1 MPI_INT to each
 *   destination D and each rank expects as many from each source, but
 *   rank 2 expects 5 from rank 1 (it is sent 4: no truncation); the other
 *   pairs agree.
 * The fixed twin (FIXED) expects 4 there, and also calls
 * MPI_Neighbor_allgatherv and MPI_Neighbor_alltoallw, all agreeing.
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler,
 * 3 MPI_Dist_graph_create_adjacent, 4 MPI_Ineighbor_alltoallv, 5 MPI_Wait.
 */
#include <mpi.h>

static const int nsrc[4] = {2, 1, 2, 1}, ndst[4] = {2, 1, 2, 1};
static const int srcs[4][2] = {{3, 2}, {0, -1}, {1, 0}, {2, -1}};
static const int dsts[4][2] = {{1, 2}, {2, -1}, {3, 0}, {0, -1}};

int main(int argc, char **argv)
{
    int rank, out[16], in[16] = {0};
    int sc[2], sd[2], rc[2], rd[2];
    MPI_Comm g;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nsrc[rank], srcs[rank],
                                   MPI_UNWEIGHTED, ndst[rank], dsts[rank],
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
    for (int i = 0; i < 16; i++)
        out[i] = 100 * rank + i;
    for (int i = 0; i < 2; i++) {
        sc[i] = rank + dsts[rank][i] + 1;
        rc[i] = srcs[rank][i] + rank + 1;
        sd[i] = 8 * i;
        rd[i] = 8 * i;
    }
#ifndef FIXED
    if (rank == 2)
        rc[0]++; /* from rank 1 */
#endif
    MPI_Request req;
    MPI_Ineighbor_alltoallv(out, sc, sd, MPI_INT, in, rc, rd, MPI_INT, g,
                            &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
#ifdef FIXED
    int one[2] = {1, 1};
    MPI_Aint bd[2] = {0, 32};
    MPI_Datatype t[2] = {MPI_INT, MPI_INT};
    MPI_Neighbor_allgatherv(out, 1, MPI_INT, in, one, rd, MPI_INT, g);
    MPI_Neighbor_alltoallw(out, sc, bd, t, in, rc, bd, t, g);
#endif
    MPI_Comm_free(&g);
    MPI_Finalize();
    return 0;
}
