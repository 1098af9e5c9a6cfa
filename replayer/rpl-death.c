/*
 * rpl-death.c - a replayed rank killed by a signal says where it died.
 *
 * A rank that dies in a replay (a NULL dereference, an abort) would leave
 * only "killed by signal 11". A handler of the fatal signals writes the
 * report a divergence writes (rpl_fail): the event, the MPI call last
 * entered (or "between events N and N+1") and where the program was (the
 * faulting instruction's OBJECT+0xOFFSET, which `drdb replay` turns into
 * a source line), then dies of the same signal. Where that instruction
 * is in a system library (an abort(), a strlen(NULL) in libc), the
 * program's own code that called into it is named instead, found by a
 * scan of the stack (program_where). Everything it calls is
 * async-signal-safe: write, open, read, no stdio, no malloc; the object
 * is found in /proc/self/maps rather than by dladdr, which takes the
 * loader's lock the dying code may hold.
 *
 * Installed before the checkpoint library's SIGSEGV handler (its mprotect
 * backend), which passes on the faults it does not own. A program that
 * installs its own handler replaces this one. Under a debugger (the
 * console's GDB) none is installed: GDB stops the rank at the signal and
 * says where, and a continued rank dies of it as without drdb.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "rpl.h"

/* The fatal signals a program raises on its own (not SIGKILL, SIGTERM:
 * those come from outside and say nothing of the program). */
static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/* A bounded string being built without stdio. */
struct text {
    char *buf;
    size_t len, cap;
};

static void put(struct text *t, const char *s)
{
    while (*s && t->len + 1 < t->cap)
        t->buf[t->len++] = *s++;
    t->buf[t->len] = '\0';
}

static void put_num(struct text *t, uint64_t v, unsigned base)
{
    char d[24];
    int n = 0;
    do {
        d[n++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    char s[26];
    int k = 0;
    if (base == 16) {
        s[k++] = '0';
        s[k++] = 'x';
    }
    while (n)
        s[k++] = d[--n];
    s[k] = '\0';
    put(t, s);
}

static uint64_t hex(const char **p)
{
    uint64_t v = 0;
    for (;; (*p)++) {
        char c = **p;
        if (c >= '0' && c <= '9')
            v = v * 16 + (uint64_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v = v * 16 + (uint64_t)(c - 'a' + 10);
        else
            return v;
    }
}

/* One line of /proc/self/maps: "START-END PERMS OFF DEV INODE PATH". */
struct map {
    uint64_t start, end, off;
    const char *perms, *path; /* PATH: NULL for an anonymous mapping */
};

/* Calls FN(CTX, M) on each mapping of this process until it returns
 * non-zero. */
static void maps_each(int (*fn)(void *ctx, const struct map *m), void *ctx)
{
    static char maps[1 << 16];
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    size_t have = 0;
    for (;;) {
        ssize_t r = read(fd, maps + have, sizeof maps - 1 - have);
        if (r <= 0)
            break;
        have += (size_t)r;
        maps[have] = '\0';
        char *line = maps, *nl;
        while ((nl = strchr(line, '\n'))) {
            *nl = '\0';
            struct map m;
            const char *p = line;
            m.start = hex(&p);
            p++;
            m.end = hex(&p);
            m.perms = p + 1;
            p = strchr(p + 1, ' '); /* past the permissions */
            m.off = p ? (p++, hex(&p)) : 1;
            m.path = strchr(line, '/');
            if (fn(ctx, &m)) {
                close(fd);
                return;
            }
            line = nl + 1;
        }
        /* Keep the incomplete last line for the next read. */
        have = strlen(line);
        memmove(maps, line, have);
    }
    close(fd);
}

struct where {
    uintptr_t pc;
    struct text *out;
    uint64_t base;
    char base_path[4096];
};

static int where_at(void *ctx, const struct map *m)
{
    struct where *w = ctx;
    if (m->path && m->off == 0) {
        w->base = m->start;
        size_t n = strlen(m->path);
        if (n >= sizeof w->base_path)
            n = sizeof w->base_path - 1;
        memcpy(w->base_path, m->path, n);
        w->base_path[n] = '\0';
    }
    if (w->pc < m->start || w->pc >= m->end)
        return 0;
    if (m->path && strcmp(m->path, w->base_path) == 0) {
        put(w->out, m->path);
        put(w->out, "+");
        put_num(w->out, w->pc - w->base, 16);
    }
    return 1;
}

/* The mapped file holding PC as "FILE+0xOFF", OFF from the file's first
 * mapping (dladdr's base, as rpl_fail's caller() reports); "" when PC is
 * in no file. */
static void where(uintptr_t pc, struct text *out)
{
    static struct where w;
    w.pc = pc;
    w.out = out;
    w.base = 0;
    w.base_path[0] = '\0';
    maps_each(where_at, &w);
}

/* Whether PATH (N bytes) is a system library's or this stub's: not the
 * program's own code. SELF: this stub's path. */
static int system_path(const char *path, size_t n, const char *self)
{
    static const char *const dirs[] = {"/lib/", "/lib64/", "/usr/lib/",
                                       "/usr/lib64/"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (n >= strlen(dirs[i]) && strncmp(path, dirs[i], strlen(dirs[i])) == 0)
            return 1;
    return strlen(self) == n && strncmp(path, self, n) == 0;
}

/* The executable mappings of the program's own code, and the stack
 * mapping holding SP, from /proc/self/maps. */
#define RANGES 64
struct ranges {
    uintptr_t lo[RANGES], hi[RANGES];
    int n;
    uintptr_t stack_lo, stack_hi;
};

struct ranges_of {
    uintptr_t sp;
    const char *self;
    struct ranges *r;
};

static int range_of(void *ctx, const struct map *m)
{
    struct ranges_of *q = ctx;
    struct ranges *r = q->r;
    if (q->sp >= m->start && q->sp < m->end) {
        r->stack_lo = m->start;
        r->stack_hi = m->end;
    }
    if (m->perms[0] && m->perms[1] && m->perms[2] == 'x' && m->path &&
        !system_path(m->path, strlen(m->path), q->self) && r->n < RANGES) {
        r->lo[r->n] = m->start;
        r->hi[r->n++] = m->end;
    }
    return 0;
}

static void program_ranges(uintptr_t sp, const char *self, struct ranges *r)
{
    struct ranges_of q = {sp, self, r};
    r->n = 0;
    r->stack_lo = r->stack_hi = 0;
    maps_each(range_of, &q);
}

/* Where the program was: PC, or when PC is in a system library (an
 * abort(), a strlen(NULL)) or in the stub, the program's code that called
 * into it: the first word on the stack above SP that is an address in
 * the program's own code (a return address, less one: inside the call).
 * A scan of the stack, not an unwinder: nothing to load or lock while
 * dying, and no library loaded before (one loaded at start would lay out
 * a rank under GDB, which gets no handler, otherwise than its shadows). */
static void program_where(uintptr_t pc, uintptr_t sp, struct text *out)
{
    char self[4200];
    struct text t = {self, 0, sizeof self};
    self[0] = '\0';
    where((uintptr_t)program_where, &t);
    char *plus = strrchr(self, '+');
    if (plus)
        *plus = '\0';
    where(pc, out);
    const char *opl = strrchr(out->buf, '+');
    if (!out->len || !opl ||
        !system_path(out->buf, (size_t)(opl - out->buf), self))
        return;
    struct ranges r;
    program_ranges(sp, self, &r);
    uintptr_t top = r.stack_hi; /* 0: no stack mapping found, no scan */
    if (top && top - sp > (1 << 20))
        top = sp + (1 << 20);
    for (uintptr_t a = (sp + 7) & ~(uintptr_t)7; a + 8 <= top; a += 8) {
        uintptr_t w = *(const uintptr_t *)a;
        for (int i = 0; i < r.n; i++)
            if (w > r.lo[i] && w < r.hi[i]) {
                out->len = 0;
                out->buf[0] = '\0';
                where(w - 1, out);
                return;
            }
    }
}

static uintptr_t fault_pc(void *uc)
{
    const ucontext_t *u = uc;
#if defined(__x86_64__)
    return (uintptr_t)u->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)u->uc_mcontext.pc;
#else
    (void)u;
    return 0;
#endif
}

static uintptr_t fault_sp(void *uc)
{
    const ucontext_t *u = uc;
#if defined(__x86_64__)
    return (uintptr_t)u->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    return (uintptr_t)u->uc_mcontext.sp;
#else
    (void)u;
    return 0;
#endif
}

/* "rank R: event N (MPI_X): killed by signal S (SIGX) inside the call", or
 * "... between events N and N+1 (the last MPI call: MPI_X)". */
static void message(int sig, struct text *t)
{
    put(t, "rank ");
    put_num(t, (uint64_t)(drdb_rank < 0 ? 0 : drdb_rank), 10);
    int fn = drdb_current_fn;
    uint64_t ev = drdb_event;
    if (fn) {
        put(t, ": event ");
        put_num(t, drdb_call_event, 10);
        put(t, " (");
        put(t, log_func_name(fn));
        put(t, ")");
    }
    put(t, ": killed by signal ");
    put_num(t, (uint64_t)sig, 10);
    put(t, " (SIG");
    put(t, sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
    put(t, ")");
    if (fn) {
        put(t, " inside the call");
    } else if (ev == 0 || !rpl_last_fn) {
        put(t, " before event 0 (no MPI call yet)");
    } else {
        put(t, " between events ");
        put_num(t, ev - 1, 10);
        put(t, " and ");
        put_num(t, ev, 10);
        put(t, " (the last MPI call: ");
        put(t, log_func_name(rpl_last_fn));
        put(t, ")");
    }
}

static void died(int sig, siginfo_t *si, void *uc)
{
    (void)si;
    struct text msg = {drdb_divergence_msg, 0, sizeof drdb_divergence_msg};
    message(sig, &msg);
    char wbuf[4200];
    struct text at = {wbuf, 0, sizeof wbuf};
    wbuf[0] = '\0';
    program_where(fault_pc(uc), fault_sp(uc), &at);
    if (!getenv(DRDB_ENV_REPLAY_QUIET)) {
        char line[2200];
        struct text l = {line, 0, sizeof line};
        put(&l, "drdb-replay: ");
        put(&l, drdb_divergence_msg);
        put(&l, "\n");
        if (write(2, line, l.len) < 0) {
            /* nowhere left to say it */
        }
    }
    int fd = rpl_report_create();
    if (fd >= 0) {
        char rep[6600];
        struct text r = {rep, 0, sizeof rep};
        put(&r, DRDB_REPORT_STATUS);
        put_num(&r, 128 + (uint64_t)sig, 10);
        put(&r, "\n" DRDB_REPORT_MESSAGE);
        put(&r, drdb_divergence_msg);
        put(&r, "\n" DRDB_REPORT_CALLER);
        put(&r, wbuf);
        put(&r, "\n");
        if (write(fd, rep, r.len) < 0) {
            /* drdb replay then says only the signal */
        }
        close(fd);
    }
    /* Die of the same signal: blocked while this runs, it is delivered
     * with the default action as the handler returns. */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Whether a debugger traces the process (the console's GDB): it stops
 * the rank at the signal itself, in the program's words, and a handler
 * that raises the signal again would stop it a second time. */
static int traced(void)
{
    char buf[2048];
    if (rpl_read_small("/proc/self/status", buf, sizeof buf) <= 0)
        return 0;
    const char *t = strstr(buf, "\nTracerPid:");
    return t && strtol(t + 12, NULL, 10) != 0;
}

/* Before the checkpoint library's constructor (rpl-ckpt.c), whose SIGSEGV
 * handler chains to this one. */
__attribute__((constructor(101))) static void rpl_death_init(void)
{
    if (traced())
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = died;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        sigaction(fatal[i], &sa, NULL);
}
