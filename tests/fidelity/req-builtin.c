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
 *
 * Then requests kept in an array, each started into its slot in another
 * order than the slots', completed by MPI_Waitany / MPI_Testsome / a
 * MPI_Wait of one slot, each slot's buffers (heap, v-collective arrays
 * too) freed as soon as its own request completed, as MPICH's
 * coll/nonblocking3 does; some of them carry nothing to log (MPI_IN_PLACE
 * at a scatter's root, a zero count). Pairing a completion with the
 * oldest operation of the handle gave a slot another's data (and the
 * recorder read freed arrays: SIGSEGV).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define SLOTS 8

struct slot {
    int *send, *recv, *counts, *displs, n, kind;
};

/* Starts operation KIND (of 5) into R with slot S's fresh buffers. */
static void start(struct slot *s, int kind, int seed, MPI_Request *r)
{
    int n = 4 + kind * 3;
    s->kind = kind;
    s->n = n;
    s->send = malloc(n * sizeof(int));
    s->recv = malloc(n * sizeof(int));
    s->counts = malloc(sizeof(int));
    s->displs = malloc(sizeof(int));
    for (int i = 0; i < n; i++) {
        s->send[i] = seed * 100 + i;
        s->recv[i] = -1;
    }
    s->counts[0] = n;
    s->displs[0] = 0;
    switch (kind) {
    case 0:
        MPI_Iallreduce(s->send, s->recv, n, MPI_INT, MPI_SUM, MPI_COMM_SELF,
                       r);
        break;
    case 1:
        MPI_Iallgatherv(s->send, n, MPI_INT, s->recv, s->counts, s->displs,
                        MPI_INT, MPI_COMM_SELF, r);
        break;
    case 2: /* the root keeps its part where it is: nothing received */
        MPI_Iscatter(s->send, n, MPI_INT, MPI_IN_PLACE, n, MPI_INT, 0,
                     MPI_COMM_SELF, r);
        break;
    case 3: /* nothing at all */
        MPI_Iallreduce(s->send, s->recv, 0, MPI_INT, MPI_SUM, MPI_COMM_SELF,
                       r);
        break;
    default:
        MPI_Iscan(s->send, s->recv, n, MPI_INT, MPI_MAX, MPI_COMM_SELF, r);
    }
}

static long done(struct slot *s)
{
    long sum = 0;
    for (int i = 0; i < s->n; i++)
        sum += (long)s->recv[i] * (i + 1);
    free(s->send);
    free(s->recv);
    free(s->counts);
    free(s->displs);
    return sum;
}

/* Several rounds: slots started in a shuffled order, completed by index. */
static void slots(int rank)
{
    static const int order[SLOTS] = {5, 2, 7, 0, 3, 6, 1, 4};
    struct slot s[SLOTS];
    MPI_Request r[SLOTS];
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < SLOTS; k++) {
            int i = order[(k + round) % SLOTS];
            start(&s[i], (i + round) % 5, rank * 10 + round + i, &r[i]);
        }
        printf("rank %d round %d:", rank, round);
        int left = SLOTS;
        if (round == 1) { /* one slot by itself first */
            MPI_Wait(&r[6], MPI_STATUS_IGNORE);
            printf(" wait 6 -> %ld;", done(&s[6]));
            left--;
        }
        while (left > 0) {
            int idx[SLOTS], n = 0;
            MPI_Status st[SLOTS];
            if (round == 2) {
                MPI_Testsome(SLOTS, r, &n, idx, st);
            } else {
                MPI_Waitany(SLOTS, r, &idx[0], MPI_STATUS_IGNORE);
                n = 1;
            }
            for (int j = 0; j < n && n != MPI_UNDEFINED; j++, left--)
                printf(" %d -> %ld", idx[j], done(&s[idx[j]]));
        }
        printf("\n");
    }
}

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
    slots(rank);
    MPI_Finalize();
    return 0;
}
