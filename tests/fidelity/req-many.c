/* Class 4: many concurrent nonblocking receives (N, default 120) into
 * derived datatypes (vector, struct, indexed, resized), completed by
 * Waitall, Waitany, Waitsome, and by Testall, Testany and Testsome in
 * polling loops (Testsome polled until all are done, some completing each
 * round). Rank pairs (0,1), (2,3): the even rank sends in an order that
 * makes completions arrive a few at a time. The types are made anew each
 * round and freed right after the requests start on even rounds (legal:
 * MPI keeps them until the requests complete), after the completion on
 * odd ones. Each receiver prints every value it got and the order of
 * completion. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 8 /* ints per message slot */

struct rec { int id; double v; short s; };

static MPI_Datatype types[4];

static void make_types(void)
{
    MPI_Type_vector(3, 1, 2, MPI_INT, &types[0]); /* ints 0 2 4 */
    int bl[3] = {1, 1, 1};
    MPI_Aint d[3] = {offsetof(struct rec, id), offsetof(struct rec, v),
                     offsetof(struct rec, s)};
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT};
    MPI_Type_create_struct(3, bl, d, ty, &types[1]);
    int ibl[2] = {2, 1}, idi[2] = {1, 5};
    MPI_Type_indexed(2, ibl, idi, MPI_INT, &types[2]); /* ints 1 2 5 */
    MPI_Datatype r;
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &r);
    MPI_Type_contiguous(3, r, &types[3]); /* ints 0 2 4 again, via resized */
    MPI_Type_free(&r);
    for (int i = 0; i < 4; i++)
        MPI_Type_commit(&types[i]);
}

/* Posts N receives (message i has type i % 4) or sends, tag = base + i. */
static void post(int n, int sender, int peer, int base, int (*ints)[W],
                 struct rec *recs, MPI_Request *req)
{
    for (int j = 0; j < n; j++) {
        /* Senders go from the last to the first, in bursts. */
        int i = sender ? (j % 2 ? n - 1 - j / 2 : j / 2) : j;
        int k = i % 4;
        void *b = k == 1 ? (void *)&recs[i] : (void *)ints[i];
        if (sender) {
            for (int w = 0; w < W; w++)
                ints[i][w] = base * 1000 + i * 10 + w;
            recs[i] = (struct rec){base + i, i * 0.25, (short)(i - 3)};
            MPI_Isend(b, 1, types[k], peer, base + i, MPI_COMM_WORLD, &req[j]);
        } else {
            for (int w = 0; w < W; w++)
                ints[i][w] = -1;
            recs[i] = (struct rec){0, 0, 0};
            MPI_Irecv(b, 1, types[k], peer, base + i, MPI_COMM_WORLD, &req[i]);
        }
    }
}

static void show(int n, int (*ints)[W], struct rec *recs)
{
    for (int i = 0; i < n; i++) {
        if (i % 4 == 1)
            printf(" [%d %g %d]", recs[i].id, recs[i].v, recs[i].s);
        else
            printf(" [%d %d %d %d %d %d]", ints[i][0], ints[i][1], ints[i][2],
                   ints[i][4], ints[i][5], ints[i][6]);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    int rank, size, n = argc > 1 ? atoi(argv[1]) : 120;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = rank ^ 1;
    if (peer >= size) {
        MPI_Finalize();
        return 0;
    }
    int sender = rank % 2 == 0;
    int (*ints)[W] = calloc((size_t)n, sizeof *ints);
    struct rec *recs = calloc((size_t)n, sizeof *recs);
    MPI_Request *req = malloc((size_t)n * sizeof *req);
    MPI_Status *st = malloc((size_t)n * sizeof *st);
    int *idx = malloc((size_t)n * sizeof *idx);
    for (int round = 0; round < 6; round++) {
        int base = 1000 * (round + 1);
        make_types();
        post(n, sender, peer, base, ints, recs, req);
        if (round % 2 == 0)
            for (int i = 0; i < 4; i++)
                MPI_Type_free(&types[i]);
        if (sender) {
            MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
            if (round % 2)
                for (int i = 0; i < 4; i++)
                    MPI_Type_free(&types[i]);
            MPI_Barrier(MPI_COMM_WORLD);
            continue;
        }
        printf("round %d:", round);
        int left = n, polls = 0, flag;
        switch (round) {
        case 0: /* Waitall with statuses */
            MPI_Waitall(n, req, st);
            for (int i = 0; i < n; i += 17)
                printf(" (%d %d)", st[i].MPI_SOURCE, st[i].MPI_TAG);
            break;
        case 1: /* Waitany */
            while (left > 0) {
                int i;
                MPI_Waitany(n, req, &i, &st[0]);
                printf(" %d", i);
                left--;
            }
            break;
        case 2: /* Waitsome */
            while (left > 0) {
                int out;
                MPI_Waitsome(n, req, &out, idx, st);
                printf(" {%d:", out);
                for (int k = 0; k < out; k++)
                    printf(" %d/%d", idx[k], st[k].MPI_TAG);
                printf("}");
                left -= out;
            }
            break;
        case 3: /* Testsome polled */
            while (left > 0) {
                int out;
                MPI_Testsome(n, req, &out, idx, MPI_STATUSES_IGNORE);
                if (out > 0) {
                    printf(" {%d:", out);
                    for (int k = 0; k < out; k++)
                        printf(" %d", idx[k]);
                    printf("}");
                    left -= out;
                }
                polls++;
            }
            break;
        case 4: /* Testany polled */
            while (left > 0) {
                int i;
                MPI_Testany(n, req, &i, &flag, &st[0]);
                if (flag && i != MPI_UNDEFINED) {
                    printf(" %d/%d", i, st[0].MPI_TAG);
                    left--;
                }
                polls++;
            }
            break;
        case 5: /* Testall polled */
            flag = 0;
            while (!flag) {
                MPI_Testall(n, req, &flag, st);
                polls++;
            }
            printf(" tag[last] %d", st[n - 1].MPI_TAG);
            break;
        }
        printf(" polls>0 %d\n data:", polls > 0);
        show(n, ints, recs);
        if (round % 2)
            for (int i = 0; i < 4; i++)
                MPI_Type_free(&types[i]);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(ints);
    free(recs);
    free(req);
    free(st);
    free(idx);
    MPI_Finalize();
    return 0;
}
