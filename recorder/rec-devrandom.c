/*
 * Reads of /dev/urandom and /dev/random (issue 16, class 8): the bytes the
 * program reads are logged in the rank's libc stream (log/log-sys.h,
 * LOG_SYS_DEVRANDOM_*), and the replay returns them. The open functions
 * (rec-files.c) mark the descriptors of those devices; read() and fread()
 * on a marked one log what they returned, close() and fclose() unmark
 * it. Any other read costs one test of a byte.
 */
/* read and fread are each defined once: no 64-bit renaming here. */
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "interpose.h"
#include "rec.h"

#define REC_DEVRANDOM_FDS 1024
static unsigned char marked[REC_DEVRANDOM_FDS];

int rec_devrandom_is(const char *path)
{
    return path && (strcmp(path, "/dev/urandom") == 0 ||
                    strcmp(path, "/dev/random") == 0);
}

void rec_devrandom_opened(const char *path, int fd)
{
    if (fd >= 0 && fd < REC_DEVRANDOM_FDS)
        marked[fd] = (unsigned char)rec_devrandom_is(path);
}

static int is_marked(int fd)
{
    return fd >= 0 && fd < REC_DEVRANDOM_FDS && marked[fd];
}

/* A read of a marked descriptor, logged; apart, so that the common case
 * (read and fread) saves no register. */
__attribute__((noinline, cold)) static ssize_t
logged_read(ssize_t (*real)(int, void *, size_t), int fd, void *buf,
            size_t n, const void *ra)
{
    ssize_t r = real(fd, buf, n);
    if (rec_sys_wanted(ra))
        rec_sys_put(LOG_SYS_DEVRANDOM_READ, r, r < 0 ? errno : 0,
                    (int64_t)n, buf, r > 0 ? (size_t)r : 0);
    return r;
}

__attribute__((noinline, cold)) static size_t
logged_fread(size_t (*real)(void *, size_t, size_t, FILE *), void *buf,
             size_t size, size_t n, FILE *f, const void *ra)
{
    size_t r = real(buf, size, n, f);
    if (rec_sys_wanted(ra))
        rec_sys_put(LOG_SYS_DEVRANDOM_FREAD, (int64_t)r, 0,
                    (int64_t)(size * n), buf, r * size);
    return r;
}

ssize_t read(int fd, void *buf, size_t n)
{
    UTIL_REAL(ssize_t, read, (int, void *, size_t));
    if (__builtin_expect(is_marked(fd), 0))
        return logged_read(real_read, fd, buf, n, UTIL_CALLER);
    return real_read(fd, buf, n);
}

size_t fread(void *buf, size_t size, size_t n, FILE *f)
{
    UTIL_REAL(size_t, fread, (void *, size_t, size_t, FILE *));
    if (__builtin_expect(is_marked(f->_fileno), 0))
        return logged_fread(real_fread, buf, size, n, f, UTIL_CALLER);
    return real_fread(buf, size, n, f);
}

int close(int fd)
{
    UTIL_REAL(int, close, (int));
    if (fd >= 0 && fd < REC_DEVRANDOM_FDS)
        marked[fd] = 0;
    return real_close(fd);
}

int fclose(FILE *f)
{
    UTIL_REAL(int, fclose, (FILE *));
    int fd = f ? fileno(f) : -1;
    if (fd >= 0 && fd < REC_DEVRANDOM_FDS)
        marked[fd] = 0;
    return real_fclose(f);
}
