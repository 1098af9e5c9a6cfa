/*
 * ckpt-proc.c - the process as /proc/self shows it: its mappings, its
 * threads, its open files. Part of the restorer (no libc, see
 * ckpt-int.h): a rollback reads the mapping table again once it has
 * changed the layout. Errors go to S->why.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt-int.h"
#include "ckpt-sys.h"
#include "ckpt-track.h"

static int why(const char *what, int err)
{
    S->why = (struct ck_why){what, err};
    return -1;
}

static int own(uint64_t a)
{
    return a >= ckpt__reserve && a < ckpt__reserve + RESERVE_LEN;
}

static uint64_t hex(const char **p)
{
    uint64_t v = 0;
    for (;; (*p)++) {
        char c = **p;
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                       : -1;
        if (d < 0)
            return v;
        v = v * 16 + (uint64_t)d;
    }
}

/* Does S start with LIT? (strncmp(S, LIT, strlen(LIT)) == 0) */
static int starts(const char *s, const char *lit)
{
    for (; *lit; s++, lit++)
        if (*s != *lit)
            return 0;
    return 1;
}

/* /proc/self/maps into S->maps, NUL-terminated. */
static int read_maps_text(uint64_t *len)
{
    int fd = (int)ck_sys(SYS_open, "/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return why("cannot read /proc/self/maps", -fd);
    uint64_t n = 0;
    for (;;) {
        long r = ck_sys(SYS_read, fd, S->maps + n, MAPSMAX - 1 - n);
        if (r <= 0)
            break;
        n += (uint64_t)r;
        if (n >= MAPSMAX - 1) {
            ck_sys(SYS_close, fd, 0, 0);
            return why("/proc/self/maps is too large", 0);
        }
    }
    ck_sys(SYS_close, fd, 0, 0);
    S->maps[n] = '\0';
    *len = n;
    return 0;
}

static const char *blanks(const char *p)
{
    while (*p == ' ')
        p++;
    return p;
}

static const char *word(const char *p)
{
    while (*p && *p != ' ' && *p != '\n')
        p++;
    return p;
}

int ckpt__read_maps(void)
{
    uint64_t len;
    if (read_maps_text(&len) < 0)
        return -1;
    S->ncur = 0;
    S->nstr = 1;
    S->str[0] = '\0';
    for (const char *p = S->maps; *p;) {
        struct ck_reg r = {0};
        r.start = hex(&p);
        p++;
        r.end = hex(&p);
        p++;
        char perm[4] = {p[0], p[1], p[2], p[3]};
        p += 5;
        r.off = hex(&p);
        /* dev, inode, then the path after blanks, to the end of the line */
        p = blanks(word(blanks(word(blanks(p)))));
        const char *path = p, *eol = p;
        while (*eol && *eol != '\n')
            eol++;
        uint64_t plen = (uint64_t)(eol - path);
        p = *eol ? eol + 1 : eol;
        if (own(r.start))
            continue;
        if (plen && path[0] == '[' &&
            (starts(path, "[vdso]") || starts(path, "[vvar") ||
             starts(path, "[vsyscall]")))
            continue;
        r.prot = (perm[0] == 'r' ? PROT_READ : 0) |
                 (perm[1] == 'w' ? PROT_WRITE : 0) |
                 (perm[2] == 'x' ? PROT_EXEC : 0);
        if (perm[3] == 's')
            r.kind |= RK_SHARED;
        if (plen == 6 && starts(path, "[heap]"))
            r.kind |= RK_HEAP;
        else if (plen == 7 && starts(path, "[stack]"))
            r.kind |= RK_STACK;
        else if (plen && path[0] == '/')
            r.kind |= RK_FILE;
        if (r.kind & RK_FILE) {
            if (S->nstr + plen + 1 > STRMAX)
                return why("too many mapped files", 0);
            r.path = (uint32_t)S->nstr;
            ck_copy_bytes(S->str + S->nstr, path, plen);
            S->nstr += plen;
            S->str[S->nstr++] = '\0';
        }
        struct ck_reg piece[64];
        int np = ckpt__track_split(&S->trk, &r, piece, 64);
        for (int i = 0; i < np; i++) {
            struct ck_reg *q = &piece[i];
            if ((q->prot & (PROT_READ | PROT_WRITE)) ==
                    (PROT_READ | PROT_WRITE) &&
                !(q->kind & RK_SHARED))
                q->kind |= RK_TRACK;
            if (!(q->kind & (RK_FILE | RK_HEAP | RK_STACK)) &&
                q->end - q->start >= (1UL << 40))
                q->kind |= RK_HUGE;
            if (S->ncur == MAXREG)
                return why("more than " CK_STR(MAXREG) " mappings", 0);
            S->cur[S->ncur++] = *q;
        }
    }
    return 0;
}

int ckpt__count_threads(void)
{
    int fd = (int)ck_sys(SYS_open, "/proc/self/task",
                         O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0)
        return 1;
    char buf[4096];
    int n = 0;
    long r;
    while ((r = ck_sys(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
        for (long o = 0; o < r;) {
            struct dirent64 *d = (struct dirent64 *)(buf + o);
            if (d->d_name[0] != '.')
                n++;
            o += d->d_reclen;
        }
    }
    ck_sys(SYS_close, fd, 0, 0);
    return n;
}

void ckpt__read_fds(void)
{
    S->nfds = 0;
    int fd = (int)ck_sys(SYS_open, "/proc/self/fd",
                         O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd < 0)
        return;
    char buf[4096];
    long r;
    while ((r = ck_sys(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
        for (long o = 0; o < r; o += ((struct dirent64 *)(buf + o))->d_reclen) {
            const char *nm = ((struct dirent64 *)(buf + o))->d_name;
            if (nm[0] < '0' || nm[0] > '9')
                continue;
            int f = 0;
            for (; *nm >= '0' && *nm <= '9'; nm++)
                f = f * 10 + (*nm - '0');
            struct stat st;
            /* 0-2: the session's output, which stays printed */
            if (f <= 2 || f == fd || f == S->trk.uffd || f == S->trk.pagemap ||
                ck_sys(SYS_fstat, f, &st, 0) < 0 || !S_ISREG(st.st_mode) ||
                S->nfds == MAXFDS)
                continue;
            long off = ck_sys(SYS_lseek, f, 0, SEEK_CUR);
            if (off < 0)
                continue;
            S->fds[S->nfds++] = (struct ck_fd){f, 0, st.st_dev, st.st_ino, off};
        }
    }
    ck_sys(SYS_close, fd, 0, 0);
}
