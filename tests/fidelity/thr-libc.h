/*
 * thr-libc.h - for the thr-libc-* programs: a delay that differs in every
 * run (and between the recording and each replay), so that threads make
 * their first libc call in another order each time. Its sources are not
 * recorded: the kernel's thread id and the thread's CPU-time clock.
 */
#ifndef THR_LIBC_H
#define THR_LIBC_H

#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Sleeps 0 to 21 ms, chosen from unrecorded sources mixed with SALT. */
static void thr_libc_jitter(unsigned salt)
{
    struct timespec c;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c);
    uint64_t x = (uint64_t)syscall(SYS_gettid) * 0x9e3779b97f4a7c15u ^
                 (uint64_t)c.tv_nsec ^ (uint64_t)salt * 0x2545f4914f6cdd1du;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 32;
    struct timespec d = {0, (long)(x % 8) * 3000000L};
    nanosleep(&d, NULL);
}

/* The nanoseconds of CLOCK_MONOTONIC, through the recorded call. */
static long long thr_libc_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#endif
