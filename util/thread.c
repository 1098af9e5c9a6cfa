/*
 * Deterministic thread numbers (thread.h): pthread_create is interposed
 * (the recorder is preloaded; the stub, libmpich.so.12, comes before libc
 * in the program's search order) and each new thread starts in a
 * trampoline that sets its number.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "thread.h"

void (*util_thread_exit_hook)(void);

static __thread uint64_t self_num;
static __thread int known;          /* self_num is set */
static __thread uint64_t children;  /* pthread_create calls made */
static __thread int internal;       /* util_thread_internal depth */
static int live = 1;

/* Numbered threads alive and their kernel thread ids (util_thread_tid). */
#define TIDS_MAX 1024
static struct {
    uint64_t num;
    pid_t tid; /* 0: a free slot */
} tids[TIDS_MAX];
static pthread_mutex_t tids_lock = PTHREAD_MUTEX_INITIALIZER;

/* Puts thread NUM (kernel id TID) in a free slot; TID 0: takes out the
 * slot of kernel id WAS. A full table forgets the thread (its state is
 * then unknown: see util_thread_tid). */
static void tid_set(uint64_t num, pid_t tid, pid_t was)
{
    pthread_mutex_lock(&tids_lock);
    for (int i = 0; i < TIDS_MAX; i++)
        if (tids[i].tid == was) {
            tids[i].num = num;
            tids[i].tid = tid;
            break;
        }
    pthread_mutex_unlock(&tids_lock);
}

pid_t util_thread_tid(uint64_t num)
{
    if (num == 0)
        return getpid();
    pid_t tid = 0;
    pthread_mutex_lock(&tids_lock);
    for (int i = 0; i < TIDS_MAX && !tid; i++)
        if (tids[i].tid && tids[i].num == num)
            tid = tids[i].tid;
    pthread_mutex_unlock(&tids_lock);
    return tid;
}

uint64_t util_thread_self(void)
{
    /* Not started by our pthread_create: the main thread, or a thread
     * made some other way (clone, C11's thrd_create inside libc). */
    if (!known) {
        self_num = gettid() == getpid() ? 0 : UTIL_THREAD_NONE;
        known = 1;
    }
    return self_num;
}

uint64_t util_thread_child(uint64_t parent, uint64_t index)
{
    if (parent == UTIL_THREAD_NONE || index == 0 || index > 0xffff ||
        parent >> 48)
        return UTIL_THREAD_NONE;
    return parent << 16 | index;
}

int util_thread_live(void)
{
    return __atomic_load_n(&live, __ATOMIC_SEQ_CST);
}

void util_thread_internal(int delta)
{
    internal += delta;
}

struct start {
    void *(*fn)(void *);
    void *arg;
    uint64_t num;
};

static void ended(void *unused)
{
    (void)unused;
    if (self_num != UTIL_THREAD_NONE)
        tid_set(0, 0, gettid());
    __atomic_sub_fetch(&live, 1, __ATOMIC_SEQ_CST);
    if (util_thread_exit_hook)
        util_thread_exit_hook();
}

static void *trampoline(void *p)
{
    struct start s = *(struct start *)p;
    free(p);
    self_num = s.num;
    known = 1;
    if (s.num != UTIL_THREAD_NONE)
        tid_set(s.num, gettid(), 0);
    void *ret;
    /* Runs on return and on pthread_exit (and cancellation) alike. */
    pthread_cleanup_push(ended, NULL);
    ret = s.fn(s.arg);
    pthread_cleanup_pop(1);
    return ret;
}

typedef int create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                      void *);

int pthread_create(pthread_t *t, const pthread_attr_t *attr,
                   void *(*fn)(void *), void *arg)
{
    static create_fn *real;
    if (!real)
        real = (create_fn *)dlsym(RTLD_NEXT, "pthread_create");
    if (!real)
        return EAGAIN;
    struct start *s = malloc(sizeof *s);
    if (!s)
        return EAGAIN;
    s->fn = fn;
    s->arg = arg;
    /* The index is used up whether or not the creation succeeds: a failure
     * is as deterministic as the program's order of creations. */
    s->num = internal ? UTIL_THREAD_NONE
                      : util_thread_child(util_thread_self(), ++children);
    /* Counted before it starts: a thread waiting for the new one's turn
     * must not believe every thread is waiting. */
    __atomic_add_fetch(&live, 1, __ATOMIC_SEQ_CST);
    int rc = real(t, attr, trampoline, s);
    if (rc != 0) {
        __atomic_sub_fetch(&live, 1, __ATOMIC_SEQ_CST);
        free(s);
    }
    return rc;
}
