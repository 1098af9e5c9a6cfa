/* buf.overlap must stay silent: MPICH gives every MPI_Rput that completed
 * at once the same builtin request handle. Rank 0 starts two MPI_Rput
 * from a and b (requests req[0], req[1], one handle), MPI_Waitany
 * completes req[0] (the lowest index of identical handles), and a is then
 * received into by MPI_Recv while req[1] (b) is still pending: correct
 * (MPI 4.0 3.7.3: once the request completed, its buffer may be reused).
 *
 * Events of rank 0: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Win_allocate,
 * 3 MPI_Win_lock_all, then per round: MPI_Rput, MPI_Rput, MPI_Waitany,
 * MPI_Recv, MPI_Waitany.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a = 1, b = 2, *base, idx;
    MPI_Win win;
    MPI_Request req[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock_all(0, win);
    for (int round = 0; round < 3; round++) {
        if (rank == 0) {
            MPI_Rput(&a, 1, MPI_INT, 0, 0, 1, MPI_INT, win, &req[0]);
            MPI_Rput(&b, 1, MPI_INT, 0, 1, 1, MPI_INT, win, &req[1]);
            MPI_Waitany(2, req, &idx, MPI_STATUS_IGNORE);
            MPI_Recv(idx == 0 ? &a : &b, 1, MPI_INT, 1, round,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Waitany(2, req, &idx, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Send(&round, 1, MPI_INT, 0, round, MPI_COMM_WORLD);
        }
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
