/*
 * ckpt-track-uffd.c - opening the uffd backend (see ckpt-track.c): a
 * userfaultfd in asynchronous write-protect mode, and /proc/self/pagemap
 * for PAGEMAP_SCAN; and the probe a front end asks before it starts a
 * replay (ckpt-file.h). Runs when the library starts, never during a
 * rollback: libc is fine here.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ckpt-file.h"
#include "ckpt-sys.h"
#include "ckpt-track.h"

/* Out of the program's way: its own descriptors keep their numbers. */
static int high_fd(int fd)
{
    if (fd >= 900)
        return fd;
    int h = fcntl(fd, F_DUPFD_CLOEXEC, 900);
    if (h < 0)
        return fd;
    ck_sys(SYS_close, fd, 0, 0);
    return h;
}

void ckpt__track_pagemap_open(struct ckt_state *t)
{
    long pm = ck_sys(SYS_open, "/proc/self/pagemap", O_RDONLY | O_CLOEXEC, 0);
    t->pagemap = pm < 0 ? -1 : high_fd((int)pm);
}

int ckpt__track_uffd_open(struct ckt_state *t, char *why, size_t len)
{
    long fd = ck_sys(SYS_userfaultfd, O_CLOEXEC | CK_UFFD_USER_MODE_ONLY, 0, 0);
    if (fd < 0) {
        snprintf(why, len, "userfaultfd: %s", strerror((int)-fd));
        return -1;
    }
    struct ck_uffdio_api api = {CK_UFFD_API,
                                CK_UFFD_FEATURE_WP_ASYNC |
                                    CK_UFFD_FEATURE_WP_UNPOPULATED,
                                0};
    long r = ck_sys(SYS_ioctl, fd, CK_UFFDIO_API, &api);
    if (r < 0) {
        snprintf(why, len, "userfaultfd without asynchronous write-protect "
                 "(Linux 6.7 or later needed): %s", strerror((int)-r));
        ck_sys(SYS_close, fd, 0, 0);
        return -1;
    }
    long pm = t->pagemap >= 0 ? t->pagemap
                              : ck_sys(SYS_open, "/proc/self/pagemap",
                                       O_RDONLY | O_CLOEXEC, 0);
    if (pm < 0) {
        snprintf(why, len, "/proc/self/pagemap: %s", strerror((int)-pm));
        ck_sys(SYS_close, fd, 0, 0);
        return -1;
    }
    /* The ioctl exists? (an empty scan) */
    struct ck_pm_scan_arg a = {sizeof a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    r = ck_sys(SYS_ioctl, pm, CK_PAGEMAP_SCAN, &a);
    if (r < 0) {
        snprintf(why, len, "no PAGEMAP_SCAN (Linux 6.7 or later needed): %s",
                 strerror((int)-r));
        ck_sys(SYS_close, fd, 0, 0);
        ck_sys(SYS_close, pm, 0, 0);
        return -1;
    }
    t->uffd = high_fd((int)fd);
    t->pagemap = high_fd((int)pm);
    return 0;
}

int ckpt_uffd_available(char *why, size_t len)
{
    struct ckt_state t = {0};
    t.pagemap = -1;
    if (ckpt__track_uffd_open(&t, why, len) < 0)
        return 0;
    close(t.uffd);
    close(t.pagemap);
    return 1;
}
