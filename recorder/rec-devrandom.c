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

ssize_t read(int fd, void *buf, size_t n)
{
    UTIL_REAL(ssize_t, read, (int, void *, size_t));
    ssize_t r = real_read(fd, buf, n);
    if (__builtin_expect(is_marked(fd), 0) &&
        rec_sys_wanted(UTIL_CALLER))
        rec_sys_put(LOG_SYS_DEVRANDOM_READ, r, r < 0 ? errno : 0,
                    (int64_t)n, buf, r > 0 ? (size_t)r : 0);
    return r;
}

size_t fread(void *buf, size_t size, size_t n, FILE *f)
{
    UTIL_REAL(size_t, fread, (void *, size_t, size_t, FILE *));
    size_t r = real_fread(buf, size, n, f);
    if (__builtin_expect(is_marked(fileno(f)), 0) &&
        rec_sys_wanted(UTIL_CALLER))
        rec_sys_put(LOG_SYS_DEVRANDOM_FREAD, (int64_t)r, 0,
                    (int64_t)(size * n), buf, r * size);
    return r;
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
