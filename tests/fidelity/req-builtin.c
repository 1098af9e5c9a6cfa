/*
 * Operations MPICH completes at once and answers with one of its builtin
 * requests, the same handle for every operation of a kind: nonblocking
 * collectives on MPI_COMM_SELF, request-based gets from the rank's own
 * window, a receive from MPI_PROC_NULL. Several such requests are pending
 * together, completed by one MPI_Waitall/MPI_Testall or one by one in
 * another order than they started, of different sizes (a completion
 * sizes its record before it logs them); each result is printed. A replay that
 * keys buffers by request handle alone gives the first one's buffer
 * nothing (it printed 0 where the recording had 3).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, a = 3, b = 4, ra = 0, rb = 0, rc = 0, flag = 0;
    MPI_Request r[3];
    MPI_Status st[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    int big[256], rbig[256] = {0};
    for (int i = 0; i < 256; i++)
        big[i] = i * (rank + 1);
    MPI_Iallreduce(&a, &ra, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &r[0]);
    MPI_Iallreduce(big, rbig, 256, MPI_INT, MPI_SUM, MPI_COMM_SELF, &r[1]);
    MPI_Iallreduce(&b, &rb, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &r[2]);
    MPI_Waitall(3, r, st);
    printf("rank %d: iallreduce on self, waitall: %d %d %d\n", rank, ra,
           rbig[255], rb);

    ra = rb = 0;
    a = 10 * (rank + 1);
    MPI_Iallreduce(&a, &ra, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &r[0]);
    MPI_Iallreduce(&a, &rb, 1, MPI_INT, MPI_MAX, MPI_COMM_SELF, &r[1]);
    MPI_Iscan(&b, &rc, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &r[2]);
    MPI_Wait(&r[2], MPI_STATUS_IGNORE);
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    printf("rank %d: three on self, waited last first: %d %d %d\n", rank, ra,
           rb, rc);

    int *base, v1 = 0, v2 = 0, got = 0;
    MPI_Win win;
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    base[0] = 100 + rank;
    base[1] = 200 + rank;
    MPI_Win_unlock(rank, win);
    MPI_Win_lock_all(0, win);
    MPI_Rget(&v1, 1, MPI_INT, rank, 0, 1, MPI_INT, win, &r[0]);
    MPI_Rget(&v2, 1, MPI_INT, rank, 1, 1, MPI_INT, win, &r[1]);
    MPI_Irecv(&got, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[2]);
    do
        MPI_Testall(3, r, &flag, st);
    while (!flag);
    MPI_Win_unlock_all(win);
    printf("rank %d: rget from itself, testall: %d %d (and %d)\n", rank, v1,
           v2, got);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
