/*
 * ckpt-mpi.c - state in every kind of memory, changed phase by phase
 * between MPI calls, for checkpoint tests under the console: check_all(P)
 * (called from GDB) counts the regions that do not hold phase P's content.
 *
 *   ckpt-mpi [SECONDS]: sleeps SECONDS before MPI_Finalize.
 *
 * Phase 2 unmaps part of a mapping, maps a new one, grows the heap by brk
 * and a realloc; phase 3 shrinks brk, frees and reallocates the big block.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BIG (6u << 20)
#define SMALL 64
#define MAPLEN (32u * 4096)

static char gdata[2 * 4096 + 7] = {1};
static char gbss[3 * 4096 + 5];
static __thread char tls[4096 + 9];
static char *small[SMALL], *big, *grown, *map, *newmap, *stackp, *brkp;
static size_t grown_len = 4000, stackn;
int phase;

static void fill(void *p, size_t n, unsigned seed)
{
    unsigned char *c = p;
    uint32_t x = seed * 2654435761u + 7;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        c[i] = (unsigned char)x;
    }
}

static int same(const void *p, size_t n, unsigned seed)
{
    unsigned char *w = malloc(n);
    fill(w, n, seed);
    int ok = memcmp(p, w, n) == 0;
    free(w);
    return ok;
}

static void set_all(unsigned s)
{
    fill(gdata, sizeof gdata, s + 1);
    fill(gbss, sizeof gbss, s + 2);
    fill(tls, sizeof tls, s + 3);
    for (int i = 0; i < SMALL; i++)
        fill(small[i], 16 + (size_t)i * 5, s + 10 + (unsigned)i);
    fill(big, BIG, s + 4);
    fill(grown, grown_len, s + 5);
    fill(stackp, stackn, s + 6);
    fill(map, MAPLEN, s + 7);
}

/* The number of regions not in phase S's state (0: all of them are). */
int check_all(unsigned s);
int check_all(unsigned s)
{
    int bad = !same(gdata, sizeof gdata, s + 1) +
              !same(gbss, sizeof gbss, s + 2) + !same(tls, sizeof tls, s + 3) +
              !same(big, BIG, s + 4) + !same(grown, grown_len, s + 5) +
              !same(stackp, stackn, s + 6) + !same(map, MAPLEN, s + 7);
    for (int i = 0; i < SMALL; i++)
        bad += !same(small[i], 16 + (size_t)i * 5, s + 10 + (unsigned)i);
    if (newmap && s < 2)
        bad++; /* mapped in phase 2 */
    return bad;
}

/* A place to stop once a phase's state is set. */
void marker(int p);
void marker(int p)
{
    __asm__ volatile("" ::: "memory");
    (void)p;
}

int main(int argc, char **argv)
{
    char stack[2 * 4096 + 3];
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    stackp = stack;
    stackn = sizeof stack;
    for (int i = 0; i < SMALL; i++)
        small[i] = malloc(16 + (size_t)i * 5);
    big = malloc(BIG);
    grown = malloc(grown_len);
    map = mmap(NULL, MAPLEN, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    for (phase = 1; phase <= 4; phase++) {
        if (phase == 2) {
            munmap(map + 4096, 4096);
            mmap(map + 4096, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            newmap = mmap(NULL, MAPLEN, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            memset(newmap, 1, MAPLEN);
            grown_len = 200000;
            grown = realloc(grown, grown_len);
            brkp = sbrk(40 * 4096);
        }
        /* shrink only what this program grew (malloc's own part stays) */
        if (phase == 3 && sbrk(0) == brkp + 40 * 4096) {
            sbrk(-(intptr_t)(30 * 4096));
            free(big);
            big = malloc(BIG);
        }
        set_all((unsigned)phase);
        marker(phase);
        double local = phase + rank, sum = 0;
        MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        printf("rank %d phase %d sum %.0f check %d\n", rank, phase, sum,
               check_all((unsigned)phase));
        fflush(stdout);
    }
    if (argc > 1) /* a rank that runs a while: rollback while running */
        sleep((unsigned)atoi(argv[1]));
    MPI_Finalize();
    return 0;
}
