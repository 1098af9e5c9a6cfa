/*
 * The libc functions whose results the recorder logged (recorder/
 * rec-libc.c), answered from the rank's libc stream (rpl-sys.c): the
 * program sees the recorded time, pid, random bytes and host name. Calls
 * from the stub itself, and clocks the recorder does not log (CPU time),
 * run live; so does everything when the run was recorded with --no-libc.
 */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "rpl.h"

/* real_: the real function NAME (libc's), found once. */
#define REAL(name)                                                         \
    static __typeof__(&name) real_;                                        \
    if (__builtin_expect(!real_, 0))                                       \
        real_ = (__typeof__(&name))dlsym(RTLD_NEXT, #name);

/* The next record of KIND for a call of NAME with ARG from the program,
 * into R: 1, or 0 when the call runs live. */
#define LOGGED(kind, arg, r, name)                                         \
    (rpl_sys_wanted(__builtin_return_address(0)) &&                        \
     rpl_sys_next(kind, arg, r, name))

/* Copies the record's bytes to P (at most CAP) and sets errno: its ret. */
static int64_t give(const struct log_sys_rec *r, void *p, size_t cap)
{
    if (p && r->len)
        memcpy(p, r->data, r->len < cap ? r->len : cap);
    if (r->flags & LOG_SYS_ERRNO)
        errno = r->err;
    return r->ret;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    struct log_sys_rec r;
    REAL(clock_gettime);
    if (!log_sys_clock_logged(id) ||
        !LOGGED(LOG_SYS_CLOCK_GETTIME, id, &r, "clock_gettime"))
        return real_(id, ts);
    return (int)give(&r, ts, sizeof *ts);
}

time_t time(time_t *t)
{
    struct log_sys_rec r;
    REAL(time);
    if (!LOGGED(LOG_SYS_TIME, 0, &r, "time"))
        return real_(t);
    time_t v = (time_t)give(&r, NULL, 0);
    if (t)
        *t = v;
    return v;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    struct log_sys_rec r;
    REAL(gettimeofday);
    if (!LOGGED(LOG_SYS_GETTIMEOFDAY, tz != NULL, &r, "gettimeofday"))
        return real_(tv, tz);
    if (r.len >= sizeof *tv)
        memcpy(tv, r.data, sizeof *tv);
    if (tz && r.len >= sizeof *tv + sizeof(struct timezone))
        memcpy(tz, r.data + sizeof *tv, sizeof(struct timezone));
    return (int)give(&r, NULL, 0);
}

int timespec_get(struct timespec *ts, int base)
{
    struct log_sys_rec r;
    REAL(timespec_get);
    if (!LOGGED(LOG_SYS_TIMESPEC_GET, base, &r, "timespec_get"))
        return real_(ts, base);
    return (int)give(&r, ts, sizeof *ts);
}

pid_t getpid(void)
{
    struct log_sys_rec r;
    REAL(getpid);
    if (!LOGGED(LOG_SYS_GETPID, 0, &r, "getpid"))
        return real_();
    return (pid_t)give(&r, NULL, 0);
}

pid_t getppid(void)
{
    struct log_sys_rec r;
    REAL(getppid);
    if (!LOGGED(LOG_SYS_GETPPID, 0, &r, "getppid"))
        return real_();
    return (pid_t)give(&r, NULL, 0);
}

ssize_t getrandom(void *buf, size_t len, unsigned flags)
{
    struct log_sys_rec r;
    REAL(getrandom);
    if (!LOGGED(LOG_SYS_GETRANDOM, (int64_t)len, &r, "getrandom"))
        return real_(buf, len, flags);
    return (ssize_t)give(&r, buf, len);
}

int getentropy(void *buf, size_t len)
{
    struct log_sys_rec r;
    REAL(getentropy);
    if (!LOGGED(LOG_SYS_GETENTROPY, (int64_t)len, &r, "getentropy"))
        return real_(buf, len);
    return (int)give(&r, buf, len);
}

int gethostname(char *name, size_t len)
{
    struct log_sys_rec r;
    REAL(gethostname);
    if (!LOGGED(LOG_SYS_GETHOSTNAME, (int64_t)len, &r, "gethostname"))
        return real_(name, len);
    give(&r, name, len);
    if (r.len < len)
        name[r.len] = '\0';
    return (int)r.ret;
}

int uname(struct utsname *u)
{
    struct log_sys_rec r;
    REAL(uname);
    if (!LOGGED(LOG_SYS_UNAME, 0, &r, "uname"))
        return real_(u);
    return (int)give(&r, u, sizeof *u);
}

uint32_t arc4random(void)
{
    struct log_sys_rec r;
    REAL(arc4random);
    if (!LOGGED(LOG_SYS_ARC4RANDOM, 0, &r, "arc4random"))
        return real_();
    return (uint32_t)r.ret;
}

void arc4random_buf(void *buf, size_t len)
{
    struct log_sys_rec r;
    REAL(arc4random_buf);
    if (!LOGGED(LOG_SYS_ARC4RANDOM_BUF, (int64_t)len, &r, "arc4random_buf"))
        real_(buf, len);
    else
        give(&r, buf, len);
}

uint32_t arc4random_uniform(uint32_t bound)
{
    struct log_sys_rec r;
    REAL(arc4random_uniform);
    if (!LOGGED(LOG_SYS_ARC4RANDOM_UNIFORM, bound, &r, "arc4random_uniform"))
        return real_(bound);
    return (uint32_t)r.ret;
}
