/*
 * Nondeterminism outside MPI (issue 16, class 8): clocks steering
 * communication. Each rank spins until a few hundred microseconds have
 * passed on gettimeofday, CLOCK_MONOTONIC and the other logged clocks,
 * counting its iterations, and sends the counts around a ring; it prints
 * every value it read. MPI_Wtime calls in between (MPICH reads the clock
 * inside them) must not take the program's values. CPU-time clocks run
 * live in the replay: only their return code is printed.
 */
#include <mpi.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

static long long ns(const struct timespec *t)
{
    return (long long)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* Iterations until USEC microseconds pass on clock ID. */
static long spin(clockid_t id, long usec)
{
    struct timespec a, b;
    long n = 0;
    clock_gettime(id, &a);
    do {
        clock_gettime(id, &b);
        n++;
    } while (ns(&b) - ns(&a) < usec * 1000);
    printf("clock %d: %lld -> %lld, %ld reads\n", (int)id, ns(&a), ns(&b), n);
    return n;
}

int main(int argc, char **argv)
{
    int rank, size;
    struct timeval tv0, tv1;
    struct timezone tz;
    gettimeofday(&tv0, NULL);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double w0 = MPI_Wtime();
    long n = 0;
    do {
        gettimeofday(&tv1, &tz);
        n++;
    } while ((tv1.tv_sec - tv0.tv_sec) * 1000000L + tv1.tv_usec -
                 tv0.tv_usec < 300);
    printf("rank %d: gettimeofday %ld.%06ld -> %ld.%06ld (tz %d), %ld reads\n",
           rank, (long)tv0.tv_sec, (long)tv0.tv_usec, (long)tv1.tv_sec,
           (long)tv1.tv_usec, tz.tz_minuteswest, n);
    const clockid_t ids[] = {CLOCK_REALTIME, CLOCK_MONOTONIC,
                             CLOCK_MONOTONIC_RAW, CLOCK_REALTIME_COARSE,
                             CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        long k = spin(ids[i], ids[i] == CLOCK_REALTIME_COARSE ||
                                      ids[i] == CLOCK_MONOTONIC_COARSE
                                  ? 5000 : 200);
        long from;
        double w = MPI_Wtime();
        MPI_Sendrecv(&k, 1, MPI_LONG, (rank + 1) % size, 0, &from, 1,
                     MPI_LONG, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        printf("rank %d: the left rank read %ld times; Wtime %+.9f\n", rank,
               from, w - w0);
        if (from % 2)
            MPI_Barrier(MPI_COMM_WORLD); /* steered by another rank's clock */
        else
            MPI_Barrier(MPI_COMM_WORLD);
    }
    struct timespec cpu;
    printf("rank %d: cpu clocks: %d %d\n", rank,
           clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu),
           clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu));
    struct timespec ts;
    printf("rank %d: timespec_get %d", rank, timespec_get(&ts, TIME_UTC));
    printf(" %lld\n", ns(&ts));
    MPI_Finalize();
    return 0;
}
