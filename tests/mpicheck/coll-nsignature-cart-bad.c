/* coll.signature on a neighbourhood collective planted, 4 ranks on a
 * periodic 1-D Cartesian ring (each rank's neighbours: rank - 1, then
 * rank + 1, mod 4):
 *   MPI_Neighbor_alltoall: every rank sends 1 MPI_INT to each neighbour;
 *   rank 2 expects 2 from each (recvcount 2: 8 bytes against 4, no
 *   truncation), so the pieces rank 1 and rank 3 send it disagree with
 *   what it receives; the others agree.
 * The fixed twin (FIXED) expects 1 everywhere, and also calls
 * MPI_Neighbor_allgather and the persistent MPI_Neighbor_alltoall_init,
 * all agreeing.
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler,
 * 3 MPI_Cart_create, 4 MPI_Neighbor_alltoall.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, dims[1] = {4}, periods[1] = {1};
    int out[2], in[4] = {0};
    MPI_Comm ring;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    out[0] = 10 * rank;
    out[1] = 10 * rank + 1;
#ifdef FIXED
    int rcount = 1;
#else
    int rcount = rank == 2 ? 2 : 1;
#endif
    MPI_Neighbor_alltoall(out, 1, MPI_INT, in, rcount, MPI_INT, ring);
#ifdef FIXED
    MPI_Request req;
    MPI_Neighbor_allgather(out, 1, MPI_INT, in, 1, MPI_INT, ring);
    MPI_Neighbor_alltoall_init(out, 1, MPI_INT, in, 1, MPI_INT, ring,
                               MPI_INFO_NULL, &req);
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Request_free(&req);
#endif
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return 0;
}
