/*
 * The libc functions whose results differ from run to run, interposed in
 * the recorded process (the recorder is preloaded): each calls the real
 * one, found with dlsym(RTLD_NEXT), and logs what the program got into
 * the libc side stream (rec-sys.c). The mirror of replayer/rpl-libc.c.
 *
 * time(), gettimeofday() and clock_gettime() are vDSO-backed in glibc,
 * but they are still exported functions the program calls through its
 * PLT: interposing them works, at any optimization level. Calls from
 * inside MPI (MPICH reads the clock and the pid) are not logged
 * (rec_sys_wanted). Clocks measuring CPU time (CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID, another process's or thread's clock) are not
 * logged: the replay reports its own (docs/replaying.md).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "rec.h"

/* real_: the real function NAME (libc's), found once. */
#define REAL(name)                                                         \
    static __typeof__(&name) real_;                                        \
    if (__builtin_expect(!real_, 0))                                       \
        real_ = (__typeof__(&name))dlsym(RTLD_NEXT, #name);

#define CALLER __builtin_return_address(0)

int rec_real_clock_gettime(clockid_t id, struct timespec *ts)
{
    REAL(clock_gettime);
    return real_(id, ts);
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    REAL(clock_gettime);
    int r = real_(id, ts);
    if (log_sys_clock_logged(id) && rec_sys_wanted(CALLER)) {
        if (__builtin_expect(r == 0, 1))
            rec_sys_put_clock(id, ts);
        else
            rec_sys_put(LOG_SYS_CLOCK_GETTIME, r, errno ? errno : EINVAL,
                        id, NULL, 0);
    }
    return r;
}

time_t time(time_t *t)
{
    REAL(time);
    time_t r = real_(t);
    if (rec_sys_wanted(CALLER))
        rec_sys_put(LOG_SYS_TIME, r, r == (time_t)-1 ? errno : 0, 0, NULL,
                    0);
    return r;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    REAL(gettimeofday);
    int r = real_(tv, tz);
    if (rec_sys_wanted(CALLER)) {
        /* The timeval, then the (obsolete) timezone when asked for (ARG:
         * whether it was). */
        char buf[sizeof(struct timeval) + sizeof(struct timezone)];
        size_t len = 0;
        if (r == 0) {
            memcpy(buf, tv, sizeof *tv);
            len = sizeof *tv;
        }
        if (r == 0 && tz) {
            memcpy(buf + len, tz, sizeof(struct timezone));
            len += sizeof(struct timezone);
        }
        rec_sys_put(LOG_SYS_GETTIMEOFDAY, r, r < 0 ? errno : 0,
                    tz != NULL, buf, len);
    }
    return r;
}

int timespec_get(struct timespec *ts, int base)
{
    REAL(timespec_get);
    int r = real_(ts, base);
    if (rec_sys_wanted(CALLER))
        rec_sys_put(LOG_SYS_TIMESPEC_GET, r, 0, base, ts,
                    r ? sizeof *ts : 0);
    return r;
}

pid_t getpid(void)
{
    REAL(getpid);
    pid_t r = real_();
    if (rec_sys_wanted(CALLER))
        rec_sys_put(LOG_SYS_GETPID, r, 0, 0, NULL, 0);
    return r;
}

pid_t getppid(void)
{
    REAL(getppid);
    pid_t r = real_();
    if (rec_sys_wanted(CALLER))
        rec_sys_put(LOG_SYS_GETPPID, r, 0, 0, NULL, 0);
    return r;
}

ssize_t getrandom(void *buf, size_t len, unsigned flags)
{
    REAL(getrandom);
    ssize_t r = real_(buf, len, flags);
    if (rec_sys_wanted(CALLER))
        rec_sys_put(LOG_SYS_GETRANDOM, r, r < 0 ? errno : 0, (int64_t)len,
                    buf, r > 0 ? (size_t)r : 0);
    return r;
}

int getentropy(void *buf, size_t len)
{
    REAL(getentropy);
    int r = real_(buf, len);
    if (rec_sys_wanted(CALLER))
        rec_sys_put(LOG_SYS_GETENTROPY, r, r < 0 ? errno : 0, (int64_t)len,
                    buf, r == 0 ? len : 0);
    return r;
}

int gethostname(char *name, size_t len)
{
    REAL(gethostname);
    int r = real_(name, len);
    if (rec_sys_wanted(CALLER))
        rec_sys_put(LOG_SYS_GETHOSTNAME, r, r < 0 ? errno : 0, (int64_t)len,
                    name, r == 0 ? strnlen(name, len) : 0);
    return r;
}

int uname(struct utsname *u)
{
    REAL(uname);
    int r = real_(u);
    if (rec_sys_wanted(CALLER))
        rec_sys_put(LOG_SYS_UNAME, r, r < 0 ? errno : 0, 0, u,
                    r == 0 ? sizeof *u : 0);
    return r;
}

uint32_t arc4random(void)
{
    REAL(arc4random);
    uint32_t r = real_();
    if (rec_sys_wanted(CALLER))
        rec_sys_put(LOG_SYS_ARC4RANDOM, r, 0, 0, NULL, 0);
    return r;
}

void arc4random_buf(void *buf, size_t len)
{
    REAL(arc4random_buf);
    real_(buf, len);
    if (rec_sys_wanted(CALLER))
        rec_sys_put(LOG_SYS_ARC4RANDOM_BUF, 0, 0, (int64_t)len, buf, len);
}

uint32_t arc4random_uniform(uint32_t bound)
{
    REAL(arc4random_uniform);
    uint32_t r = real_(bound);
    if (rec_sys_wanted(CALLER))
        rec_sys_put(LOG_SYS_ARC4RANDOM_UNIFORM, r, 0, bound, NULL, 0);
    return r;
}
