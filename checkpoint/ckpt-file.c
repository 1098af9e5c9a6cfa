/*
 * ckpt-file.c - the format of a checkpoint image (ckpt-int.h), the same in
 * memory and in a file: its layout, its checksums, the checks an image must
 * pass before anything is restored from it, writing it to a file, and
 * reading a file's header; a line of the checkpoint table (ckpt-file.h:
 * the front end's uses of the library). Holds no state; touches nothing
 * of the calling process.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt-file.h"
#include "ckpt-int.h"
#include "ckpt-sys.h"
#include "util.h"

static uint64_t up(uint64_t n, uint64_t a)
{
    return (n + a - 1) & ~(a - 1);
}

uint64_t ckpt__hash64(const void *p, uint64_t n, uint64_t h)
{
    const uint64_t *w = p;
    for (uint64_t i = 0; i < n / 8; i++) {
        h ^= w[i];
        h *= 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    return h;
}

void ckpt__layout_sizes(struct ck_hdr *h)
{
    h->regs_off = sizeof *h;
    h->fds_off = h->regs_off + h->nregs * sizeof(struct ck_reg);
    h->str_off = h->fds_off + h->nfds * sizeof(struct ck_fd);
    h->xctx_off = up(h->str_off + h->nstr, 64);
    h->addrs_off = up(h->xctx_off + h->xctx_len, 8);
    h->data_off = up(h->addrs_off + h->npages * 8, PG);
    h->total = h->data_off + h->npages * PG;
}

uint64_t ckpt__meta_hash(const struct ck_hdr *h)
{
    struct ck_hdr c = *h;
    c.meta_hash = c.data_hash = 0;
    uint64_t x = ckpt__hash64(&c, sizeof c, 0x243f6a8885a308d3ULL);
    return ckpt__hash64((const char *)h + h->regs_off,
                        h->data_off - h->regs_off, x);
}

/* The tables of an image whose sizes were checked: mappings sorted,
 * disjoint, page-aligned, in user space, their names inside the string
 * table; page addresses sorted and aligned; the string table ends in NUL. */
static int well_formed(const struct ck_hdr *h)
{
    const struct ck_reg *r = ck_regs(h);
    const char *str = (const char *)h + h->str_off;
    const uint64_t *a = ck_addrs(h);
    if (h->nstr && str[h->nstr - 1])
        return 0;
    for (uint64_t i = 0; i < h->nregs; i++)
        if (r[i].start >= r[i].end || (r[i].start | r[i].end) % PG ||
            r[i].end > (1UL << 47) || r[i].path >= (h->nstr ? h->nstr : 1) ||
            (i && r[i].start < r[i - 1].end))
            return 0;
    for (uint64_t i = 0; i < h->npages; i++)
        if (a[i] % PG || a[i] >= (1UL << 47) || (i && a[i] <= a[i - 1]))
            return 0;
    return 1;
}

int ckpt__check_image(const struct ck_hdr *h, uint64_t len, int data,
                      char *err, size_t errlen, const char *path)
{
    const char *why = NULL;
    if (len < sizeof *h || memcmp(h->magic, CK_MAGIC, 8))
        why = "not a drdb checkpoint";
    else if (h->version != CK_VERSION)
        why = "another version of the checkpoint format";
    else {
        struct ck_hdr c = *h;
        ckpt__layout_sizes(&c);
        if (h->nregs > MAXREG || h->nfds > MAXFDS || h->nstr > STRMAX ||
            h->xctx_len > XCTX_MAX || c.xctx_off != h->xctx_off ||
            (!!h->xctx_len != !!(h->flags & CKF_EXTERNAL)) ||
            h->npages > (1UL << 40) / PG || c.total != h->total ||
            c.data_off != h->data_off || c.addrs_off != h->addrs_off ||
            c.regs_off != h->regs_off || c.fds_off != h->fds_off ||
            c.str_off != h->str_off)
            why = "inconsistent header (corrupt)";
        else if (h->total > len)
            why = "truncated";
        else if (ckpt__meta_hash(h) != h->meta_hash)
            why = "corrupt (metadata checksum)";
        else if (!well_formed(h))
            why = "malformed (mappings, names or pages out of order)";
        else if (data && ckpt__hash64((const char *)h + h->data_off,
                                      h->npages * PG, 0) != h->data_hash)
            why = "corrupt (page checksum)";
    }
    if (!why)
        return 0;
    snprintf(err, errlen, "checkpoint file %s: %s", path, why);
    return -1;
}

int ckpt_file_info(const char *path, struct ckpt_info *out, char *err,
                   size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    fstat(fd, &st);
    struct ck_hdr h;
    int rc = -1;
    if (pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
        snprintf(err, errlen, "checkpoint file %s: truncated", path);
    } else if (h.regs_off == sizeof h && h.data_off >= sizeof h &&
               h.data_off <= (64UL << 20) &&
               h.data_off <= (uint64_t)st.st_size) {
        char *m = malloc(h.data_off);
        if (m && pread(fd, m, h.data_off, 0) == (ssize_t)h.data_off &&
            ckpt__check_image((struct ck_hdr *)m, (uint64_t)st.st_size, 0,
                              err, errlen, path) == 0) {
            *out = (struct ckpt_info){h.id, h.parent, h.event, h.time,
                                      h.npages, h.total,
                                      !!(h.flags & CKF_EXTERNAL), 1, 0};
            rc = 0;
        } else if (!m) {
            snprintf(err, errlen, "out of memory");
        } else if (!err[0]) {
            snprintf(err, errlen, "checkpoint file %s: truncated", path);
        }
        free(m);
    } else {
        ckpt__check_image(&h, (uint64_t)st.st_size, 0, err, errlen, path);
        if (!err[0])
            snprintf(err, errlen, "checkpoint file %s: corrupt header", path);
    }
    close(fd);
    return rc;
}

int ckpt_table_line(char *buf, size_t len, const struct ckpt_info *ck)
{
    return snprintf(buf, len, "%ld %ld %lld %.6f %llu %llu %d %d %#llx\n",
                    ck->id, ck->parent,
                    ck->event == UINT64_MAX ? -1LL : (long long)ck->event,
                    ck->time, (unsigned long long)ck->pages,
                    (unsigned long long)ck->bytes, ck->external, ck->in_file,
                    (unsigned long long)ck->pc);
}

int ckpt_table_parse(const char *line, struct ckpt_info *ck)
{
    struct ckpt_info x;
    long long event;
    unsigned long long pages, bytes, pc;
    if (sscanf(line, "%ld %ld %lld %lf %llu %llu %d %d %llx", &x.id,
               &x.parent, &event, &x.time, &pages, &bytes, &x.external,
               &x.in_file, &pc) != 9)
        return -1;
    x.event = (uint64_t)event; /* -1: UINT64_MAX, as written */
    x.pages = pages;
    x.bytes = bytes;
    x.pc = pc;
    *ck = x;
    return 0;
}

void ckpt__file_name(char *buf, size_t len, const char *dir, long id)
{
    snprintf(buf, len, "%s/ckpt-%06ld.drdbck", dir, id);
}

/* (Raw system calls, as everywhere the replayed process's state is live:
 * no errno written; util.h's file helpers restore errno.) The image goes
 * to a new temporary file of PATH's directory, made there with
 * O_EXCL|O_NOFOLLOW (a name planted in a directory others can write is
 * never followed), then renamed over PATH within the directory. */
int ckpt__file_write(const struct ck_hdr *h, const char *path, char *err,
                     size_t errlen)
{
    char dir[4300], tmp[300];
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path),
                 path);
    int dfd = util_dir_open(AT_FDCWD, dir, 0);
    int fd = dfd < 0 ? dfd
                     : util_file_create_tmp(dfd, name, tmp, sizeof tmp,
                                            O_WRONLY);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write a checkpoint in %s: %s", dir,
                 strerror(-fd));
        if (dfd >= 0)
            ck_sys(SYS_close, dfd, 0, 0);
        return -1;
    }
    for (uint64_t o = 0; o < h->total;) {
        long r = ck_sys(SYS_write, fd, (const char *)h + o,
                        h->total - o > (1UL << 30) ? (1UL << 30)
                                                   : h->total - o);
        if (r <= 0) {
            ck_sys(SYS_close, fd, 0, 0);
            ck_sys(SYS_unlinkat, dfd, tmp, 0);
            ck_sys(SYS_close, dfd, 0, 0);
            snprintf(err, errlen, "cannot write %s/%s: %s", dir, tmp,
                     r < 0 ? strerror((int)-r) : "short write");
            return -1;
        }
        o += (uint64_t)r;
    }
    ck_sys(SYS_close, fd, 0, 0);
    int r = util_file_replace(dfd, tmp, name);
    if (r < 0) {
        ck_sys(SYS_unlinkat, dfd, tmp, 0);
        snprintf(err, errlen, "cannot rename %s/%s: %s", dir, tmp,
                 strerror(-r));
    }
    ck_sys(SYS_close, dfd, 0, 0);
    return r < 0 ? -1 : 0;
}
