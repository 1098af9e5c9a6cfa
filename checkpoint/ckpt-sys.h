/*
 * ckpt-sys.h - raw system calls for the checkpoint library: they touch no
 * errno (thread-local program memory) and no lazily bound PLT entry, so the
 * restore path writes nothing of the program's but the pages it restores.
 * The restorer (ckpt-int.h) calls the kernel only through these.
 * Results are the kernel's: >= 0, or -errno.
 */
#ifndef DRDB_CKPT_SYS_H
#define DRDB_CKPT_SYS_H

#include <stdint.h>
#include <sys/syscall.h>

static inline long ck_sys6(long n, long a, long b, long c, long d, long e,
                           long f)
{
    long ret;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
                       "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}

#define ck_sys(n, a, b, c) ck_sys6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)

static inline void *ck_mmap(void *addr, uint64_t len, int prot, int flags,
                            int fd, uint64_t off)
{
    return (void *)ck_sys6(SYS_mmap, (long)addr, (long)len, prot, flags, fd,
                           (long)off);
}
static inline int ck_mmap_failed(void *p)
{
    return (unsigned long)p >= (unsigned long)-4095L;
}

/* Copies N bytes (a multiple of 8) without calling libc. */
static inline void ck_copy(void *dst, const void *src, uint64_t n)
{
    uint64_t q = n / 8;
    __asm__ volatile("rep movsq" : "+D"(dst), "+S"(src), "+c"(q) : : "memory");
}

/* Copies N bytes (any number) without calling libc. */
static inline void ck_copy_bytes(void *dst, const void *src, uint64_t n)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

#endif
