/* Windows and their memory's lifetime (MPI 4.0, 12.2): the memory of
 * MPI_Win_create is the program's, which may free it once MPI_Win_free
 * returned; MPI_Win_allocate's is MPI's, gone with the window; memory
 * attached to a dynamic window is the program's again once detached or
 * the window freed. MPICH's own test suite frees a window's memory (with
 * free or MPI_Free_mem) just before the window, which MPI does not read
 * then: that too. Each kind lives through several epochs (fences,
 * passive target) with other ranks' puts, then is freed while other
 * windows stay, so later synchronizations have windows to compare.
 * Run with 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (64 * 1024)        /* doubles: 512 KiB */
#define BIG (5 * 1024 * 1024) /* doubles: 40 MiB, beyond what malloc
                               * keeps in its heap: mapped apart */
#define SMALL 512             /* doubles: 4 KiB, in malloc's heap */

static int me, np;

static double sum(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (i % 7 + 1);
    return s;
}

/* Fence epochs: each rank puts into its right neighbour at DISP, the
 * epochs UNIT apart. */
static void fences(MPI_Win win, MPI_Aint disp, MPI_Aint unit, int epochs)
{
    double v[16];
    for (int e = 0; e < epochs; e++) {
        for (int i = 0; i < 16; i++)
            v[i] = me * 100 + e * 10 + i;
        MPI_Win_fence(0, win);
        MPI_Put(v, 16, MPI_DOUBLE, (me + 1) % np, disp + e * 16 * unit, 16,
                MPI_DOUBLE, win);
        MPI_Win_fence(0, win);
    }
}

/* A passive-target epoch: rank 0 accumulates into everyone's DISP. */
static void passive(MPI_Win win, MPI_Aint disp)
{
    double one = 1.5;
    if (me == 0)
        for (int r = 0; r < np; r++) {
            MPI_Win_lock(MPI_LOCK_SHARED, r, 0, win);
            MPI_Accumulate(&one, 1, MPI_DOUBLE, r, disp, 1, MPI_DOUBLE,
                           MPI_SUM, win);
            MPI_Win_unlock(r, win);
        }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Win cw, aw, dw;
    double *cbuf, *abuf, *d1, *d2;
    MPI_Aint a1, a2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    /* MPI_Win_allocate: stays to the end. */
    MPI_Win_allocate(N * sizeof(double), sizeof(double), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &abuf, &aw);
    memset(abuf, 0, N * sizeof(double));

    /* MPI_Win_create over malloc'd memory, freed right after the window,
     * twice (the second window may reuse the first one's handle). */
    for (int round = 0; round < 2; round++) {
        cbuf = calloc(N, sizeof(double));
        MPI_Win_create(cbuf, N * sizeof(double), sizeof(double),
                       MPI_INFO_NULL, MPI_COMM_WORLD, &cw);
        fences(cw, round * 64, 1, 3);
        fences(aw, round * 64, 1, 2);
        passive(cw, N - 1);
        printf("rank %d: create round %d sum %.1f\n", me, round,
               sum(cbuf, N));
        MPI_Win_free(&cw);
        free(cbuf);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* The memory freed just before its window: malloc's (large: given
     * back to the system), then MPI_Alloc_mem's (small: kept by malloc). */
    cbuf = calloc(BIG, sizeof(double));
    MPI_Win_create(cbuf, BIG * sizeof(double), sizeof(double), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &cw);
    fences(cw, BIG - 64, 1, 2);
    printf("rank %d: malloc'd sum %.1f\n", me, sum(cbuf, BIG));
    free(cbuf);
    MPI_Win_free(&cw);
    MPI_Alloc_mem(SMALL * sizeof(double), MPI_INFO_NULL, &cbuf);
    memset(cbuf, 0, SMALL * sizeof(double));
    MPI_Win_create(cbuf, SMALL * sizeof(double), sizeof(double),
                   MPI_INFO_NULL, MPI_COMM_WORLD, &cw);
    fences(cw, 0, 1, 3);
    printf("rank %d: MPI_Alloc_mem'd sum %.1f\n", me, sum(cbuf, SMALL));
    MPI_Free_mem(cbuf);
    MPI_Win_free(&cw);
    fences(aw, 128, 1, 1);

    /* A dynamic window: two buffers attached, one detached and freed
     * while the other is in use, the window freed with the other still
     * attached, which is then freed. */
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dw);
    d1 = calloc(N, sizeof(double));
    d2 = calloc(N, sizeof(double));
    MPI_Win_attach(dw, d1, N * sizeof(double));
    MPI_Win_attach(dw, d2, N * sizeof(double));
    MPI_Get_address(d1, &a1);
    MPI_Get_address(d2, &a2);
    {
        MPI_Aint t1, t2;
        int right = (me + 1) % np, left = (me + np - 1) % np;
        MPI_Sendrecv(&a1, 1, MPI_AINT, left, 1, &t1, 1, MPI_AINT, right, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&a2, 1, MPI_AINT, left, 2, &t2, 1, MPI_AINT, right, 2,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        fences(dw, t1, sizeof(double), 2);
        fences(dw, t2, sizeof(double), 3);
        MPI_Win_detach(dw, d1);
        free(d1);
        MPI_Barrier(MPI_COMM_WORLD);
        fences(dw, t2 + 100 * sizeof(double), sizeof(double), 2);
        fences(aw, 256, 1, 1);
    }
    printf("rank %d: dynamic sum %.1f\n", me, sum(d2, N));
    MPI_Win_free(&dw);
    free(d2);
    MPI_Barrier(MPI_COMM_WORLD);

    fences(aw, 512, 1, 2);
    passive(aw, N - 2);
    printf("rank %d: allocate sum %.1f\n", me, sum(abuf, N));
    MPI_Win_free(&aw);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
