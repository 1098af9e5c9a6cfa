/*
 * Producer and consumers synchronized by point-to-point messages only: in
 * round k, rank k stores a block into its part of a shared window and then
 * tells every other rank so with a message; they receive it (MPI_Recv in
 * even rounds; MPI_Irecv and an MPI_Test loop in odd ones) and read the
 * producer's part directly. No barrier, fence or MPI_Win_sync between the
 * store and the read: the message orders them (with MPICH on one node, a
 * message is a full memory barrier). Prints what each consumer read.
 */
#include "shm-common.h"

enum { N = 48 };

int main(int argc, char **argv)
{
    MPI_Comm node = shm_start(&argc, &argv);
    int *mine;
    MPI_Win win = shm_window(node, N * sizeof(int), sizeof(int),
                             MPI_INFO_NULL, &mine);
    for (int k = 0; k < shm_size; k++) {
        int token = 0;
        if (k == shm_rank) {
            for (int i = 0; i < N; i++)
                mine[i] = (k + 1) * 1000 + i * i;
            for (int q = 0; q < shm_size; q++)
                if (q != k)
                    MPI_OK(MPI_Send(&k, 1, MPI_INT, q, 7, node));
            prog_say("round %d: produced", k);
            continue;
        }
        if (k % 2 == 0) {
            MPI_OK(MPI_Recv(&token, 1, MPI_INT, k, 7, node,
                            MPI_STATUS_IGNORE));
        } else {
            MPI_Request req;
            int done = 0;
            MPI_OK(MPI_Irecv(&token, 1, MPI_INT, k, 7, node, &req));
            while (!done)
                MPI_OK(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
        }
        MPI_Aint size;
        int *p = shm_part(win, k, &size, NULL);
        prog_say("round %d: token %d, read %016llx: %d %d %d", k, token,
                (unsigned long long)shm_sum(p, (size_t)size), p[0], p[N / 2],
                p[N - 1]);
    }
    /* The last producer's block, read once more after a message of our
     * own: still what it stored. */
    int last = shm_size - 1, got = -1;
    MPI_OK(MPI_Sendrecv(&shm_rank, 1, MPI_INT, (shm_rank + 1) % shm_size, 8,
                        &got, 1, MPI_INT,
                        (shm_rank + shm_size - 1) % shm_size, 8, node,
                        MPI_STATUS_IGNORE));
    int *p = shm_part(win, last, NULL, NULL);
    prog_say("from %d; last block %d", got, p[N - 1]);
    MPI_OK(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
