/*
 * Reads of /dev/urandom and /dev/random in a replay: the bytes the
 * recorded read() or fread() returned (recorder/rec-devrandom.c), from the
 * rank's libc stream. The open functions (rpl-files.c) mark the
 * descriptors of those devices; close() and fclose() unmark them. A run
 * recorded without the stream reads the device live.
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
#include "rpl.h"

#define RPL_DEVRANDOM_FDS 1024
static unsigned char marked[RPL_DEVRANDOM_FDS];

void rpl_devrandom_opened(const char *path, int fd)
{
    if (fd >= 0 && fd < RPL_DEVRANDOM_FDS)
        marked[fd] = path && (strcmp(path, "/dev/urandom") == 0 ||
                              strcmp(path, "/dev/random") == 0);
}

static int is_marked(int fd)
{
    return fd >= 0 && fd < RPL_DEVRANDOM_FDS && marked[fd];
}

ssize_t read(int fd, void *buf, size_t n)
{
    struct log_sys_rec r;
    UTIL_REAL(ssize_t, read, (int, void *, size_t));
    if (__builtin_expect(!is_marked(fd), 1) ||
        !rpl_sys_wanted(UTIL_CALLER) ||
        !rpl_sys_next(LOG_SYS_DEVRANDOM_READ, (int64_t)n, &r,
                      "read(/dev/urandom)"))
        return real_read(fd, buf, n);
    memcpy(buf, r.data, r.len < n ? r.len : n);
    errno = r.err;
    return (ssize_t)r.ret;
}

size_t fread(void *buf, size_t size, size_t n, FILE *f)
{
    struct log_sys_rec r;
    UTIL_REAL(size_t, fread, (void *, size_t, size_t, FILE *));
    if (__builtin_expect(!is_marked(f->_fileno), 1) ||
        !rpl_sys_wanted(UTIL_CALLER) ||
        !rpl_sys_next(LOG_SYS_DEVRANDOM_FREAD, (int64_t)(size * n), &r,
                      "fread(/dev/urandom)"))
        return real_fread(buf, size, n, f);
    memcpy(buf, r.data, r.len < size * n ? r.len : size * n);
    return (size_t)r.ret;
}

int close(int fd)
{
    UTIL_REAL(int, close, (int));
    if (fd >= 0 && fd < RPL_DEVRANDOM_FDS)
        marked[fd] = 0;
    return real_close(fd);
}

int fclose(FILE *f)
{
    UTIL_REAL(int, fclose, (FILE *));
    int fd = f ? fileno(f) : -1;
    if (fd >= 0 && fd < RPL_DEVRANDOM_FDS)
        marked[fd] = 0;
    return real_fclose(f);
}
