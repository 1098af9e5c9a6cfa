/*
 * crash - a job whose rank 1 dies in the middle, for the fault tests (a
 * killed or crashed rank must still leave a log that replays up to its last
 * completed call).
 *
 * Every iteration does exactly three MPI calls on every rank: a ring
 * MPI_Sendrecv and an MPI_Allreduce, then it prints
 *   rank R: iteration I done sum S
 * and ends with an MPI_Barrier (so when rank 1 leaves it, every rank has
 * printed the line). After MPI_Init, MPI_Comm_rank and MPI_Comm_size
 * (3 calls) and iterations 0..AT-1 (3 + 3*AT MPI calls), rank 1 prints
 *   rank 1: crashing now (MODE) after K MPI calls
 * and then, by MODE:
 *   none       does not crash: all ITERS iterations, exit 0
 *   segv       writes through a null pointer (SIGSEGV)
 *   abort      calls abort() (SIGABRT)
 *   mpi_abort  calls MPI_Abort(MPI_COMM_WORLD, 3)
 *   sleep      prints "rank 1: sleeping, pid P" and sleeps forever, so a
 *              test can SIGKILL it (the other ranks wait in iteration AT)
 * No rank completes iteration AT: it needs rank 1.
 *
 *   mpiexec -n 2..4 ./crash MODE [AT] [ITERS]    (defaults: AT 5, ITERS 10)
 */
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "progs.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "none";
    int at = argc > 2 ? atoi(argv[2]) : 5;
    int iters = argc > 3 ? atoi(argv[3]) : 10;
    int calls = 0;

    if (strcmp(mode, "none") && strcmp(mode, "segv") &&
        strcmp(mode, "abort") && strcmp(mode, "mpi_abort") &&
        strcmp(mode, "sleep")) {
        fprintf(stderr, "crash: unknown mode '%s': use none, segv, abort, "
                        "mpi_abort or sleep\n", mode);
        return 2;
    }
    MPI_Init(&argc, &argv);
    calls++;
    MPI_Comm_rank(MPI_COMM_WORLD, &prog_rank);
    calls++;
    MPI_Comm_size(MPI_COMM_WORLD, &prog_size);
    calls++;
    setvbuf(stdout, NULL, _IOLBF, 0);
    CHECK(prog_size >= 2, "needs at least 2 ranks");
    int left = (prog_rank + prog_size - 1) % prog_size;
    int right = (prog_rank + 1) % prog_size;

    for (int it = 0; it < iters; it++) {
        if (it == at && prog_rank == 1 && strcmp(mode, "none")) {
            prog_say("crashing now (%s) after %d MPI calls", mode, calls);
            fflush(stdout);
            /* Give Hydra time to forward the line: when the job is torn
             * down it may drop output still in the pipe. */
            struct timespec ts = {0, 200000000};
            nanosleep(&ts, NULL);
            if (!strcmp(mode, "segv")) {
                /* volatile: the compiler can neither drop the store nor
                 * prove the pointer null */
                volatile int *volatile p = NULL;
                *p = 1;
                raise(SIGSEGV);
            } else if (!strcmp(mode, "abort")) {
                abort();
            } else if (!strcmp(mode, "mpi_abort")) {
                MPI_Abort(MPI_COMM_WORLD, 3);
            } else {
                prog_say("sleeping, pid %ld", (long)getpid());
                fflush(stdout);
                for (;;)
                    pause();
            }
            prog_fail("still alive after crashing in mode %s", mode);
        }
        int out[4], in[4];
        MPI_Status st;
        prog_fill(out, 4, prog_rank, right, 1, it);
        MPI_OK(MPI_Sendrecv(out, 4, MPI_INT, right, 1, in, 4, MPI_INT, left, 1,
                            MPI_COMM_WORLD, &st));
        calls++;
        CHECK_PAYLOAD(in, 4, left, prog_rank, 1, it);
        prog_sum(in, sizeof in);
        int mine = prog_rank * 10 + it, sum;
        MPI_OK(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM,
                             MPI_COMM_WORLD));
        calls++;
        CHECK(sum == 10 * prog_size * (prog_size - 1) / 2 + prog_size * it,
              "allreduce %d", sum);
        prog_sum_i(sum);
        prog_say("iteration %d done sum %d", it, sum);
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        calls++;
    }
    return prog_finish();
}
