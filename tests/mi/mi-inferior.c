/*
 * mi-inferior.c - the small program the mi/ integration tests debug.
 *   mi-inferior            calls compute() a few times, prints, exits 0
 *   mi-inferior loop       busy loop for at most 30 s; reports a SIGINT
 *   mi-inferior exit N     exits with status N
 *   mi-inferior crash      dereferences NULL (SIGSEGV)
 *   mi-inferior threads    two threads, then exits 0
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int global_counter = 42;
const char *weird_string = "tab\there \"quoted\" back\\slash\nnewline \033[0m é";
volatile sig_atomic_t got_sigint;
volatile int stop_loop;

struct point {
    int x, y;
    const char *name;
};

static void on_sigint(int sig)
{
    (void)sig;
    got_sigint = 1;
}

int compute(int a, int b);

int compute(int a, int b)
{
    int sum = a + b;
    int product = a * b;
    return sum + product;
}

/* Inlined twice: a breakpoint on it has two locations. */
static inline __attribute__((always_inline)) int twice(int x)
{
    return x * 2;
}

static int outer(int n)
{
    struct point p = {n, n * 2, "pt"};
    int r = compute(p.x, p.y);
    return twice(r) - r + twice(1) - 1;
}

static void *thread_main(void *arg)
{
    global_counter += (int)(long)arg;
    return NULL;
}

int main(int argc, char **argv)
{
    int i, total = 0;

    if (argc > 1 && strcmp(argv[1], "loop") == 0) {
        time_t t0 = time(NULL);
        signal(SIGINT, on_sigint);
        printf("looping\n");
        fflush(stdout);
        while (!stop_loop && !got_sigint && time(NULL) - t0 < 30)
            total++;
        printf(got_sigint ? "got SIGINT\n" : "loop done\n");
        return got_sigint ? 3 : 0;
    }
    if (argc > 2 && strcmp(argv[1], "exit") == 0)
        return atoi(argv[2]);
    if (argc > 1 && strcmp(argv[1], "crash") == 0) {
        volatile int *nullp = NULL;
        *nullp = 1;
    }
    if (argc > 1 && strcmp(argv[1], "threads") == 0) {
        pthread_t t;
        pthread_create(&t, NULL, thread_main, (void *)1L);
        pthread_join(t, NULL);
    }
    for (i = 0; i < 3; i++)
        total += outer(i);
    printf("total=%d counter=%d\n", total, global_counter);
    return 0;
}
