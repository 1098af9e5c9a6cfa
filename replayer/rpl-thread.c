/*
 * Threads: the replay of a rank recorded under MPI_THREAD_MULTIPLE, whose
 * records name the calling thread (LOG_REC_THREAD; util/thread.h numbers
 * threads alike in the recording and here). The mirror of the recorder's
 * lock (recorder/rec.h).
 *
 * Each thread's MPI call waits in rpl_begin until the log's next event is
 * that thread's (its turn), then the thread owns the stub until its
 * outermost MPI call returns (rpl_thread_leave): the stub's tables, the
 * log's cursor and the debugger hooks see one call at a time, in the
 * recorded order. Blocking calls return at once in replay, so holding a
 * thread back never blocks the thread whose turn it is. A nested call
 * (from an error handler or a callback) waits for its turn too, giving
 * the stub up while it waits.
 *
 * A thread whose turn never comes (the program diverged: a thread makes
 * another call, or another thread makes it) must not hang the replay:
 * when every live thread waits and none has the turn, or when threads
 * have waited for a turn that does not come for DRDB_REPLAY_TURN_TIMEOUT
 * seconds of their own running time (30 by default; the time the process
 * sits stopped under GDB does not count; while the thread due is running
 * on a CPU, which it does when it computes, ten times as long), the
 * replay stops as diverged, naming the event due and each waiting
 * thread's call.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rpl.h"
#include "thread.h"

int rpl_mt;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int busy;            /* a thread owns the stub */
static pthread_t owner;
static __thread int depth;  /* this thread's MPI calls in progress */

/* The threads waiting for their turn, for the report. */
#define WAITERS_MAX 256
static struct waiter {
    int used;
    uint64_t thread;
    int fn;
} waiters[WAITERS_MAX];
static int nwaiting;

#define SLICE_MS 100
static long slices_max = 300;

/* Whether thread NUM is running (on a CPU or ready to): then its turn
 * may still come, however long it takes. */
static int running(uint64_t num)
{
    pid_t tid = util_thread_tid(num);
    char path[64], buf[256];
    if (tid <= 0)
        return 0;
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
    if (rpl_read_small(path, buf, sizeof buf) <= 0)
        return 0;
    /* "tid (comm) S ...": the state follows the last ')'. */
    const char *p = strrchr(buf, ')');
    return p && p[1] == ' ' && p[2] == 'R';
}

static void wake(void)
{
    pthread_mutex_lock(&lock);
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

void rpl_thread_start(void)
{
    const char *t = getenv(DRDB_ENV_TURN_TIMEOUT);
    if (t && *t) {
        char *end;
        double s = strtod(t, &end);
        if (!*end && s > 0)
            slices_max = (long)(s * 1000 / SLICE_MS) + 1;
    }
    util_thread_exit_hook = wake;
    rpl_mt = 1;
}

void rpl_thread_enter(void)
{
    depth++;
}

void rpl_thread_leave(void)
{
    if (--depth > 0)
        return;
    pthread_mutex_lock(&lock);
    if (busy && pthread_equal(owner, pthread_self())) {
        busy = 0;
        /* A thread's polls collapsed into one event (rpl_mid_run) are its
         * consecutive turns: until the last, no other thread's turn can
         * come, so none is woken (a poll loop of a million calls would
         * wake every waiting thread a million times). */
        if (!rpl_mid_run())
            pthread_cond_broadcast(&changed);
    }
    pthread_mutex_unlock(&lock);
}

/* The report when no thread can go on: the event due, the waiting
 * threads' calls. WHY says which of the two cases it is. */
__attribute__((noreturn)) static void stuck(const char *why)
{
    char due[160], list[1024], th[32];
    uint64_t thread;
    int fn;
    if (rpl_next_turn(&thread, &fn)) {
        snprintf(due, sizeof due, "event %" PRIu64, (uint64_t)drdb_event);
    } else {
        log_thread_name(th, sizeof th, thread);
        snprintf(due, sizeof due, "event %" PRIu64 " is thread %s's %s",
                 (uint64_t)drdb_event, th, log_func_name(fn));
    }
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < WAITERS_MAX && used < sizeof list; i++) {
        if (!waiters[i].used)
            continue;
        log_thread_name(th, sizeof th, waiters[i].thread);
        used += (size_t)snprintf(list + used, sizeof list - used,
                                 "%sthread %s in %s", used ? ", " : "", th,
                                 log_func_name(waiters[i].fn));
    }
    rpl_fail(NULL, RPL_EXIT_DIVERGED,
             "replay diverged: the threads do not make their MPI calls in "
             "the recorded order: %s, %s; waiting: %s", due, why, list);
}

void rpl_thread_turn(int fn)
{
    if (!rpl_mt || depth == 0 || rpl_ser)
        return; /* MPI_Init_thread itself: one thread; SERIALIZED: rpl.c */
    uint64_t me = util_thread_self(), thread;
    int efn;
    pthread_mutex_lock(&lock);
    if (busy && pthread_equal(owner, pthread_self())) {
        if (rpl_next_turn(&thread, &efn) || thread == me) {
            pthread_mutex_unlock(&lock);
            return;
        }
        busy = 0; /* a nested call out of turn: let the others go */
        pthread_cond_broadcast(&changed);
    }
    struct waiter *w = NULL;
    for (int i = 0; i < WAITERS_MAX && !w; i++)
        if (!waiters[i].used)
            w = &waiters[i];
    if (w)
        *w = (struct waiter){1, me, fn};
    nwaiting++;
    long slices = 0, total = 0;
    for (;;) {
        if (!busy) {
            if (rpl_next_turn(&thread, &efn) || thread == me)
                break;
            /* Every thread waits, and none for this turn. */
            int due_waits = 0;
            for (int i = 0; i < WAITERS_MAX; i++)
                if (waiters[i].used && waiters[i].thread == thread)
                    due_waits = 1;
            if (!due_waits && nwaiting >= util_thread_live())
                stuck("which is not running");
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += SLICE_MS * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        /* Slices, not a deadline: time stopped under a debugger does not
         * count (the wait returns once when the process resumes). */
        if (pthread_cond_timedwait(&changed, &lock, &ts) != ETIMEDOUT ||
            busy)
            continue;
        /* While the thread due runs on a CPU it may be computing: ten
         * times as long (it may also spin, waiting for a waiting one). */
        total++;
        if (!rpl_next_turn(&thread, &efn) && running(thread))
            slices = 0;
        else
            slices++;
        if (slices > slices_max || total > 10 * slices_max) {
            char why[160];
            snprintf(why, sizeof why, "which has not come in %.1f s of "
                     "waiting (" DRDB_ENV_TURN_TIMEOUT ")",
                     (double)(total - 1) * SLICE_MS / 1000);
            stuck(why);
        }
    }
    if (w)
        w->used = 0;
    nwaiting--;
    busy = 1;
    owner = pthread_self();
    pthread_mutex_unlock(&lock);
}
