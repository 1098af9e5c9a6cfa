/*
 * Files and directories created safely (util.h): relative to a directory
 * file descriptor, never through a symbolic link, never reusing a name
 * someone else made. Runs inside the recorded and the replayed process:
 * system calls only, errno restored.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h> /* renameat: no stream is used */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* The call's result as a descriptor or -errno; errno as it was before. */
#define KEEP_ERRNO(expr)                                                    \
    ({                                                                      \
        int saved_ = errno;                                                 \
        long r_ = (expr);                                                   \
        int rc_ = r_ < 0 ? -errno : (int)r_;                                \
        errno = saved_;                                                     \
        rc_;                                                                \
    })

int util_dir_open(int dirfd, const char *path, int nofollow)
{
    int fd = KEEP_ERRNO(openat(dirfd, path,
                               O_RDONLY | O_DIRECTORY | O_CLOEXEC |
                                   (nofollow ? O_NOFOLLOW : 0)));
    /* O_DIRECTORY|O_NOFOLLOW on a link says ENOTDIR: say ELOOP. */
    struct stat st;
    if (fd == -ENOTDIR && nofollow &&
        KEEP_ERRNO(fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW)) == 0 &&
        S_ISLNK(st.st_mode))
        return -ELOOP;
    return fd;
}

int util_file_create(int dirfd, const char *name, int flags)
{
    if (!(flags & (O_WRONLY | O_RDWR)))
        flags |= O_RDWR;
    return KEEP_ERRNO(openat(dirfd, name,
                             flags | O_CREAT | O_EXCL | O_NOFOLLOW |
                                 O_CLOEXEC,
                             0600));
}

/* Appends the decimal digits of V to *P (bounded by END). */
static void put_num(char **p, char *end, unsigned long v)
{
    char d[24];
    int n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) && n < 24);
    while (n && *p < end)
        *(*p)++ = d[--n];
}

static void put_str(char **p, char *end, const char *s)
{
    while (*s && *p < end)
        *(*p)++ = *s++;
}

int util_file_create_tmp(int dirfd, const char *name, char *tmp, size_t len,
                         int flags)
{
    static unsigned long seq;
    if (len < 32)
        return -ENAMETOOLONG;
    for (int tries = 0; tries < 100; tries++) {
        char *p = tmp, *end = tmp + len - 1;
        put_str(&p, end, ".");
        put_str(&p, end, name);
        put_str(&p, end, ".tmp-");
        put_num(&p, end, (unsigned long)getpid());
        put_str(&p, end, "-");
        put_num(&p, end, __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
        if (p == end)
            return -ENAMETOOLONG;
        *p = '\0';
        int fd = util_file_create(dirfd, tmp, flags);
        if (fd != -EEXIST)
            return fd;
    }
    return -EEXIST;
}

int util_file_replace(int dirfd, const char *tmp, const char *name)
{
    return KEEP_ERRNO(renameat(dirfd, tmp, dirfd, name));
}

int util_file_append(int dirfd, const char *name)
{
    int fd = KEEP_ERRNO(openat(dirfd, name,
                               O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC));
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
        KEEP_ERRNO(close(fd));
        return -EINVAL;
    }
    return fd;
}

int util_write_all(int fd, const void *p, size_t len)
{
    const char *c = p;
    while (len) {
        int saved = errno;
        ssize_t w = write(fd, c, len);
        int e = errno;
        errno = saved;
        if (w < 0 && e == EINTR)
            continue;
        if (w < 0)
            return -e;
        if (w == 0)
            return -EIO;
        c += w;
        len -= (size_t)w;
    }
    return 0;
}

int util_dir_create(int dirfd, const char *name, int existing_ok)
{
    int rc = KEEP_ERRNO(mkdirat(dirfd, name, 0700));
    if (rc != -EEXIST)
        return rc;
    if (!existing_ok)
        return -EEXIST;
    struct stat st;
    if (KEEP_ERRNO(fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) < 0)
        return -EEXIST;
    if (S_ISLNK(st.st_mode))
        return -ELOOP;
    if (!S_ISDIR(st.st_mode))
        return -ENOTDIR;
    if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
        return -EPERM;
    return 0;
}
