/*
 * The libc side stream's names and its caller rule (log-sys.h): linked by
 * the recorder, the replay stub and the front end.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log-sys.h"

const char *log_sys_kind_name(int kind)
{
    switch (kind) {
#define LOG_SYS_NAME(id, name, num)                                         \
    case num:                                                               \
        return name;
        LOG_SYS_KINDS(LOG_SYS_NAME)
#undef LOG_SYS_NAME
    }
    return NULL;
}

void log_sys_thread_name(char *buf, size_t len, uint64_t thread,
                         uint32_t nth)
{
    if (thread == LOG_SYS_UNNUMBERED)
        snprintf(buf, len, "u%u", nth);
    else
        log_thread_name(buf, len, thread);
}

int log_sys_thread_parse(const char *s0, uint64_t *thread, uint32_t *nth)
{
    const char *s = s0;
    char back[64];
    uint64_t t = 0;
    unsigned long long n = 0;
    *nth = 0;
    if (*s == 'u') {
        char *end;
        n = strtoull(s + 1, &end, 10);
        if (*end || n == 0 || n > UINT32_MAX)
            return -EINVAL;
        t = LOG_SYS_UNNUMBERED;
    } else {
        /* Parts of 16 bits, dot-separated, at most 4 ("1.2"). */
        for (int parts = 1;; parts++) {
            char *end;
            unsigned long part = strtoul(s, &end, 10);
            if (end == s || part > 0xffff || parts > 4)
                return -EINVAL;
            t = t << 16 | part;
            if (!*end)
                break;
            if (*end != '.')
                return -EINVAL;
            s = end + 1;
        }
    }
    /* Only the name log_sys_thread_name gives: no "01", "0.1", "+1". */
    log_sys_thread_name(back, sizeof back, t, (uint32_t)n);
    if (strcmp(back, s0) != 0)
        return -EINVAL;
    *thread = t;
    *nth = (uint32_t)n;
    return 0;
}

void log_sys_name(char *buf, size_t len, int rank, uint64_t thread,
                  uint32_t nth)
{
    char th[64];
    if (thread == 0) {
        snprintf(buf, len, "rank-%d.sys", rank);
        return;
    }
    log_sys_thread_name(th, sizeof th, thread, nth);
    snprintf(buf, len, "rank-%d.sys.%s", rank, th);
}

void log_sys_path(char *buf, size_t len, const char *dir, int rank,
                  uint64_t thread, uint32_t nth)
{
    char name[96];
    log_sys_name(name, sizeof name, rank, thread, nth);
    snprintf(buf, len, "%s/%s", dir, name);
}

/*
 * The objects whose calls are the MPI implementation's or drdb's, by the
 * start of their file name: MPICH (libmpi*, libmpich*, its Fortran
 * bindings, libpmpi; the replay stub is a libmpich.so.12 too), the
 * libraries it brings for the network and the node (UCX's libuc*,
 * libfabric, verbs and its providers, netlink, PSM, hwloc, PMI, libudev
 * through hwloc, libnuma), and drdb's recorder; or by their folder (the
 * plugins UCX, verbs and libfabric load). None of them is loaded in the
 * replay, where the stub stands for MPI: their calls must not be in the
 * stream. (In MPICH 4.0.2 with UCX, MPI_Init reads the clock in libnl-3,
 * loaded by UCX's verbs transport.)
 */
static const char *const mpi_objects[] = {
    "libmpi", "libpmpi", "libfmpich", "libopa", "libmpl", "libuc",
    "libfabric", "libibverbs", "librdmacm", "libibumad", "libmlx", "libefa",
    "libnl-", "libpsm", "libhwloc", "libpmi", "libudev", "libnuma",
    "libxpmem", "libknem", "libdrdb",
};
static const char *const mpi_folders[] = {"/ucx/", "/libibverbs/",
                                          "/libfabric/"};

static int classify(const void *ra)
{
    Dl_info di;
    if (!dladdr(ra, &di) || !di.dli_fname)
        return 0;
    const char *base = strrchr(di.dli_fname, '/');
    base = base ? base + 1 : di.dli_fname;
    for (size_t i = 0; i < sizeof mpi_objects / sizeof *mpi_objects; i++)
        if (strncmp(base, mpi_objects[i], strlen(mpi_objects[i])) == 0)
            return 1;
    for (size_t i = 0; i < sizeof mpi_folders / sizeof *mpi_folders; i++)
        if (strstr(di.dli_fname, mpi_folders[i]))
            return 1;
    return 0;
}

/* Call sites seen, direct-mapped: (address << 1) | is_mpi, 0 = empty. One
 * 64-bit word each, so threads race harmlessly (a lost entry is decided
 * again). An object unloaded and another loaded at its address could
 * inherit a stale answer: MPI's objects are never unloaded while it runs. */
uint64_t log_sys__sites[LOG_SYS_SITES];

int log_sys__classify(const void *ra, size_t slot)
{
    int mpi = classify(ra);
    __atomic_store_n(&log_sys__sites[slot],
                     (uint64_t)(uintptr_t)ra << 1 | (uint64_t)mpi,
                     __ATOMIC_RELAXED);
    return mpi;
}
