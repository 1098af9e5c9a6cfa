/*
 * Checkpoints through the stub, and shadows.
 *
 * The checkpoint library (checkpoint/) runs inside each replayed process.
 * The stub takes checkpoints by itself (every N events or T seconds);
 * con_ckpt_take() takes one wherever the rank stopped through the
 * library's take trampoline, which saves every register and resumes the
 * program at its pc, where a temporary breakpoint stops it again. A
 * rollback jumps to the restore trampoline: the rank stops in
 * drdb_restored_hook (a stub's checkpoint) or at the pc the checkpoint was
 * taken at (a temporary breakpoint there); a refused one comes back to
 * where it was. A shadow is a second replay of a rank, without GDB, with
 * the foreground's address space layout (ASLR off, the same environment:
 * launch.c), writing checkpoint files the foreground can roll to (see
 * docs/checkpoints.md).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "args.h"
#include "ckpt-file.h"
#include "con.h"
#include "drdb-stub.h"
#include "util.h"
#include "launch.h"
#include "life.h"
#include "remote.h"

struct con_ckpt_rank *con_ckpt_state(struct con_rank *k)
{
    if (!k->ck && (k->ck = calloc(1, sizeof *k->ck)))
        k->ck->seen_files = -1;
    return k->ck;
}

pid_t con_inferior_pid(struct con *c, int r)
{
    struct mi_reply rep;
    long long pid = 0;
    if (mi_gdb_exec_sync(c->ranks[r]->gdb, "-list-thread-groups", &rep,
                         10000) == 0) {
        const struct mi_value *g = mi_get(rep.record, "groups");
        const struct mi_value *pv = g && g->first
                                        ? mi_value_get(g->first, "pid")
                                        : NULL;
        if (pv && pv->str)
            pid = atoll(pv->str);
    }
    mi_reply_release(&rep);
    return (pid_t)pid;
}

/* How many threads rank R's process has (its /proc/PID/task), or 0 when
 * that cannot be told. */
static int inferior_threads(struct con *c, int r)
{
    char path[64];
    pid_t pid = con_inferior_pid(c, r);
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = pid > 0 ? opendir(path) : NULL;
    struct dirent *de;
    int n = 0;
    while (d && (de = readdir(d)))
        n += de->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* ---- the list of a rank's checkpoints ------------------------------------ */

/* The connection to rank R's host when it replays there, else NULL. */
static struct remote *shadow_host(struct con *c, int r)
{
    int h = c->ranks[r]->host;
    return h >= 0 && !c->hosts[h].lost ? c->hosts[h].conn : NULL;
}

/* Rank R's shadow ran on its host's agent of an earlier connection
 * (lost, then `replay` connected again): that agent and what it ran are
 * not this connection's. Its entry goes, said once unless QUIET: 1; else
 * 0. */
static int shadow_gone(struct con *c, int r, int quiet)
{
    struct con_ckpt_rank *q = c->ranks[r]->ck;
    int h = c->ranks[r]->host;
    if (h < 0 || !q || !q->shadow_dir[0] || q->shadow_gen == c->hosts[h].gen)
        return 0;
    const char *name = c->hosts[h].name, *id = q->shadow_session;
    if (!quiet && id[0])
        fprintf(stderr, "drdb: rank %d: its shadow stays on %s with the "
                "kept session %s ('drdb attach %s %s' takes it back): not "
                "this connection's\n", r, name, id, name, id);
    else if (!quiet)
        fprintf(stderr, "drdb: rank %d: its shadow on %s ended with the "
                "agent of the connection that was lost, and its checkpoint "
                "files with it\n", r, name);
    q->shadow = 0;
    q->shadow_status = -1;
    q->shadow_dir[0] = q->shadow_session[0] = '\0';
    return 1;
}

static void shadow_poll(struct con *c, int r)
{
    struct con_ckpt_rank *q = c->ranks[r]->ck;
    char status[8400], err[1024];
    int st;
    if (shadow_gone(c, r, 0) || q->shadow <= 0 || q->shadow_status != -1)
        return;
    if (c->ranks[r]->host >= 0) {
        /* A lost host: what became of it is not known here (con_shadow_
         * status says so); a kept session keeps it running there. */
        struct remote *h = shadow_host(c, r);
        if (!h)
            return;
        if (!q->shadow_session[0])
            snprintf(q->shadow_session, sizeof q->shadow_session, "%s",
                     remote_session(h));
        int ended = remote_shadow_poll(h, q->shadow, &st, err, sizeof err);
        if (ended < 0)
            fprintf(stderr, "drdb: rank %d: its shadow: %s\n", r, err);
        if (ended > 0)
            q->shadow_status = st;
        return;
    }
    snprintf(status, sizeof status, "%s/status", q->shadow_dir);
    if (launch_shadow_poll(q->shadow, status, &st))
        q->shadow_status = st;
}

/* Adds the files of rank R's shadow to V (N, CAP), from its host when it
 * replays there. */
static void shadow_files(struct con *c, int r, struct con_ckpt **v,
                         size_t *n, size_t *cap)
{
    struct con_ckpt_rank *q = c->ranks[r]->ck;
    struct launch_shadow_file *f = NULL;
    struct remote *h = shadow_gone(c, r, 0) ? NULL : shadow_host(c, r);
    char err[1024];
    if (!q->shadow_dir[0])
        return;
    int m = c->ranks[r]->host < 0 ? launch_shadow_files(q->shadow_dir, &f)
            : h && q->shadow > 0
                ? remote_shadow_list(h, q->shadow, &f, err, sizeof err)
                : 0;
    if (m < 0)
        fprintf(stderr, "drdb: rank %d: its shadow: %s\n", r, err);
    for (int i = 0; i < m && util_grow(v, cap, *n + 1, sizeof **v) == 0;
         i++) {
        struct con_ckpt x = {0};
        snprintf(x.path, sizeof x.path, "%s/%s", q->shadow_dir, f[i].name);
        x.num = f[i].id;
        x.parent = f[i].parent;
        x.event = (long long)f[i].event;
        x.time = f[i].time;
        x.pages = f[i].pages;
        x.bytes = f[i].bytes;
        snprintf(x.id, sizeof x.id, "s%ld", f[i].id);
        (*v)[(*n)++] = x;
    }
    free(f);
}

static int cmp_ckpt(const void *a, const void *b)
{
    const struct con_ckpt *x = a, *y = b;
    if (x->event != y->event)
        return x->event < y->event ? -1 : 1;
    return x->id[0] == 's' ? 1 : y->id[0] == 's' ? -1 : 0;
}

int con_ckpt_list(struct con *c, int r, struct con_ckpt **out)
{
    struct con_rank *k = c->ranks[r];
    struct con_ckpt *v = NULL;
    size_t n = 0, cap = 0;
    if (k->gdb && con_rank_halted(k)) {
        char *t = con_stub_read_str(c, r, DRDB_SYM_CKPT_TABLE, 1 << 16);
        for (char *line = t, *nl; line && *line; line = nl + 1) {
            nl = strchr(line, '\n');
            if (!nl)
                break;
            struct ckpt_info ck;
            if (ckpt_table_parse(line, &ck) < 0)
                continue;
            struct con_ckpt x = {
                .num = ck.id, .parent = ck.parent,
                .event = (long long)ck.event, /* none: -1 */
                .time = ck.time, .pages = ck.pages, .bytes = ck.bytes,
                .external = ck.external, .pc = ck.pc};
            snprintf(x.id, sizeof x.id, "%ld", x.num);
            if (x.external && k->ck)
                for (size_t i = 0; i < k->ck->next; i++)
                    if (k->ck->ext[i].id == x.num)
                        x.at_event = k->ck->ext[i].at_event;
            if (util_grow(&v, &cap, n + 1, sizeof *v) < 0)
                break;
            v[n++] = x;
        }
        free(t);
    }
    if (k->ck && k->ck->shadow_dir[0])
        shadow_files(c, r, &v, &n, &cap);
    if (n)
        qsort(v, n, sizeof *v, cmp_ckpt);
    *out = v;
    return (int)n;
}

/* ---- checkpoint ---------------------------------------------------------- */

/* Rank R (stopped, at PC: con_stub_resume_pc) through the checkpoint
 * library's trampoline SYMBOL, which resumes the program at PC as it was:
 * stopped there again by a temporary breakpoint, its place and reason as
 * before. 0, or -1 when the rank was lost DOING it (said). */
static int jump_back(struct con *c, int r, unsigned long long pc,
                     const char *symbol, const char *doing)
{
    struct con_rank *k = c->ranks[r];
    char where[256], reason[256];
    int at = k->at_event;
    snprintf(where, sizeof where, "%s", k->where);
    snprintf(reason, sizeof reason, "%s", k->reason);
    long tb = con_stub_tbreak(c, r, pc);
    con_stub_jump(c, r, symbol);
    con_stub_untbreak(c, r, tb);
    if (k->state != CON_STOPPED) {
        fprintf(stderr, "drdb: rank %d: lost while %s: %s\n", r, doing,
                k->reason);
        return -1;
    }
    /* back where it was, as it was */
    snprintf(k->where, sizeof k->where, "%s", where);
    snprintf(k->reason, sizeof k->reason, "%s", reason);
    k->at_event = at;
    if (at)
        con_select_user_frame(c, k);
    return 0;
}

long con_ckpt_take(struct con *c, int r)
{
    struct con_rank *k = c->ranks[r];
    struct con_ckpt_rank *q = con_ckpt_state(k);
    if (!k->gdb) {
        fprintf(stderr, "drdb: rank %d is not replayed ('replay @%d' starts "
                "it)\n", r, r);
        return -1;
    }
    if (!con_rank_halted(k)) {
        fprintf(stderr, "drdb: rank %d is %s: no checkpoint (stop it first)\n",
                r, con_state_name(k->state));
        return -1;
    }
    int ok;
    long last = (long)con_eval_int(c, r, DRDB_SYM_CKPT_LAST, &ok);
    con_eval_int(c, r, DRDB_SYM_CKPT_EVENT_TAG " = " DRDB_SYM_EVENT, &ok);
    unsigned long long pc = ok ? con_stub_resume_pc(c, r) : 0;
    if (k->state == CON_LOST) { /* its GDB or connection went meanwhile */
        fprintf(stderr, "drdb: rank %d: no checkpoint: lost (%s)\n", r,
                k->reason);
        return -1;
    }
    if (!q || !pc) {
        fprintf(stderr, "drdb: rank %d: no checkpoint library in this "
                "process (" DRDB_ENV_CKPT "=off?)\n", r);
        return -1;
    }
    /* Refused here, before the jump into the library resumes the other
     * threads too (GDB's all-stop mode): they would run meanwhile. The
     * library checks again (the same words). */
    int nth = inferior_threads(c, r);
    if (nth > 1) {
        fprintf(stderr, "drdb: rank %d: no checkpoint: the process has %d "
                "threads: checkpoints need a single-threaded process\n", r,
                nth);
        return -1;
    }
    if (jump_back(c, r, pc, DRDB_SYM_CKPT_TAKE, "checkpointing") < 0)
        return -1;
    long id = (long)con_eval_int(c, r, DRDB_SYM_CKPT_LAST, &ok);
    con_eval_int(c, r, DRDB_SYM_CKPT_EVENT_TAG " = " DRDB_NO_EVENT, &ok);
    if (id == last) {
        char *m = con_stub_read_str(c, r, DRDB_SYM_CKPT_MSG, 512);
        fprintf(stderr, "drdb: rank %d: no checkpoint: %s\n", r,
                m && *m ? m : "the library failed");
        free(m);
        return -1;
    }
    if (util_grow(&q->ext, &q->cap, q->next + 1, sizeof *q->ext) == 0)
        q->ext[q->next++] = (struct con_ckext){id, k->at_event};
    con_ckpt_keep_at_exit(c, r);
    return id;
}

int con_ckpt_forget_since(struct con *c, int r, long id)
{
    struct con_rank *k = c->ranks[r];
    int ok;
    char e[64];
    if (!k->gdb || !con_rank_halted(k))
        return -1;
    snprintf(e, sizeof e, DRDB_SYM_CKPT_TARGET " = %ld", id);
    con_eval_int(c, r, e, &ok);
    unsigned long long pc = ok ? con_stub_resume_pc(c, r) : 0;
    if (!pc || jump_back(c, r, pc, DRDB_SYM_CKPT_FORGET, "forgetting "
                         "checkpoints") < 0)
        return -1;
    char *m = con_stub_read_str(c, r, DRDB_SYM_CKPT_MSG, 512);
    int rc = m && *m ? -1 : 0;
    if (rc)
        fprintf(stderr, "drdb: rank %d: checkpoints from %ld on not all "
                "removed: %s\n", r, id, m);
    free(m);
    /* what the console remembers of those `checkpoint` took */
    struct con_ckpt_rank *q = k->ck;
    size_t n = 0;
    for (size_t i = 0; q && i < q->next; i++)
        if (q->ext[i].id < id)
            q->ext[n++] = q->ext[i];
    if (q)
        q->next = n;
    return rc;
}

/* ---- rollback ------------------------------------------------------------ */

int con_ckpt_roll(struct con *c, int r, const char *id,
                  const struct con_ckpt *known)
{
    struct con_rank *k = c->ranks[r];
    struct con_ckpt_rank *q = con_ckpt_state(k);
    int shadow = id[0] == 's';
    long long num;
    if (fe_parse_int(id + shadow, 1, LONG_MAX, &num) < 0) {
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
        snprintf(path, sizeof path, "%s/ckpt-%06lld.drdbck", q->shadow_dir,
                 num);
        struct ckpt_info inf;
        char err[512] = "";
        /* (a remote rank's file is on its host: its stub checks it) */
        if (k->host < 0 && access(path, F_OK) < 0 && errno == ENOENT) {
            fprintf(stderr, "drdb: rank %d: no rollback to %s: its shadow "
                    "wrote no checkpoint %s ('checkpoints @%d' lists "
                    "them)\n", r, id, id, r);
            return -1;
        }
        if (k->host < 0 && ckpt_file_info(path, &inf, err, sizeof err) < 0) {
            fprintf(stderr, "drdb: rank %d: %s\n", r, err);
            return -1;
        }
        if (con_rank_ensure(c, r) < 0)
            return -1;
    } else if (!k->gdb || !con_rank_halted(k)) {
        fprintf(stderr, "drdb: rank %d has no live process: its checkpoints "
                "in memory ended with it\n", r);
        return -1;
    }
    int nth = inferior_threads(c, r);
    if (nth > 1) {
        fprintf(stderr, "drdb: rank %d: no rollback to %s: the process has "
                "%d threads: cannot roll back\n", r, id, nth);
        return -1;
    }
    /* A checkpoint `checkpoint` took resumes at its pc: a breakpoint there
     * stops it. */
    unsigned long long tpc = known && known->external ? known->pc : 0;
    if (!shadow && !known) {
        struct con_ckpt *v = NULL;
        int n = con_ckpt_list(c, r, &v);
        for (int i = 0; i < n; i++)
            if (v[i].id[0] != 's' && v[i].num == num && v[i].external)
                tpc = v[i].pc;
        free(v);
    }
    int ok;
    if (shadow &&
        con_stub_write_str(c, r, DRDB_SYM_CKPT_TARGET_PATH, path) < 0) {
        fprintf(stderr, "drdb: rank %d: cannot pass the file name\n", r);
        return -1;
    }
    char e[64];
    snprintf(e, sizeof e, DRDB_SYM_CKPT_TARGET " = %lld",
             shadow ? -1LL : num);
    con_eval_int(c, r, e, &ok);
    unsigned long long pc = ok ? con_stub_resume_pc(c, r) : 0;
    if (!pc) {
        fprintf(stderr, "drdb: rank %d: no checkpoint library in this "
                "process\n", r);
        return -1;
    }
    char where[256], reason[256];
    snprintf(where, sizeof where, "%s", k->where);
    snprintf(reason, sizeof reason, "%s", k->reason);
    int at = k->at_event;
    long tb0 = con_stub_tbreak(c, r, pc);
    long tb1 = tpc ? con_stub_tbreak(c, r, tpc) : 0;
    con_stub_jump(c, r, DRDB_SYM_CKPT_RESTORE);
    con_stub_untbreak(c, r, tb0);
    con_stub_untbreak(c, r, tb1);
    if (k->state != CON_STOPPED) {
        fprintf(stderr, "drdb: rank %d: lost in the rollback: %s\n", r,
                k->reason);
        return -1;
    }
    int in_stub = strncmp(k->where, DRDB_SYM_RESTORED_HOOK,
                          strlen(DRDB_SYM_RESTORED_HOOK)) == 0;
    char *m = in_stub ? NULL : con_stub_read_str(c, r, DRDB_SYM_CKPT_MSG, 512);
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
    con_stub_no_stop(c, r);
    if (c->ckpt_interval >= 0) {
        snprintf(e, sizeof e, DRDB_SYM_CKPT_INTERVAL " = %g", c->ckpt_interval);
        con_eval_int(c, r, e, &ok);
    }
    if (c->ckpt_every > 0) {
        snprintf(e, sizeof e, DRDB_SYM_CKPT_EVERY " = %lld", c->ckpt_every);
        con_eval_int(c, r, e, &ok);
    }
    /* in the stub (its own checkpoint, or one taken before an event):
     * the program's frame */
    if (in_stub)
        k->at_event = 1;
    if (k->at_event)
        con_select_user_frame(c, k);
    char at_ev[64];
    snprintf(k->reason, sizeof k->reason, "rolled back to checkpoint %s "
             "(%s)", id, con_ckpt_at(c, r, at_ev, sizeof at_ev));
    con_ckpt_keep_at_exit(c, r);
    return 0;
}

const char *con_ckpt_at(struct con *c, int r, char *buf, size_t len)
{
    struct con_pos p;
    if (con_position(c, r, &p) < 0 || p.kind == CON_POS_NONE)
        snprintf(buf, len, "its event unknown: rank %s",
                 con_state_name(c->ranks[r]->state));
    else if (p.kind == CON_POS_BETWEEN && p.n > 0)
        snprintf(buf, len, "after event %llu", (unsigned long long)p.n - 1);
    else
        snprintf(buf, len, "%s event %llu",
                 p.kind == CON_POS_INSIDE ? "inside" : "before",
                 (unsigned long long)p.n);
    return buf;
}

int con_ckpt_nearest(struct con *c, int r, uint64_t target, long long cur,
                     int quiet)
{
    struct con_ckpt *v = NULL;
    int n = con_ckpt_list(c, r, &v), best = -1;
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
        if (!quiet)
            printf("[%d] rolling back to checkpoint %s (event %lld)\n", r,
                   v[best].id, v[best].event);
        rc = con_ckpt_roll(c, r, v[best].id, &v[best]) == 0 ? 1 : -1;
    }
    free(v);
    return rc;
}

/* (So that its checkpoints stay restorable: `continue` then ends it.) */
void con_ckpt_keep_at_exit(struct con *c, int r)
{
    struct con_rank *k = c->ranks[r];
    struct con_ckpt_rank *q = con_ckpt_state(k);
    if (!q || q->at_exit || !k->gdb)
        return;
    struct mi_reply rep;
    if (mi_gdb_exec_sync(k->gdb, "-interpreter-exec console \"catch syscall "
                         "exit_group\"", &rep, 10000) == 0)
        q->at_exit = 1;
    mi_reply_release(&rep);
}

/* ---- shadows ------------------------------------------------------------- */

int con_shadow_start(struct con *c, int r)
{
    struct con_rank *k = c->ranks[r];
    struct con_ckpt_rank *q = con_ckpt_state(k);
    if (!q)
        return -1;
    shadow_poll(c, r);
    if (q->shadow > 0 && q->shadow_status == -1) {
        printf("[%d] its shadow is running already\n", r);
        return 0;
    }
    /* the layout to copy is the foreground's */
    if (con_rank_ensure(c, r) < 0)
        return -1;
    pid_t fg = k->gdb ? con_inferior_pid(c, r) : 0;
    if (fg <= 0) {
        fprintf(stderr, "drdb: rank %d: no process to copy the layout from\n",
                r);
        return -1;
    }
    unsigned long long every =
        c->ckpt_every > 0 ? (unsigned long long)c->ckpt_every
                          : (unsigned long long)(c->nevents[r] / 16);
    char err[1024];
    pid_t a;
    if (k->host >= 0) {
        /* made on its host, by its agent, as below */
        struct con_host *x = &c->hosts[k->host];
        if (!shadow_host(c, r)) {
            fprintf(stderr, "drdb: rank %d: %s is not connected: `replay "
                    "@%d` first\n", r, x->name, r);
            return -1;
        }
        if (remote_shadow_start(x->conn, fg, c->in_place ? NULL : x->dir,
                                k->rank, c->ckpt_interval, every, &a,
                                q->shadow_dir, sizeof q->shadow_dir, err,
                                sizeof err) < 0) {
            fprintf(stderr, "drdb: rank %d: %s\n", r, err);
            q->shadow_dir[0] = '\0';
            return -1;
        }
        q->shadow_gen = x->gen;
        snprintf(q->shadow_session, sizeof q->shadow_session, "%s",
                 remote_session(x->conn));
    } else {
        int made = launch_shadow_dir(c->shadow_root, sizeof c->shadow_root,
                                     r, q->shadow_dir, sizeof q->shadow_dir);
        if (made < 0) {
            fprintf(stderr, "drdb: rank %d: cannot make the shadow's "
                    "directory in %s: %s\n", r, life_tmpdir(),
                    strerror(-made));
            q->shadow_dir[0] = '\0';
            return -1;
        }
        a = launch_shadow_of(fg, q->shadow_dir, c->in_place ? NULL : c->dir,
                             r, c->ckpt_interval, every, err, sizeof err);
        if (a < 0) {
            fprintf(stderr, "drdb: rank %d: %s\n", r, err);
            return -1;
        }
    }
    q->shadow = a;
    q->shadow_status = -1;
    printf("[%d] shadow started: checkpoints to %s%s%s\n", r,
           k->host >= 0 ? c->hosts[k->host].name : "",
           k->host >= 0 ? ":" : "", q->shadow_dir);
    return 0;
}

void con_shadow_end(struct con *c, int r, int clear)
{
    struct con_ckpt_rank *q = c->ranks[r]->ck;
    char err[1024];
    if (!q)
        return;
    if (c->ranks[r]->host >= 0) {
        struct remote *h = shadow_gone(c, r, 1) ? NULL : shadow_host(c, r);
        if (h && q->shadow > 0 &&
            remote_shadow_stop(h, q->shadow, clear, err, sizeof err) < 0)
            fprintf(stderr, "drdb: rank %d: its shadow: %s\n", r, err);
    } else {
        launch_shadow_stop(q->shadow);
        if (clear && q->shadow_dir[0]) {
            launch_clear_dir(q->shadow_dir);
            rmdir(q->shadow_dir);
        }
    }
    q->shadow = 0;
}

void con_shadow_stop(struct con *c, const struct rankset *set)
{
    for (int r = 0; r < c->nranks; r++) {
        struct con_ckpt_rank *q = c->ranks[r]->ck;
        if (rs_has(set, r) && q && q->shadow > 0)
            con_shadow_end(c, r, 0);
    }
}

/* (Ctrl-C stops waiting.) */
int con_shadow_wait(struct con *c, const struct rankset *set)
{
    int64_t t0 = mi_now_ms(), shown = 0;
    for (;;) {
        int running = 0;
        for (int r = 0; r < c->nranks; r++) {
            struct con_ckpt_rank *q = c->ranks[r]->ck;
            if (!rs_has(set, r) || !q || q->shadow <= 0)
                continue;
            shadow_poll(c, r);
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

/* ", N checkpoints, latest before event E of M" (none: ", no
 * checkpoint"; FILES -1, not known: "") into BUF. */
static void files_said(struct con *c, int r, int files, long long last,
                       char *buf, size_t len)
{
    if (files <= 0)
        snprintf(buf, len, "%s", files < 0 ? "" : ", no checkpoint");
    else
        snprintf(buf, len, ", %d checkpoint%s, latest before event %lld of "
                 "%llu", files, files == 1 ? "" : "s", last,
                 (unsigned long long)c->nevents[r]);
}

void con_shadow_status(struct con *c, int r, char *buf, size_t len)
{
    struct con_ckpt_rank *q = c->ranks[r]->ck;
    char files_s[128];
    buf[0] = '\0';
    if (!q || !q->shadow_dir[0])
        return;
    shadow_poll(c, r);
    if (!q->shadow_dir[0]) /* gone with an earlier connection (said) */
        return;
    int h = c->ranks[r]->host;
    if (h >= 0 && !shadow_host(c, r)) {
        /* Its host's connection is lost: kept, the shadow goes on there;
         * else it ended with the agent. What it made is as last seen. */
        const char *name = c->hosts[h].name, *id = q->shadow_session;
        files_said(c, r, q->seen_files, q->seen_last, files_s,
                   sizeof files_s);
        if (id[0])
            snprintf(buf, len, "shadow: left on %s with the kept session %s "
                     "(drdb attach %s %s)%s%s", name, id, name, id, files_s,
                     files_s[0] ? " when last seen" : "");
        else
            snprintf(buf, len, "shadow: ended with the connection to %s "
                     "(its agent ends what it started), and its checkpoint "
                     "files with it", name);
        return;
    }
    struct con_ckpt *v = NULL;
    int n = con_ckpt_list(c, r, &v), files = 0;
    long long last = -1;
    for (int i = 0; i < n; i++)
        if (v[i].id[0] == 's') {
            files++;
            if (v[i].event > last)
                last = v[i].event;
        }
    free(v);
    q->seen_files = files;
    q->seen_last = last;
    char st[64];
    if (q->shadow_status == -1)
        snprintf(st, sizeof st, "running");
    else if (WIFEXITED(q->shadow_status))
        snprintf(st, sizeof st, "finished (status %d)",
                 WEXITSTATUS(q->shadow_status));
    else
        snprintf(st, sizeof st, "ended by signal %d",
                 WTERMSIG(q->shadow_status));
    files_said(c, r, files, last, files_s, sizeof files_s);
    snprintf(buf, len, "shadow: %s%s", st, files_s);
}

int con_ckpt_set(struct con *c, const char *what, const char *val)
{
    int off = !strcmp(val, "off") || !strcmp(val, "0");
    double v = 0;
    if (!off && fe_parse_double(val, &v) < 0) {
        fprintf(stderr, "drdb: set %s: a number or off\n", what);
        return -1;
    }
    int every = !strcmp(what, "checkpoint-every");
    if (every)
        c->ckpt_every = (long long)v;
    else
        c->ckpt_interval = v;
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (!k->gdb || !con_rank_halted(k))
            continue;
        char e[96];
        int ok;
        snprintf(e, sizeof e, every ? DRDB_SYM_CKPT_EVERY " = %.0f"
                                    : DRDB_SYM_CKPT_INTERVAL " = %g", v);
        con_eval_int(c, r, e, &ok);
        if (v > 0)
            con_ckpt_keep_at_exit(c, r);
    }
    return 0;
}
