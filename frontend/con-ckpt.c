/*
 * con-ckpt.c - the console's checkpoints: `checkpoint`, `checkpoints`,
 * `rollback`, `shadow`, and the nearest checkpoint for goto / prev-event.
 *
 * The checkpoint library (checkpoint/) runs inside each replayed process.
 * The stub takes checkpoints by itself (every N events or T seconds);
 * `checkpoint` takes one wherever the rank stopped through the library's
 * take trampoline, which saves every register and resumes the program at
 * its pc, where a temporary breakpoint stops it again. A rollback jumps to
 * the restore trampoline: the rank stops in drdb_restored_hook (a stub's
 * checkpoint) or at the pc the checkpoint was taken at (a temporary
 * breakpoint there); a refused one comes back to where it was. A shadow is
 * a second replay of a rank, without GDB, with the foreground's address
 * space layout (ASLR off, the same environment), writing checkpoint files
 * the foreground can roll to (see docs/checkpoints.md).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ckpt-file.h"
#include "con.h"

/* What the console remembers of a checkpoint it took: whether the rank
 * was stopped before an event (in the stub's stop hook) then. */
struct con_ckext {
    long id;
    int at_event;
};

struct con_ckpt_rank {
    struct con_ckext *ext; /* the checkpoints `checkpoint` took */
    int next;
    int hooks;             /* the breakpoint on drdb_restored_hook is set */
    int at_exit;           /* GDB stops the rank before it exits */
    pid_t shadow;          /* its drain process (group leader); 0: none */
    int shadow_status;     /* -1 running, else the wait status */
    char shadow_dir[4200];
};

static struct con_ckpt_rank *ck(struct con_rank *k)
{
    if (!k->ck)
        k->ck = calloc(1, sizeof *k->ck);
    return k->ck;
}

/* Removes the files of DIR (not its subdirectories). */
static void clear_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d)))
        if (de->d_name[0] != '.') {
            char p[8400];
            snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
}

/* Rank R has a process (started to main when it had none): 0 or -1. */
static int ensure_process(struct con *c, int r)
{
    struct con_rank *k = &c->ranks[r];
    if (k->gdb && k->state != CON_EXITED && k->state != CON_OFF)
        return 0;
    struct rankset one;
    rs_init(&one, c->nranks);
    rs_add(&one, r);
    con_drop(c, &one);
    int rc = con_replay(c, &one);
    rs_release(&one);
    return rc;
}

/* ---- GDB helpers ---------------------------------------------------------- */

/* The NUL-terminated string at address expression ADDR (at most MAX). */
static char *read_cstr(struct con *c, int r, const char *addr, size_t max)
{
    size_t cap = 4096, len = 0;
    char *out = malloc(cap + 1);
    for (size_t off = 0; out && off < max; off += 4096) {
        char mi[256];
        snprintf(mi, sizeof mi, "-data-read-memory-bytes -o %zu %s 4096", off,
                 addr);
        struct mi_reply rep;
        const char *hex = NULL;
        if (mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep, 10000) == 0) {
            const struct mi_value *m = mi_get(rep.record, "memory");
            const struct mi_value *ct = m && m->first
                                            ? mi_value_get(m->first, "contents")
                                            : NULL;
            hex = ct ? ct->str : NULL;
        }
        int end = !hex;
        for (const char *h = hex; h && h[0] && h[1]; h += 2) {
            unsigned b;
            sscanf(h, "%2x", &b);
            if (!b) {
                end = 1;
                break;
            }
            if (len == cap) {
                char *n = realloc(out, (cap *= 2) + 1);
                if (!n)
                    break;
                out = n;
            }
            out[len++] = (char)b;
        }
        mi_reply_release(&rep);
        if (end)
            break;
    }
    if (out)
        out[len] = '\0';
    return out;
}

static int write_cstr(struct con *c, int r, const char *addr, const char *s)
{
    size_t n = strlen(s) + 1;
    char *mi = malloc(2 * n + strlen(addr) + 64);
    if (!mi)
        return -1;
    int o = sprintf(mi, "-data-write-memory-bytes %s ", addr);
    for (size_t i = 0; i < n; i++)
        o += sprintf(mi + o, "%02x", (unsigned char)s[i]);
    struct mi_reply rep;
    int rc = mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep, 10000);
    mi_reply_release(&rep);
    free(mi);
    return rc == 0 ? 0 : -1;
}

/* Resumes rank R at SYMBOL ("name" or "*address") and waits for its
 * stop. */
static void jump_to(struct con *c, int r, const char *symbol)
{
    struct con_rank *k = &c->ranks[r];
    if (k->ck && !k->ck->hooks) {
        /* a rollback to a stub's checkpoint ends there */
        struct mi_reply rep;
        mi_gdb_exec_sync(k->gdb, "-break-insert drdb_restored_hook", &rep,
                         10000);
        mi_reply_release(&rep);
        k->ck->hooks = 1;
    }
    char mi[128];
    snprintf(mi, sizeof mi, "-exec-jump %s%s", *symbol == '*' ? "" : "*",
             symbol);
    k->state = CON_RUNNING;
    k->at_event = 0;
    k->reason[0] = '\0';
    if (mi_gdb_send(k->gdb, mi, 0, NULL, NULL) < 0) {
        k->state = CON_LOST;
        return;
    }
    struct rankset one;
    rs_init(&one, c->nranks);
    rs_add(&one, r);
    con_wait(c, &one, 1);
    rs_release(&one);
}

/* ---- the list of a rank's checkpoints ------------------------------------- */

struct cand {
    char id[32];        /* "3" in memory, "s3" a shadow's file */
    long num;
    long parent;
    long long event;    /* -1: unknown */
    double time;
    unsigned long long pages, bytes;
    int external;
    int at_event;
    unsigned long long pc; /* where a debugger's checkpoint resumes */
    char path[8400];
};

static void shadow_poll(struct con_ckpt_rank *q)
{
    int st;
    if (q->shadow > 0 && q->shadow_status == -1 &&
        waitpid(q->shadow, &st, WNOHANG) == q->shadow) {
        /* the drain process wrote the shadow's own status */
        char p[8400], buf[32] = "";
        snprintf(p, sizeof p, "%s/status", q->shadow_dir);
        FILE *f = fopen(p, "r");
        if (f && fgets(buf, sizeof buf, f))
            q->shadow_status = atoi(buf);
        else
            q->shadow_status = st;
        if (f)
            fclose(f);
    }
}

static int cmp_cand(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->event != y->event)
        return x->event < y->event ? -1 : 1;
    return x->id[0] == 's' ? 1 : y->id[0] == 's' ? -1 : 0;
}

/* Rank R's checkpoints, by event: the live process's and its shadow's. */
static int list_cands(struct con *c, int r, struct cand **out)
{
    struct con_rank *k = &c->ranks[r];
    struct cand *v = NULL;
    int n = 0, cap = 0;
    if (k->gdb && (k->state == CON_STOPPED || k->state == CON_DIVERGED)) {
        char *t = read_cstr(c, r, "drdb_ckpt_table", 1 << 16);
        for (char *line = t, *nl; line && *line; line = nl + 1) {
            nl = strchr(line, '\n');
            if (!nl)
                break;
            struct cand x = {0};
            int ext = 0, inf = 0;
            if (sscanf(line, "%ld %ld %lld %lf %llu %llu %d %d %llx", &x.num,
                       &x.parent, &x.event, &x.time, &x.pages, &x.bytes, &ext,
                       &inf, &x.pc) != 9)
                continue;
            x.external = ext;
            snprintf(x.id, sizeof x.id, "%ld", x.num);
            if (ext && k->ck)
                for (int i = 0; i < k->ck->next; i++)
                    if (k->ck->ext[i].id == x.num)
                        x.at_event = k->ck->ext[i].at_event;
            if (n == cap && !(v = realloc(v, (size_t)(cap = cap * 2 + 8) *
                                                 sizeof *v)))
                return 0;
            v[n++] = x;
        }
        free(t);
    }
    if (k->ck && k->ck->shadow_dir[0]) {
        DIR *d = opendir(k->ck->shadow_dir);
        struct dirent *de;
        while (d && (de = readdir(d))) {
            size_t l = strlen(de->d_name);
            if (strncmp(de->d_name, "ckpt-", 5) || l < 8 ||
                strcmp(de->d_name + l - 7, ".drdbck"))
                continue;
            struct cand x = {0};
            struct ckpt_info inf;
            char err[512] = "";
            snprintf(x.path, sizeof x.path, "%s/%s", k->ck->shadow_dir,
                     de->d_name);
            if (ckpt_file_info(x.path, &inf, err, sizeof err) < 0)
                continue;
            x.num = inf.id;
            x.parent = inf.parent;
            x.event = (long long)inf.event;
            x.time = inf.time;
            x.pages = inf.pages;
            x.bytes = inf.bytes;
            snprintf(x.id, sizeof x.id, "s%ld", inf.id);
            if (n == cap && !(v = realloc(v, (size_t)(cap = cap * 2 + 8) *
                                                 sizeof *v)))
                break;
            v[n++] = x;
        }
        if (d)
            closedir(d);
    }
    if (n)
        qsort(v, (size_t)n, sizeof *v, cmp_cand);
    *out = v;
    return n;
}

/* "@SET REST": the set into OUT (SET without one), *REST after it. */
static int set_arg(struct con *c, const struct rankset *set, const char *a,
                   struct rankset *out, const char **rest)
{
    while (*a == ' ' || *a == '\t')
        a++;
    if (*a != '@') {
        rs_init(out, c->nranks);
        rs_copy(out, set);
        *rest = a;
        return 0;
    }
    if (con_arg_set(c, set, a, out) < 0)
        return -1;
    a += strcspn(a, " \t");
    while (*a == ' ' || *a == '\t')
        a++;
    *rest = a;
    return 0;
}

/* A temporary breakpoint at PC: its number, or 0. */
static long tbreak_at(struct con *c, int r, unsigned long long pc)
{
    char mi[96];
    struct mi_reply rep;
    long long n = 0;
    snprintf(mi, sizeof mi, "-break-insert -t *%#llx", pc);
    if (mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep, 10000) == 0)
        mi_get_int(rep.record, "bkpt.number", &n);
    mi_reply_release(&rep);
    return (long)n;
}

/* Deletes breakpoint N if it is still there (a temporary one that was hit
 * is gone already). */
static void untbreak(struct con *c, int r, long n)
{
    char mi[64];
    struct mi_reply rep;
    if (n <= 0 || !c->ranks[r].gdb)
        return;
    snprintf(mi, sizeof mi, "-break-delete %ld", n);
    mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep, 10000);
    mi_reply_release(&rep);
}

/* Rank R's pc, and where the trampolines resume it: 0 when it fails.
 * (Frame 0's: the user may have selected the program's frame above the
 * stub's; the caller selects it again.) */
static unsigned long long set_resume_pc(struct con *c, int r)
{
    int ok;
    struct mi_reply rep;
    mi_gdb_exec_sync(c->ranks[r].gdb, "-stack-select-frame 0", &rep, 10000);
    mi_reply_release(&rep);
    long long pc = con_eval_int(c, r, "(long)$pc", &ok);
    if (!ok)
        return 0;
    char e[64];
    snprintf(e, sizeof e, "drdb_ckpt_pc = %lld", pc);
    con_eval_int(c, r, e, &ok);
    return ok ? (unsigned long long)pc : 0;
}

/* ---- checkpoint ------------------------------------------------------------ */

static long take_one(struct con *c, int r)
{
    struct con_rank *k = &c->ranks[r];
    struct con_ckpt_rank *q = ck(k);
    if (!k->gdb) {
        fprintf(stderr, "drdb: rank %d is not replayed ('replay @%d' starts "
                "it)\n", r, r);
        return -1;
    }
    if (k->state != CON_STOPPED && k->state != CON_DIVERGED) {
        fprintf(stderr, "drdb: rank %d is %s: no checkpoint (stop it first)\n",
                r, con_state_name(k->state));
        return -1;
    }
    int ok;
    long last = (long)con_eval_int(c, r, "drdb_ckpt_last", &ok);
    con_eval_int(c, r, "drdb_ckpt_event_tag = drdb_event", &ok);
    unsigned long long pc = ok ? set_resume_pc(c, r) : 0;
    if (!q || !pc) {
        fprintf(stderr, "drdb: rank %d: no checkpoint library in this "
                "process (DRDB_CKPT=off?)\n", r);
        return -1;
    }
    char where[256], reason[256];
    int at = k->at_event;
    snprintf(where, sizeof where, "%s", k->where);
    snprintf(reason, sizeof reason, "%s", k->reason);
    long tb = tbreak_at(c, r, pc);
    jump_to(c, r, "drdb_ckpt_take_trampoline");
    untbreak(c, r, tb);
    if (k->state != CON_STOPPED) {
        fprintf(stderr, "drdb: rank %d: lost while checkpointing: %s\n", r,
                k->reason);
        return -1;
    }
    /* back where it was, as it was */
    snprintf(k->where, sizeof k->where, "%s", where);
    snprintf(k->reason, sizeof k->reason, "%s", reason);
    k->at_event = at;
    if (at)
        con_select_user_frame(c, k);
    long id = (long)con_eval_int(c, r, "drdb_ckpt_last", &ok);
    con_eval_int(c, r, "drdb_ckpt_event_tag = 18446744073709551615", &ok);
    if (id == last) {
        char *m = read_cstr(c, r, "drdb_ckpt_msg", 512);
        fprintf(stderr, "drdb: rank %d: no checkpoint: %s\n", r,
                m && *m ? m : "the library failed");
        free(m);
        return -1;
    }
    struct con_ckext *n = realloc(q->ext, (size_t)(q->next + 1) * sizeof *n);
    if (n) {
        q->ext = n;
        q->ext[q->next++] = (struct con_ckext){id, at};
    }
    con_ckpt_keep_at_exit(c, r);
    return id;
}

int con_cmd_checkpoint(struct con *c, const struct rankset *set0,
                       const char *a)
{
    struct rankset sset, *set = &sset;
    const char *rest;
    if (set_arg(c, set0, a, set, &rest) < 0)
        return -1;
    int n = rs_count(set), i = 0, rc = 0;
    struct con_answer *ans = calloc((size_t)n + 1, sizeof *ans);
    for (int r = 0; ans && r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        long id = take_one(c, r);
        ans[i].rank = r;
        if (id > 0) {
            int ok;
            long long ev = con_eval_int(c, r, "drdb_event", &ok);
            asprintf(&ans[i].text, "checkpoint %ld (before event %lld)", id,
                     ev);
        } else {
            rc = -1;
        }
        i++;
    }
    con_print_merged(c, ans, n);
    for (int j = 0; ans && j < n; j++)
        free(ans[j].text);
    free(ans);
    rs_release(set);
    return rc;
}

/* ---- checkpoints ----------------------------------------------------------- */

static void human(char *buf, size_t len, unsigned long long b)
{
    if (b >= 10ULL << 30)
        snprintf(buf, len, "%.1f GiB", (double)b / (1 << 30));
    else if (b >= 10ULL << 20)
        snprintf(buf, len, "%.1f MiB", (double)b / (1 << 20));
    else
        snprintf(buf, len, "%.0f KiB", (double)b / 1024);
}

int con_cmd_checkpoints(struct con *c, const struct rankset *set0,
                        const char *a)
{
    struct rankset sset, *set = &sset;
    const char *rest;
    if (set_arg(c, set0, a, set, &rest) < 0)
        return -1;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        struct cand *v = NULL;
        int n = list_cands(c, r, &v);
        printf("rank %d: %d checkpoint%s\n", r, n, n == 1 ? "" : "s");
        if (n)
            printf("  %-6s %-8s %-9s %-9s %-10s %s\n", "id", "event",
                   "time (s)", "pages", "size", "kind");
        for (int i = 0; i < n; i++) {
            char sz[32], ev[32];
            human(sz, sizeof sz, v[i].bytes);
            if (v[i].event >= 0)
                snprintf(ev, sizeof ev, "%lld", v[i].event);
            else
                snprintf(ev, sizeof ev, "?");
            char tm[32] = "-";
            if (!v[i].external)
                snprintf(tm, sizeof tm, "%.3f", v[i].time);
            printf("  %-6s %-8s %-9s %-9llu %-10s %s%s\n", v[i].id, ev, tm,
                   v[i].pages, sz,
                   v[i].id[0] == 's' ? "shadow file"
                   : v[i].external   ? "taken here (checkpoint)"
                                     : "automatic",
                   v[i].parent ? "" : ", full");
        }
        free(v);
    }
    fflush(stdout);
    rs_release(set);
    return 0;
}

/* ---- rollback -------------------------------------------------------------- */

/* Rolls rank R to checkpoint ID ("3" or "s3"; KNOWN: its listing, when the
 * caller has it). 0, or -1 (the rank stays where it was when the library
 * refused). */
static int roll_one(struct con *c, int r, const char *id,
                    const struct cand *known)
{
    struct con_rank *k = &c->ranks[r];
    struct con_ckpt_rank *q = ck(k);
    char *end;
    int shadow = id[0] == 's';
    long num = strtol(id + shadow, &end, 10);
    if (*end || num <= 0) {
        fprintf(stderr, "drdb: rollback ID: '%s' is not a checkpoint id (see "
                "`checkpoints`)\n", id);
        return -1;
    }
    if (k->state == CON_RUNNING) {
        fprintf(stderr, "drdb: rank %d is running: interrupt it first\n", r);
        return -1;
    }
    char path[8400] = "";
    if (shadow) {
        if (!q || !q->shadow_dir[0]) {
            fprintf(stderr, "drdb: rank %d has no shadow (start one with "
                    "`shadow @%d`)\n", r, r);
            return -1;
        }
        snprintf(path, sizeof path, "%s/ckpt-%06ld.drdbck", q->shadow_dir,
                 num);
        struct ckpt_info inf;
        char err[512] = "";
        if (ckpt_file_info(path, &inf, err, sizeof err) < 0) {
            fprintf(stderr, "drdb: rank %d: %s\n", r, err);
            return -1;
        }
        if (ensure_process(c, r) < 0)
            return -1;
    } else if (!k->gdb || (k->state != CON_STOPPED &&
                           k->state != CON_DIVERGED)) {
        fprintf(stderr, "drdb: rank %d has no live process: its checkpoints "
                "in memory ended with it\n", r);
        return -1;
    }
    /* A checkpoint `checkpoint` took resumes at its pc: a breakpoint there
     * stops it. */
    unsigned long long tpc = known && known->external ? known->pc : 0;
    if (!shadow && !known) {
        struct cand *v = NULL;
        int n = list_cands(c, r, &v);
        for (int i = 0; i < n; i++)
            if (v[i].id[0] != 's' && v[i].num == num && v[i].external)
                tpc = v[i].pc;
        free(v);
    }
    int ok;
    if (shadow && write_cstr(c, r, "drdb_ckpt_target_path", path) < 0) {
        fprintf(stderr, "drdb: rank %d: cannot pass the file name\n", r);
        return -1;
    }
    char e[64];
    snprintf(e, sizeof e, "drdb_ckpt_target = %ld", shadow ? -1L : num);
    con_eval_int(c, r, e, &ok);
    unsigned long long pc = ok ? set_resume_pc(c, r) : 0;
    if (!pc) {
        fprintf(stderr, "drdb: rank %d: no checkpoint library in this "
                "process\n", r);
        return -1;
    }
    char where[256], reason[256];
    snprintf(where, sizeof where, "%s", k->where);
    snprintf(reason, sizeof reason, "%s", k->reason);
    int at = k->at_event;
    long tb0 = tbreak_at(c, r, pc), tb1 = tpc ? tbreak_at(c, r, tpc) : 0;
    jump_to(c, r, "drdb_ckpt_restore_trampoline");
    untbreak(c, r, tb0);
    untbreak(c, r, tb1);
    if (k->state != CON_STOPPED) {
        fprintf(stderr, "drdb: rank %d: lost in the rollback: %s\n", r,
                k->reason);
        return -1;
    }
    int in_stub = strncmp(k->where, "drdb_restored_hook", 18) == 0;
    char *m = in_stub ? NULL : read_cstr(c, r, "drdb_ckpt_msg", 512);
    if (!in_stub && (!m || *m)) {
        fprintf(stderr, "drdb: rank %d: no rollback to %s: %s\n", r, id,
                m && *m ? m : "the library failed");
        free(m);
        /* it came back where it was */
        snprintf(k->where, sizeof k->where, "%s", where);
        snprintf(k->reason, sizeof k->reason, "%s", reason);
        k->at_event = at;
        if (at)
            con_select_user_frame(c, k);
        return -1;
    }
    free(m);
    /* The console's own settings in the stub, as they were before. */
    con_eval_int(c, r, "drdb_stop_event = 18446744073709551615", &ok);
    if (c->ckpt_interval >= 0) {
        snprintf(e, sizeof e, "drdb_ckpt_interval = %g", c->ckpt_interval);
        con_eval_int(c, r, e, &ok);
    }
    if (c->ckpt_every > 0) {
        snprintf(e, sizeof e, "drdb_ckpt_every = %lld", c->ckpt_every);
        con_eval_int(c, r, e, &ok);
    }
    long long ev = con_eval_int(c, r, "drdb_event", &ok);
    /* in the stub (its own checkpoint, or one taken before an event):
     * the program's frame */
    if (in_stub)
        k->at_event = 1;
    if (k->at_event)
        con_select_user_frame(c, k);
    snprintf(k->reason, sizeof k->reason,
             "rolled back to checkpoint %s (before event %lld)", id, ev);
    con_ckpt_keep_at_exit(c, r);
    return 0;
}

int con_cmd_rollback(struct con *c, const struct rankset *set0, const char *a)
{
    struct rankset sset, *set = &sset;
    if (set_arg(c, set0, a, set, &a) < 0)
        return -1;
    if (!*a) {
        fprintf(stderr, "drdb: rollback [@SET] ID: which checkpoint? (see "
                "`checkpoints`)\n");
        rs_release(set);
        return -1;
    }
    int rc = 0;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && roll_one(c, r, a, NULL) < 0)
            rc = -1;
    con_print_where(c, set);
    rs_release(set);
    return rc;
}

/* For goto: rolls rank R to its checkpoint nearest before TARGET when that
 * is later than CUR (-1: the rank cannot go forward from where it is).
 * 1 when it rolled, 0 when no checkpoint helps, -1 on failure. */
int con_ckpt_nearest(struct con *c, int r, uint64_t target, long long cur)
{
    struct cand *v = NULL;
    int n = list_cands(c, r, &v), best = -1;
    for (int i = 0; i < n; i++) {
        if (v[i].event < 0 || (uint64_t)v[i].event > target)
            continue;
        /* one taken off an event boundary, at the target: only if it was
         * taken there, stopped before the event */
        if (v[i].external && (uint64_t)v[i].event == target && !v[i].at_event)
            continue;
        best = i;
    }
    int rc = 0;
    if (best >= 0 && v[best].event > cur) {
        printf("[%d] rolling back to checkpoint %s (event %lld)\n", r,
               v[best].id, v[best].event);
        rc = roll_one(c, r, v[best].id, &v[best]) == 0 ? 1 : -1;
    }
    free(v);
    return rc;
}

/* A rank's process is gone: so are its checkpoints in memory. */
void con_ckpt_forget(struct con_rank *k)
{
    if (!k->ck)
        return;
    free(k->ck->ext);
    k->ck->ext = NULL;
    k->ck->next = 0;
    k->ck->hooks = 0;
    k->ck->at_exit = 0;
}

/* A rank with checkpoints stops before it exits (exit_group), so that they
 * stay restorable: `continue` then ends it. */
void con_ckpt_keep_at_exit(struct con *c, int r)
{
    struct con_rank *k = &c->ranks[r];
    struct con_ckpt_rank *q = ck(k);
    if (!q || q->at_exit || !k->gdb)
        return;
    struct mi_reply rep;
    if (mi_gdb_exec_sync(k->gdb, "-interpreter-exec console \"catch syscall "
                         "exit_group\"", &rep, 10000) == 0)
        q->at_exit = 1;
    mi_reply_release(&rep);
}

/* ---- shadow ---------------------------------------------------------------- */

/* NUL-separated /proc/PID/NAME as a NULL-terminated vector (one block). */
static char **proc_vec(pid_t pid, const char *name, const char *add1,
                       const char *add2)
{
    char p[64];
    snprintf(p, sizeof p, "/proc/%d/%s", (int)pid, name);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    ssize_t got;
    while (buf && (got = read(fd, buf + len, cap - len)) > 0) {
        len += (size_t)got;
        if (len == cap)
            buf = realloc(buf, cap *= 2);
    }
    close(fd);
    if (!buf)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += !buf[i];
    char **v = calloc(n + 3, sizeof *v);
    size_t k = 0;
    for (size_t i = 0; v && i < len; i += strlen(buf + i) + 1)
        v[k++] = buf + i;
    if (v && add1)
        v[k++] = (char *)add1;
    if (v && add2)
        v[k++] = (char *)add2;
    return v;
}

static pid_t inferior_pid(struct con *c, int r)
{
    struct mi_reply rep;
    long long pid = 0;
    if (mi_gdb_exec_sync(c->ranks[r].gdb, "-list-thread-groups", &rep,
                         10000) == 0) {
        const struct mi_value *g = mi_get(rep.record, "groups");
        const struct mi_value *p = g && g->first ? mi_value_get(g->first, "pid")
                                                 : NULL;
        if (p && p->str)
            pid = atoll(p->str);
    }
    mi_reply_release(&rep);
    return (pid_t)pid;
}

static const char *shadow_root(struct con *c)
{
    if (!c->shadow_root[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(c->shadow_root, sizeof c->shadow_root,
                 "%s/drdb-shadow-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(c->shadow_root))
            c->shadow_root[0] = '\0';
    }
    return c->shadow_root;
}

static int start_shadow(struct con *c, int r)
{
    struct con_rank *k = &c->ranks[r];
    struct con_ckpt_rank *q = ck(k);
    if (!q)
        return -1;
    shadow_poll(q);
    if (q->shadow > 0 && q->shadow_status == -1) {
        printf("[%d] its shadow is running already\n", r);
        return 0;
    }
    /* the layout to copy is the foreground's */
    if (ensure_process(c, r) < 0)
        return -1;
    pid_t fg = k->gdb ? inferior_pid(c, r) : 0;
    if (fg <= 0) {
        fprintf(stderr, "drdb: rank %d: no process to copy the layout from\n",
                r);
        return -1;
    }
    if (!shadow_root(c)[0]) {
        fprintf(stderr, "drdb: cannot make a directory for shadows: %s\n",
                strerror(errno));
        return -1;
    }
    snprintf(q->shadow_dir, sizeof q->shadow_dir, "%s/rank-%d",
             c->shadow_root, r);
    mkdir(q->shadow_dir, 0700);
    clear_dir(q->shadow_dir);
    /* The foreground's own environment and arguments, so that the stack
     * and the mappings are laid out alike; checkpoints go to files. */
    char dirv[8400], every[64];
    snprintf(dirv, sizeof dirv, "DRDB_CKPT_DIR=%s", q->shadow_dir);
    if (c->ckpt_interval > 0)
        snprintf(every, sizeof every, "DRDB_CKPT_INTERVAL=%g",
                 c->ckpt_interval);
    else
        snprintf(every, sizeof every, "DRDB_CKPT_EVERY=%llu",
                 c->ckpt_every > 0 ? (unsigned long long)c->ckpt_every
                 : c->nevents[r] / 16 > 0
                     ? (unsigned long long)(c->nevents[r] / 16)
                     : 1ULL);
    char **env = proc_vec(fg, "environ", dirv, every);
    char **argv = proc_vec(fg, "cmdline", NULL, NULL);
    char exe[4096], cwd[4096], p[64];
    snprintf(p, sizeof p, "/proc/%d/exe", (int)fg);
    ssize_t l = readlink(p, exe, sizeof exe - 1);
    exe[l > 0 ? l : 0] = '\0';
    snprintf(p, sizeof p, "/proc/%d/cwd", (int)fg);
    l = readlink(p, cwd, sizeof cwd - 1);
    cwd[l > 0 ? l : 0] = '\0';
    if (!env || !argv || !exe[0]) {
        fprintf(stderr, "drdb: rank %d: cannot read the process's "
                "environment\n", r);
        free(env ? env[0] : NULL);
        free(env);
        free(argv ? argv[0] : NULL);
        free(argv);
        return -1;
    }
    /* Drop any checkpoint settings of the foreground's. */
    for (char **e = env; *e; e++)
        if ((!strncmp(*e, "DRDB_CKPT_INTERVAL=", 19) ||
             !strncmp(*e, "DRDB_CKPT_EVERY=", 16) ||
             !strncmp(*e, "DRDB_CKPT_EVENTS=", 17)) &&
            *e != every && e[1]) {
            char **f = e;
            for (; f[1]; f++)
                f[0] = f[1];
            f[0] = NULL;
            e--;
        }
    char out[8400], status[8400];
    snprintf(out, sizeof out, "%s/output", q->shadow_dir);
    snprintf(status, sizeof status, "%s/status", q->shadow_dir);
    fflush(NULL);
    pid_t a = fork();
    if (a == 0) {
        /* The drain: a terminal for the shadow (so that its stdio buffers
         * as the foreground's does), its output to a file, then its
         * status. */
        setpgid(0, 0);
        int m = posix_openpt(O_RDWR | O_NOCTTY);
        if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0)
            _exit(120);
        const char *sname = ptsname(m);
        pid_t b = fork();
        if (b == 0) {
            int s = open(sname, O_RDWR);
            if (s < 0)
                _exit(121);
            dup2(s, 0);
            dup2(s, 1);
            dup2(s, 2);
            for (int fd = 3; fd < 65536; fd++)
                close(fd);
            if (cwd[0] && chdir(cwd) < 0)
                _exit(122);
            personality(ADDR_NO_RANDOMIZE);
            setpriority(PRIO_PROCESS, 0, 10);
            execve(exe, argv, env);
            _exit(127);
        }
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        char buf[4096];
        ssize_t got;
        while ((got = read(m, buf, sizeof buf)) > 0)
            if (o >= 0 && write(o, buf, (size_t)got) < 0)
                break;
        int st = 0;
        waitpid(b, &st, 0);
        FILE *f = fopen(status, "w");
        if (f) {
            fprintf(f, "%d\n", st);
            fclose(f);
        }
        _exit(0);
    }
    free(env[0]);
    free(env);
    free(argv[0]);
    free(argv);
    if (a < 0) {
        fprintf(stderr, "drdb: cannot start a shadow: %s\n", strerror(errno));
        return -1;
    }
    setpgid(a, a);
    q->shadow = a;
    q->shadow_status = -1;
    printf("[%d] shadow started: checkpoints to %s\n", r, q->shadow_dir);
    return 0;
}

static void stop_shadow(struct con_ckpt_rank *q)
{
    if (q->shadow > 0) {
        kill(-q->shadow, SIGKILL);
        waitpid(q->shadow, NULL, 0);
        q->shadow = 0;
    }
}

/* Waits for the shadows of SET to end (Ctrl-C stops waiting). */
static int wait_shadows(struct con *c, const struct rankset *set)
{
    int64_t t0 = mi_now_ms(), shown = 0;
    for (;;) {
        int running = 0;
        for (int r = 0; r < c->nranks; r++) {
            struct con_ckpt_rank *q = c->ranks[r].ck;
            if (!rs_has(set, r) || !q || q->shadow <= 0)
                continue;
            shadow_poll(q);
            running += q->shadow_status == -1;
        }
        if (!running)
            return 0;
        if (con_sigint) {
            con_sigint = 0;
            fprintf(stderr, "drdb: stopped waiting (the shadows go on)\n");
            return -1;
        }
        if (c->timeout_ms > 0 && mi_now_ms() - t0 > c->timeout_ms) {
            fprintf(stderr, "drdb: shadow wait: timed out\n");
            return -1;
        }
        if (mi_now_ms() - t0 > 2000 && mi_now_ms() - shown > 2000) {
            shown = mi_now_ms();
            fprintf(stderr, "drdb: waiting for %d shadow%s...\n", running,
                    running == 1 ? "" : "s");
        }
        con_idle(c, -1, 50);
    }
}

int con_cmd_shadow(struct con *c, const struct rankset *set0, const char *a)
{
    struct rankset sset, *set = &sset;
    if (set_arg(c, set0, a, set, &a) < 0)
        return -1;
    if (*a && strcmp(a, "wait") && strcmp(a, "stop")) {
        fprintf(stderr, "drdb: shadow [@SET] [stop|wait]: not '%s'\n", a);
        rs_release(set);
        return -1;
    }
    if (strcmp(a, "wait") == 0) {
        int rc = wait_shadows(c, set);
        rs_release(set);
        return rc;
    }
    int stop = strcmp(a, "stop") == 0, rc = 0;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        if (stop) {
            if (c->ranks[r].ck)
                stop_shadow(c->ranks[r].ck);
            continue;
        }
        if (start_shadow(c, r) < 0)
            rc = -1;
    }
    fflush(stdout);
    rs_release(set);
    return rc;
}

/* The shadow line of `status` ("" when the rank has none). */
void con_ckpt_status(struct con *c, int r, char *buf, size_t len)
{
    struct con_ckpt_rank *q = c->ranks[r].ck;
    buf[0] = '\0';
    if (!q || !q->shadow_dir[0])
        return;
    shadow_poll(q);
    struct cand *v = NULL;
    int n = list_cands(c, r, &v), files = 0;
    long long last = -1;
    for (int i = 0; i < n; i++)
        if (v[i].id[0] == 's') {
            files++;
            if (v[i].event > last)
                last = v[i].event;
        }
    free(v);
    char st[64];
    if (q->shadow_status == -1)
        snprintf(st, sizeof st, "running");
    else if (WIFEXITED(q->shadow_status))
        snprintf(st, sizeof st, "finished (status %d)",
                 WEXITSTATUS(q->shadow_status));
    else
        snprintf(st, sizeof st, "ended by signal %d",
                 WTERMSIG(q->shadow_status));
    snprintf(buf, len, "shadow: %s, %d checkpoint%s, latest before event "
             "%lld of %llu", st, files, files == 1 ? "" : "s", last,
             (unsigned long long)c->nevents[r]);
}

/* The session ends: shadows end, their files go. */
void con_ckpt_close(struct con *c)
{
    for (int r = 0; r < c->nranks; r++) {
        struct con_ckpt_rank *q = c->ranks[r].ck;
        if (!q)
            continue;
        stop_shadow(q);
        if (q->shadow_dir[0]) {
            clear_dir(q->shadow_dir);
            rmdir(q->shadow_dir);
        }
        free(q->ext);
        free(q);
        c->ranks[r].ck = NULL;
    }
    if (c->shadow_root[0])
        rmdir(c->shadow_root);
}

/* `set checkpoint-interval SECONDS|off` / `set checkpoint-every N|off`. */
int con_ckpt_set(struct con *c, const char *what, const char *val)
{
    int off = !strcmp(val, "off") || !strcmp(val, "0");
    char *end;
    double v = off ? 0 : strtod(val, &end);
    if (!off && (end == val || *end || v < 0)) {
        fprintf(stderr, "drdb: set %s: a number or off\n", what);
        return -1;
    }
    int every = !strcmp(what, "checkpoint-every");
    if (every)
        c->ckpt_every = (long long)v;
    else
        c->ckpt_interval = v;
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        if (!k->gdb || (k->state != CON_STOPPED && k->state != CON_DIVERGED))
            continue;
        char e[96];
        int ok;
        snprintf(e, sizeof e, every ? "drdb_ckpt_every = %.0f"
                                    : "drdb_ckpt_interval = %g", v);
        con_eval_int(c, r, e, &ok);
        if (v > 0)
            con_ckpt_keep_at_exit(c, r);
    }
    return 0;
}
