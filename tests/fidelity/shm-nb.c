/*
 * Stores into a shared window made visible by nonblocking and persistent
 * operations, which the recorder does not compare the segment at (they
 * start an operation and wait for no one: rec-shm.c, rec_shm_syncs): the
 * call that completes them must log what the others stored. In round k,
 * rank k stores a block into its part, then (by round) sends a token with
 * MPI_Isend and frees the request, or starts a persistent send; the
 * others post MPI_Irecv (or start a persistent receive), store into their
 * own part, and read the producer's block after MPI_Wait (MPI_Waitall in
 * odd rounds). Last, after a barrier, every rank stores, then
 * MPI_Ibarrier and MPI_Wait, and reads its right neighbour. Prints what each consumer read.
 */
#include "shm-common.h"

enum { N = 64 };

int main(int argc, char **argv)
{
    MPI_Comm node = shm_start(&argc, &argv);
    int *mine;
    /* a block others read, then a stretch only this rank uses */
    MPI_Win win = shm_window(node, 2 * N * sizeof(int), sizeof(int),
                             MPI_INFO_NULL, &mine);
    MPI_Request precv = MPI_REQUEST_NULL;
    int token = 0, sent[64];
    for (int k = 0; k < shm_size; k++) {
        int persistent = k % 3 == 2;
        if (k == shm_rank) {
            sent[k % 64] = k; /* left to the freed requests */
            for (int i = 0; i < N; i++)
                mine[i] = (k + 1) * 1000 + i * 3;
            for (int q = 0; q < shm_size; q++) {
                MPI_Request r;
                if (q == k)
                    continue;
                if (persistent) {
                    MPI_OK(MPI_Send_init(&sent[k % 64], 1, MPI_INT, q, 9, node, &r));
                    MPI_OK(MPI_Start(&r));
                    MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
                    MPI_OK(MPI_Request_free(&r));
                } else {
                    MPI_OK(MPI_Isend(&sent[k % 64], 1, MPI_INT, q, 9, node, &r));
                    MPI_OK(MPI_Request_free(&r));
                }
            }
            prog_say("round %d: produced", k);
            continue;
        }
        MPI_Request r[2];
        if (persistent) {
            MPI_OK(MPI_Recv_init(&token, 1, MPI_INT, k, 9, node, &precv));
            MPI_OK(MPI_Startall(1, &precv));
        } else {
            MPI_OK(MPI_Irecv(&token, 1, MPI_INT, k, 9, node, &r[0]));
        }
        /* our own part changes while the message is on its way */
        mine[N + k % N] += 1;
        if (persistent) {
            MPI_OK(MPI_Wait(&precv, MPI_STATUS_IGNORE));
            MPI_OK(MPI_Request_free(&precv));
        } else if (k % 2) {
            MPI_Status st[2];
            r[1] = MPI_REQUEST_NULL;
            MPI_OK(MPI_Waitall(2, r, st));
        } else {
            MPI_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
        }
        int *p = shm_part(win, k, NULL, NULL);
        prog_say("round %d: token %d, read %016llx: %d %d", k, token,
                 (unsigned long long)shm_sum(p, N * sizeof(int)), p[0],
                 p[N - 1]);
    }
    /* everyone has read every block before it changes again */
    MPI_OK(MPI_Barrier(node));
    for (int i = 0; i < 2 * N; i++)
        mine[i] = -(shm_rank + 1) * 100 - i;
    MPI_Request b;
    MPI_OK(MPI_Ibarrier(node, &b));
    MPI_OK(MPI_Wait(&b, MPI_STATUS_IGNORE));
    int right = (shm_rank + 1) % shm_size;
    MPI_Aint size;
    int *p = shm_part(win, right, &size, NULL);
    prog_say("after ibarrier: %d's part %016llx: %d", right,
             (unsigned long long)shm_sum(p, (size_t)size), p[N / 2]);
    MPI_OK(MPI_Barrier(node));
    MPI_OK(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
