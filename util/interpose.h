/*
 * interpose.h - definitions of libc's functions that open a file by name,
 * for a library preloaded into a program: the recorder (recorder/
 * rec-files.c) and the replay stub (replayer/rpl-files.c) each define the
 * same set, with their own choice of the name and their own look at the
 * result.
 *
 * A file that expands UTIL_INTERPOSE_OPEN(NAME_OF, OPENED) defines open,
 * open64, openat, openat64, _FORTIFY_SOURCE's __open_2, __open64_2,
 * __openat_2, __openat64_2, creat, creat64, fopen, fopen64, freopen and
 * freopen64. Each calls
 *
 *     const char *NAME_OF(int dirfd, const char *path, int flags,
 *                         char buf[PATH_MAX], const void *ra)
 *
 * for the name to open (PATH itself, or a name it writes into BUF), with
 * open's FLAGS (fopen's mode turned into them) and RA, the address the
 * program called from; then the real function (dlsym RTLD_NEXT); then
 *
 *     void OPENED(int dirfd, const char *path, int flags, int fd,
 *                 const void *ra)
 *
 * with the descriptor it got (fileno of the stream; -1 on failure), and
 * returns its result; errno is the real function's unless OPENED changes
 * it. The file must be compiled without _FILE_OFFSET_BITS=64 (#undef it
 * before any header), so that open and open64 are two functions and not
 * one under two names, and with _GNU_SOURCE.
 */
#ifndef DRDB_UTIL_INTERPOSE_H
#define DRDB_UTIL_INTERPOSE_H

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* The real function NAME (the next definition after this library's),
 * looked up on first use, as real_NAME. */
#define UTIL_REAL(ret, name, params)                                        \
    static ret(*real_##name) params;                                        \
    if (!real_##name)                                                       \
    real_##name = (ret(*) params)dlsym(RTLD_NEXT, #name)

/* The caller of the function being defined. */
#define UTIL_CALLER __builtin_return_address(0)

/* fopen's MODE as open's flags. */
static inline int util_fopen_flags(const char *mode)
{
    int plus = mode && strchr(mode, '+') != NULL;
    switch (mode ? mode[0] : 'r') {
    case 'w':
        return (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC;
    case 'a':
        return (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_APPEND;
    default:
        return plus ? O_RDWR : O_RDONLY;
    }
}

/* Whether open's FLAGS may change the file (create, truncate, write). */
static inline int util_open_writes(int flags)
{
    return (flags & O_ACCMODE) != O_RDONLY ||
           (flags & (O_CREAT | O_TRUNC | O_APPEND));
}

/* open's mode argument, present with O_CREAT or O_TMPFILE. */
#define UTIL_OPEN_MODE(flags, mode)                                         \
    mode_t mode = 0;                                                        \
    if ((flags) & (O_CREAT | O_TMPFILE)) {                                  \
        va_list ap_;                                                        \
        va_start(ap_, flags);                                               \
        mode = (mode_t)va_arg(ap_, int);                                    \
        va_end(ap_);                                                        \
    }

#define UTIL__OPEN(name, NAME_OF, OPENED)                                   \
    int name(const char *path, int flags, ...)                              \
    {                                                                       \
        char buf[PATH_MAX];                                                 \
        UTIL_OPEN_MODE(flags, mode)                                         \
        UTIL_REAL(int, name, (const char *, int, ...));                     \
        int fd = real_##name(NAME_OF(AT_FDCWD, path, flags, buf,            \
                                     UTIL_CALLER), flags, mode);            \
        OPENED(AT_FDCWD, path, flags, fd, UTIL_CALLER);                     \
        return fd;                                                          \
    }
#define UTIL__OPENAT(name, NAME_OF, OPENED)                                 \
    int name(int dirfd, const char *path, int flags, ...)                   \
    {                                                                       \
        char buf[PATH_MAX];                                                 \
        UTIL_OPEN_MODE(flags, mode)                                         \
        UTIL_REAL(int, name, (int, const char *, int, ...));                \
        int fd = real_##name(dirfd, NAME_OF(dirfd, path, flags, buf,        \
                                            UTIL_CALLER), flags, mode);     \
        OPENED(dirfd, path, flags, fd, UTIL_CALLER);                        \
        return fd;                                                          \
    }
/* _FORTIFY_SOURCE's checked forms (no mode: no O_CREAT). */
#define UTIL__OPEN2(name, NAME_OF, OPENED)                                  \
    int name(const char *path, int flags);                                  \
    int name(const char *path, int flags)                                   \
    {                                                                       \
        char buf[PATH_MAX];                                                 \
        UTIL_REAL(int, name, (const char *, int));                          \
        int fd = real_##name(NAME_OF(AT_FDCWD, path, flags, buf,            \
                                     UTIL_CALLER), flags);                  \
        OPENED(AT_FDCWD, path, flags, fd, UTIL_CALLER);                     \
        return fd;                                                          \
    }
#define UTIL__OPENAT2(name, NAME_OF, OPENED)                                \
    int name(int dirfd, const char *path, int flags);                       \
    int name(int dirfd, const char *path, int flags)                        \
    {                                                                       \
        char buf[PATH_MAX];                                                 \
        UTIL_REAL(int, name, (int, const char *, int));                     \
        int fd = real_##name(dirfd, NAME_OF(dirfd, path, flags, buf,        \
                                            UTIL_CALLER), flags);           \
        OPENED(dirfd, path, flags, fd, UTIL_CALLER);                        \
        return fd;                                                          \
    }
#define UTIL__CREAT(name, NAME_OF, OPENED)                                  \
    int name(const char *path, mode_t mode)                                 \
    {                                                                       \
        char buf[PATH_MAX];                                                 \
        int flags = O_WRONLY | O_CREAT | O_TRUNC;                           \
        UTIL_REAL(int, name, (const char *, mode_t));                       \
        int fd = real_##name(NAME_OF(AT_FDCWD, path, flags, buf,            \
                                     UTIL_CALLER), mode);                   \
        OPENED(AT_FDCWD, path, flags, fd, UTIL_CALLER);                     \
        return fd;                                                          \
    }
#define UTIL__FOPEN(name, NAME_OF, OPENED)                                  \
    FILE *name(const char *path, const char *mode)                          \
    {                                                                       \
        char buf[PATH_MAX];                                                 \
        int flags = util_fopen_flags(mode);                                 \
        UTIL_REAL(FILE *, name, (const char *, const char *));              \
        FILE *f = real_##name(NAME_OF(AT_FDCWD, path, flags, buf,           \
                                      UTIL_CALLER), mode);                  \
        OPENED(AT_FDCWD, path, flags, f ? fileno(f) : -1, UTIL_CALLER);     \
        return f;                                                           \
    }
/* freopen with no name changes the mode of the stream's own file. */
#define UTIL__FREOPEN(name, NAME_OF, OPENED)                                \
    FILE *name(const char *path, const char *mode, FILE *old)               \
    {                                                                       \
        char buf[PATH_MAX];                                                 \
        int flags = util_fopen_flags(mode);                                 \
        UTIL_REAL(FILE *, name, (const char *, const char *, FILE *));      \
        FILE *f = real_##name(path ? NAME_OF(AT_FDCWD, path, flags, buf,    \
                                             UTIL_CALLER) : path,           \
                              mode, old);                                   \
        if (path)                                                           \
            OPENED(AT_FDCWD, path, flags, f ? fileno(f) : -1, UTIL_CALLER); \
        return f;                                                           \
    }

#define UTIL_INTERPOSE_OPEN(NAME_OF, OPENED)                                \
    UTIL__OPEN(open, NAME_OF, OPENED)                                       \
    UTIL__OPEN(open64, NAME_OF, OPENED)                                     \
    UTIL__OPENAT(openat, NAME_OF, OPENED)                                   \
    UTIL__OPENAT(openat64, NAME_OF, OPENED)                                 \
    UTIL__OPEN2(__open_2, NAME_OF, OPENED)                                  \
    UTIL__OPEN2(__open64_2, NAME_OF, OPENED)                                \
    UTIL__OPENAT2(__openat_2, NAME_OF, OPENED)                              \
    UTIL__OPENAT2(__openat64_2, NAME_OF, OPENED)                            \
    UTIL__CREAT(creat, NAME_OF, OPENED)                                     \
    UTIL__CREAT(creat64, NAME_OF, OPENED)                                   \
    UTIL__FOPEN(fopen, NAME_OF, OPENED)                                     \
    UTIL__FOPEN(fopen64, NAME_OF, OPENED)                                   \
    UTIL__FREOPEN(freopen, NAME_OF, OPENED)                                 \
    UTIL__FREOPEN(freopen64, NAME_OF, OPENED)

#endif
