/*
 * threads-serialized - MPI_Init_thread with MPI_THREAD_SERIALIZED.
 *
 * 1. MPI_Init_thread(MPI_THREAD_SERIALIZED): provided >= SERIALIZED,
 *    MPI_Query_thread agrees, MPI_Is_thread_main is true in main.
 * 2. ITERS iterations: a worker thread computes a block of numbers (no MPI)
 *    while the main thread runs a ring MPI_Sendrecv and an MPI_Allreduce;
 *    then the main thread joins the worker and reduces its result.
 * 3. Unless the argument "main-only" is given: a helper thread makes MPI
 *    calls (MPI_Is_thread_main must be false there, then a ring
 *    MPI_Sendrecv and an MPI_Allreduce) while the main thread waits in
 *    pthread_join, so calls stay serialized as the level requires.
 *
 *   mpiexec -n 1..4 ./threads-serialized [ITERS] [main-only]
 */
#include <pthread.h>

#include "progs.h"

struct work {
    int seed;
    long long result;
};

static void *compute(void *arg)
{
    struct work *wk = arg;
    long long acc = 0;
    for (int i = 0; i < 20000; i++)
        acc = (acc * 31 + wk->seed + i) % 1000000007LL;
    wk->result = acc;
    return NULL;
}

static long long expected_compute(int seed)
{
    struct work wk = {seed, 0};
    compute(&wk);
    return wk.result;
}

/* Ring shift + allreduce; returns the allreduce result. */
static long long exchange(int it)
{
    int n = prog_size, me = prog_rank;
    int left = (me + n - 1) % n, right = (me + 1) % n;
    int out[4], in[4];
    MPI_Status st;
    prog_fill(out, 4, me, right, 1, it);
    MPI_OK(MPI_Sendrecv(out, 4, MPI_INT, right, 1, in, 4, MPI_INT, left, 1,
                        MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, MPI_INT, left, 1, 4);
    CHECK_PAYLOAD(in, 4, left, me, 1, it);
    prog_sum(in, sizeof in);
    long long mine = me + it, sum;
    MPI_OK(MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM,
                         MPI_COMM_WORLD));
    CHECK(sum == (long long)n * (n - 1) / 2 + (long long)n * it,
          "allreduce %lld", sum);
    return sum;
}

struct helper {
    int it, is_main;
    long long sum;
};

static void *mpi_helper(void *arg)
{
    struct helper *h = arg;
    MPI_OK(MPI_Is_thread_main(&h->is_main));
    h->sum = exchange(h->it);
    return NULL;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 10;
    int main_only = argc > 2 && !strcmp(argv[2], "main-only");
    int provided, queried, is_main;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    prog_start();
    CHECK(provided >= MPI_THREAD_SERIALIZED, "provided %d", provided);
    MPI_OK(MPI_Query_thread(&queried));
    MPI_OK(MPI_Is_thread_main(&is_main));
    CHECK(queried == provided && is_main, "query %d main %d", queried,
          is_main);
    prog_say("thread level provided >= SERIALIZED");

    /* 2. compute thread + MPI in main */
    for (int it = 0; it < iters; it++) {
        pthread_t th;
        struct work wk = {prog_rank * 1000 + it, 0};
        CHECK(pthread_create(&th, NULL, compute, &wk) == 0, "pthread_create");
        long long sum = exchange(it);
        pthread_join(th, NULL);
        CHECK(wk.result == expected_compute(wk.seed), "worker result");
        long long total;
        MPI_OK(MPI_Allreduce(&wk.result, &total, 1, MPI_LONG_LONG, MPI_SUM,
                             MPI_COMM_WORLD));
        long long want = 0;
        for (int r = 0; r < prog_size; r++)
            want += expected_compute(r * 1000 + it);
        CHECK(total == want, "total %lld, want %lld", total, want);
        prog_sum_i(total);
        prog_sum_i(sum);
    }
    prog_say("%d iterations with a compute thread ok", iters);

    /* 3. MPI from a helper thread while main waits */
    if (!main_only) {
        for (int it = 0; it < 3; it++) {
            pthread_t th;
            struct helper h = {iters + it, -1, 0};
            CHECK(pthread_create(&th, NULL, mpi_helper, &h) == 0,
                  "pthread_create");
            pthread_join(th, NULL);
            CHECK(h.is_main == 0, "helper thread is main");
            prog_sum_i(h.sum);
        }
        prog_say("3 rounds of MPI calls from a helper thread ok");
    }
    return prog_finish();
}
