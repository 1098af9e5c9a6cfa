/* Windows whose memory goes before the window (the recorder read it at
 * the next barrier, detach or free: SIGSEGV). MPI 4.0 (12.2) lets the
 * program free MPI_Win_create's memory once MPI_Win_free returned and an
 * attached buffer once detached; MPICH's own rma tests free it earlier,
 * which MPICH does not notice as long as no RMA reaches the memory:
 *  - malloc'd memory freed, then a barrier, then MPI_Win_free;
 *  - an attached buffer freed before MPI_Win_detach;
 *  - MPI_Win_create over MPI_Win_allocate's memory, and over a shared
 *    window's part (MPI_Comm_split_type), the memory's window freed
 *    first, then a barrier, then the window over it;
 *  - MPI_Alloc_mem'd memory, the window at an offset into it, given back
 *    with MPI_Free_mem before a barrier;
 * with other windows alive through all of it (an empty one, a
 * noncontiguous shared one), fenced so that the later synchronizations
 * have windows to compare. Run with 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (4 * 1024 * 1024) /* doubles: 32 MiB, mapped apart by malloc */
#define N 4096                /* doubles: 32 KiB */

static int me, np;

static double sum(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (i % 7 + 1);
    return s;
}

/* An epoch in which each rank puts 8 doubles into its right neighbour's
 * WIN at DISP (in units of the window). */
static void put_right(MPI_Win win, MPI_Aint disp, int tag)
{
    double v[8];
    for (int i = 0; i < 8; i++)
        v[i] = me * 1000 + tag * 10 + i;
    MPI_Win_fence(0, win);
    MPI_Put(v, 8, MPI_DOUBLE, (me + 1) % np, disp, 8, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
}

int main(int argc, char **argv)
{
    MPI_Win keep, empty, shw, w, over;
    MPI_Comm node;
    MPI_Info info;
    double *kbuf, *sbuf, *buf, *e;
    int nodesize;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me,
                        MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &nodesize);

    /* Alive to the end: a window over the program's memory, an empty
     * one, a noncontiguous shared one whose odd ranks have no part. */
    kbuf = calloc(N, sizeof(double));
    MPI_Win_create(kbuf, N * sizeof(double), sizeof(double), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &keep);
    MPI_Win_allocate(0, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &e,
                     &empty);
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    MPI_Win_allocate_shared(me % 2 ? 0 : N * sizeof(double), sizeof(double),
                            info, node, &sbuf, &shw);
    MPI_Info_free(&info);
    if (sbuf)
        for (int i = 0; i < N; i++)
            sbuf[i] = me + i;
    put_right(keep, 0, 1);

    /* 1. malloc'd memory freed, a barrier, then its window. */
    buf = calloc(BIG, sizeof(double));
    MPI_Win_create(buf, BIG * sizeof(double), sizeof(double), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    put_right(w, BIG - 8, 2);
    printf("rank %d: freed first, sum %.1f\n", me, sum(buf + BIG - 8, 8));
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    put_right(keep, 8, 3);
    MPI_Win_free(&w);

    /* 2. An attached buffer freed before it is detached. */
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    buf = calloc(BIG, sizeof(double));
    MPI_Win_attach(w, buf, BIG * sizeof(double));
    {
        MPI_Aint mine, right;
        MPI_Get_address(buf + BIG - 8, &mine);
        MPI_Sendrecv(&mine, 1, MPI_AINT, (me + np - 1) % np, 0, &right, 1,
                     MPI_AINT, (me + 1) % np, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        double v = me + 0.5;
        MPI_Win_fence(0, w);
        MPI_Put(&v, 1, MPI_DOUBLE, (me + 1) % np, right, 1, MPI_DOUBLE, w);
        MPI_Win_fence(0, w);
    }
    printf("rank %d: attached, got %.1f\n", me, buf[BIG - 8]);
    free(buf);
    MPI_Win_detach(w, buf);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&w);

    /* 3. A window over MPI_Win_allocate's memory, which goes first. */
    MPI_Win_allocate(BIG * sizeof(double), sizeof(double), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &buf, &w);
    memset(buf, 0, BIG * sizeof(double));
    MPI_Win_create(buf, BIG * sizeof(double), sizeof(double), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &over);
    put_right(over, 16, 4);
    printf("rank %d: over allocate, sum %.1f\n", me, sum(buf + 16, 8));
    MPI_Win_free(&w);
    MPI_Barrier(MPI_COMM_WORLD);
    put_right(keep, 16, 5);
    MPI_Win_free(&over);

    /* 4. The same over a shared window's part. */
    MPI_Win_allocate_shared(BIG * sizeof(double), sizeof(double),
                            MPI_INFO_NULL, node, &buf, &w);
    memset(buf, 0, BIG * sizeof(double));
    MPI_Win_create(buf, BIG * sizeof(double), sizeof(double), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &over);
    put_right(over, 24, 6);
    MPI_Barrier(node);
    printf("rank %d: over shared, sum %.1f\n", me, sum(buf + 24, 8));
    MPI_Win_free(&w);
    MPI_Barrier(MPI_COMM_WORLD);
    put_right(keep, 24, 7);
    MPI_Win_free(&over);

    /* 5. MPI_Alloc_mem'd memory, the window at an offset into it, given
     * back before a barrier. */
    MPI_Alloc_mem((BIG + 8) * sizeof(double), MPI_INFO_NULL, &buf);
    memset(buf, 0, (BIG + 8) * sizeof(double));
    MPI_Win_create(buf + 8, BIG * sizeof(double), sizeof(double),
                   MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    put_right(w, 0, 8);
    printf("rank %d: alloc_mem'd, sum %.1f\n", me, sum(buf + 8, 8));
    MPI_Free_mem(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&w);

    /* The windows that stayed: what the others put, what the node's
     * even ranks stored in their shared parts. */
    put_right(keep, 32, 9);
    MPI_Win_fence(0, shw);
    double s = 0;
    for (int q = 0; q < nodesize; q += 2) {
        MPI_Aint size;
        int unit;
        double *p;
        MPI_Win_shared_query(shw, q, &size, &unit, &p);
        s += sum(p, (int)(size / sizeof(double)));
    }
    MPI_Win_fence(0, shw);
    printf("rank %d: kept sum %.1f, shared sum %.1f\n", me, sum(kbuf, N), s);
    MPI_Win_free(&shw);
    MPI_Win_free(&empty);
    MPI_Win_free(&keep);
    free(kbuf);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return 0;
}
