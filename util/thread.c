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

#include "thread.h"

void (*util_thread_exit_hook)(void);

static __thread uint64_t self_num;  /* the main thread: 0 */
static __thread uint64_t children;  /* pthread_create calls made */
static __thread int internal;       /* util_thread_internal depth */
static int live = 1;

uint64_t util_thread_self(void)
{
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
    __atomic_sub_fetch(&live, 1, __ATOMIC_SEQ_CST);
    if (util_thread_exit_hook)
        util_thread_exit_hook();
}

static void *trampoline(void *p)
{
    struct start s = *(struct start *)p;
    free(p);
    self_num = s.num;
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
                      : util_thread_child(self_num, ++children);
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
