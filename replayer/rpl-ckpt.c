/*
 * rpl-ckpt.c - when the replay stub takes checkpoints (checkpoint/): at MPI
 * call boundaries, every DRDB_CKPT_INTERVAL seconds of replay at least,
 * every DRDB_CKPT_EVERY events, at the events DRDB_CKPT_EVENTS lists and at
 * drdb_checkpoint_event. DRDB_CKPT_DIR writes them to files (the shadow).
 * DRDB_CKPT=on starts the library with none of these (the console's
 * `checkpoint` command then takes them through the debugger).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ckpt.h"
#include "util.h"
#include "rpl.h"

volatile double drdb_ckpt_interval;
volatile uint64_t drdb_ckpt_every;
volatile uint64_t drdb_checkpoint_event = UINT64_MAX;

/* Empty, but never inlined or removed: breakpoints go here (drdb-hooks.h).
 * drdb_restored_hook overrides checkpoint/'s weak one. */
__attribute__((noinline, used)) void drdb_checkpoint_hook(void)
{
    __asm__ volatile("" ::: "memory");
}
__attribute__((noinline, used)) void drdb_restored_hook(void)
{
    __asm__ volatile("" ::: "memory");
}

int rpl_ckpt_on;
static uint64_t next_every, *chosen;
static size_t nchosen, capchosen, next_chosen;
static int warned;
static double next_time, t0;
static unsigned calls;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* At load time, before main: a debugger can roll a rank back (to a shadow's
 * checkpoint) before its first MPI call. */
static void rpl_ckpt_init(void) __attribute__((constructor));
static void rpl_ckpt_init(void)
{
    static int done;
    if (done++)
        return;
    const char *on = getenv(DRDB_ENV_CKPT),
               *iv = getenv(DRDB_ENV_CKPT_INTERVAL),
               *ev = getenv(DRDB_ENV_CKPT_EVERY),
               *list = getenv(DRDB_ENV_CKPT_EVENTS),
               *dir = getenv(DRDB_ENV_CKPT_DIR);
    if (on && (!strcmp(on, "0") || !strcmp(on, "off")))
        return;
    if (!on && !iv && !ev && !list && !dir)
        return;
    struct ckpt_opts o = {0};
    o.dir = dir && *dir ? dir : NULL;
    char err[512];
    if (ckpt_init(&o, err, sizeof err) < 0) {
        fprintf(stderr, "drdb: checkpoints are off: %s\n", err);
        return;
    }
    rpl_ckpt_on = 1;
    t0 = now();
    if (iv)
        drdb_ckpt_interval = strtod(iv, NULL);
    if (ev)
        drdb_ckpt_every = strtoull(ev, NULL, 10);
    for (const char *p = list; p && *p;) {
        char *end;
        unsigned long long n = strtoull(p, &end, 10);
        if (end == p)
            break;
        if (util_grow(&chosen, &capchosen, nchosen + 1, sizeof *chosen) < 0) {
            fprintf(stderr, "drdb: checkpoints: out of memory for "
                    "DRDB_CKPT_EVENTS: the first %zu events only\n", nchosen);
            break;
        }
        chosen[nchosen++] = n;
        p = *end ? end + 1 : end;
    }
    if (nchosen)
        qsort(chosen, nchosen, sizeof *chosen, cmp_u64);
    next_every = drdb_ckpt_every;
    next_time = t0 + drdb_ckpt_interval;
}

int rpl_ckpt_due(uint64_t no)
{
    if (no == drdb_checkpoint_event)
        return 1;
    /* the chosen events, sorted: the next one's index (events only grow;
     * a rollback brings the index back with the rest of the memory) */
    while (next_chosen < nchosen && chosen[next_chosen] < no)
        next_chosen++;
    if (next_chosen < nchosen && chosen[next_chosen] == no)
        return 1;
    if (drdb_ckpt_every && no >= next_every)
        return 1;
    /* the clock only every 16 calls: the interval is a minimum */
    return drdb_ckpt_interval > 0 && !(++calls & 15) && now() >= next_time;
}

void rpl_ckpt_take(uint64_t no)
{
    double t = now();
    /* set before: a rollback to this checkpoint finds them set */
    next_every = no + drdb_ckpt_every;
    next_time = t + drdb_ckpt_interval;
    long id = ckpt_take(no, t - t0);
    if (id == CKPT_RESUMED) {
        drdb_restored_hook();
        return;
    }
    if (id < 0) {
        if (warned++ < 3)
            fprintf(stderr, "drdb: no checkpoint at event %llu: %s\n",
                    (unsigned long long)no, ckpt_error());
        return;
    }
    next_time = now() + drdb_ckpt_interval; /* its own time not counted */
    drdb_checkpoint_hook();
}
