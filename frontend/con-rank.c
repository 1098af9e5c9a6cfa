/*
 * Starting and ending ranks: a rank's GDB, set up to run the recorded
 * program with the replay stub (the launcher's environment and command,
 * breakpoints on the stub's hooks), run to main, given the session's
 * action points; and dropping it.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt-file.h"
#include "con.h"
#include "fe.h"
#include "drdb-stub.h"
#include "launch.h"

/* A reply nobody reads: a failure marks the rank. */
static void on_setup_reply(struct mi_gdb *g, const struct mi_reply *r,
                           void *ud)
{
    struct con_rank *k = ud;
    (void)g;
    if (r->status != 0 && k->state == CON_STARTING) {
        snprintf(k->reason, sizeof k->reason, "%s: %s", r->command,
                 r->message ? r->message : mi_strerror(r->status));
        k->state = CON_LOST;
    }
}

static void send_setup(struct con_rank *k, const char *cmd)
{
    if (mi_gdb_send(k->gdb, cmd, 0, on_setup_reply, k) < 0) {
        k->state = CON_LOST;
        snprintf(k->reason, sizeof k->reason, "its GDB is gone");
    }
}

/* A GDB CLI command, as setup. */
static void send_cli(struct con_rank *k, const char *cli)
{
    struct mi_cmd mc;
    mi_cmd_init(&mc);
    mi_cmd_console(&mc, cli);
    if (mi_cmd_str(&mc))
        send_setup(k, mi_cmd_str(&mc));
    mi_cmd_release(&mc);
}

/* "-OP ARG", as setup. */
static void send_op(struct con_rank *k, const char *op, const char *arg)
{
    struct mi_cmd mc;
    mi_cmd_init(&mc);
    mi_cmd_op(&mc, op);
    mi_cmd_arg(&mc, arg);
    if (mi_cmd_str(&mc))
        send_setup(k, mi_cmd_str(&mc));
    mi_cmd_release(&mc);
}

/*
 * The recorded stack pointer for rank K's program (launch.h,
 * launch_pad_size()): its GDB says the environment the program gets
 * ("show environment", one NAME=VALUE a line); the padding variables that
 * make it up to the recorded size are set, then the program runs. ARGS:
 * the other bytes exec puts on the stack (the path, the arguments).
 */
struct stack_pad {
    struct con_rank *k;
    unsigned long long args;
    uint32_t strings, nenv;
};

static void on_environment(struct mi_gdb *g, const struct mi_reply *r,
                           void *ud)
{
    struct stack_pad *p = ud;
    struct con_rank *k = p->k;
    on_setup_reply(g, r, k);
    if (r->status != 0 || k->state != CON_STARTING) {
        free(p);
        return;
    }
    unsigned long long cur = p->args;
    size_t n = 0;
    for (size_t i = 0, at = 0; i < r->console_len; i++)
        if (r->console[i] == '\n') {
            if (i > at) { /* a variable: its bytes and NUL */
                cur += i - at + 1;
                n++;
            }
            at = i + 1;
        }
    int npad;
    long long extra = launch_pad_size(cur, n, p->strings, p->nenv, &npad);
    free(p);
    char *cli = extra >= 0 ? malloc((size_t)extra + 64) : NULL;
    if (cli) {
        int at = sprintf(cli, "set environment DRDB_PAD0=");
        memset(cli + at, 'x', (size_t)extra);
        cli[at + extra] = '\0';
        send_cli(k, cli);
        free(cli);
        if (npad == 2)
            send_cli(k, "set environment DRDB_PAD1=");
    }
    send_setup(k, "-exec-run");
}

/* Runs rank K's program, its environment padded to the recorded stack
 * when its arguments are plain (PLAIN: GDB executes the program itself;
 * else a shell does, with variables of its own). */
static void run_program(struct con *c, struct con_rank *k,
                        const struct launch_gdb *lg, int plain)
{
    struct stack_pad *p = plain && lg->stack_strings
        ? calloc(1, sizeof *p) : NULL;
    if (!p) {
        send_setup(k, "-exec-run");
        return;
    }
    p->k = k;
    p->strings = lg->stack_strings;
    p->nenv = lg->stack_nenv;
    /* exec's path and argv[0] are both the program's path (GDB's exec
     * file), then the arguments ("\x1f"-separated after argv[0]) */
    p->args = 2 * (strlen(c->exe) + 1);
    for (const char *a = strchr(c->args, '\x1f'); a; a = strchr(a + 1, '\x1f'))
        p->args += strcspn(a + 1, "\x1f") + 1;
    /* GDB's own additions (its screen size), which the recording had not */
    send_cli(k, "unset environment LINES");
    send_cli(k, "unset environment COLUMNS");
    struct mi_cmd mc;
    mi_cmd_init(&mc);
    mi_cmd_console(&mc, "show environment");
    if (!mi_cmd_str(&mc) ||
        mi_gdb_send(k->gdb, mi_cmd_str(&mc), 0, on_environment, p) < 0) {
        free(p);
        k->state = CON_LOST;
        snprintf(k->reason, sizeof k->reason, "its GDB is gone");
    }
    mi_cmd_release(&mc);
}

/* Whether the executable at PATH defines main (in .symtab or .dynsym):
 * 1, 0 (stripped), or 1 when it cannot be read here (a remote rank's
 * program: GDB then says). */
static int exe_has_main(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC), found = 0;
    if (fd < 0)
        return 1;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    while (elf && !found && (scn = elf_nextscn(elf, scn))) {
        Elf_Data *data;
        if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
            (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
            !(data = elf_getdata(scn, NULL)))
            continue;
        for (size_t i = 1; i < sh.sh_size / sh.sh_entsize && !found; i++) {
            GElf_Sym sym;
            const char *name = gelf_getsym(data, (int)i, &sym)
                ? elf_strptr(elf, sh.sh_link, sym.st_name) : NULL;
            found = name && sym.st_shndx != SHN_UNDEF &&
                    strcmp(name, "main") == 0;
        }
    }
    if (elf && elf_kind(elf) != ELF_K_ELF)
        found = 1;
    if (elf)
        elf_end(elf);
    close(fd);
    return found || !elf;
}

/* Queues everything that takes rank K from a fresh GDB to main, with
 * what its host made ready (LG: the same for a local rank and a remote
 * one, launch_gdb_prepare). */
static void setup_rank(struct con *c, struct con_rank *k,
                       struct launch_gdb *lg)
{
    char cli[8400];
    /* No separate debug info of the system's libraries (libc6-dbg's:
     * most of a GDB's time to main and a third of its memory) unless
     * --debug-file-directory names where; never a debuginfod server (no
     * network at a replay, and a GDB that asks would hang). */
    snprintf(cli, sizeof cli, "set debug-file-directory %s", c->debug_dir);
    send_cli(k, cli);
    send_cli(k, "set debuginfod enabled off");
    /* A place GDB does not know is an error, never a pending breakpoint
     * (con_bpt_insert: breakpoints the session gives every rank). */
    send_cli(k, "set breakpoint pending off");
    if (lg->index[0]) {
        snprintf(cli, sizeof cli, "set index-cache directory %s", lg->index);
        send_cli(k, cli);
        send_setup(k, "-gdb-set index-cache enabled on");
    }
    send_op(k, "-file-exec-and-symbols", c->exe);
    int plain;
    char *args = launch_gdb_args(c->args, &plain);
    if (!args)
        return;
    if (plain)
        send_setup(k, "-gdb-set startup-with-shell off");
    send_cli(k, args);
    free(args);
    if (c->cwd[0] && (lg->flags & LAUNCH_GDB_CWD))
        send_op(k, "-environment-cd", c->cwd);
    /* The replay's environment (over GDB's own), with the checkpoint
     * library started in the stub (the breakpoints on its hooks come with
     * the first checkpoint command, con-ckpt.c); the user's program and
     * arguments (drdb console RUNDIR -- PROGRAM ARGS) run as given, on
     * purpose. */
    if (launch_env_ckpt(&lg->env, c->ckpt_interval, c->ckpt_every) < 0 ||
        (c->program &&
         launch_env_set(&lg->env, DRDB_ENV_REPLAY_OWN_ARGS, "1") < 0)) {
        k->state = CON_LOST;
        snprintf(k->reason, sizeof k->reason, "out of memory");
        return;
    }
    for (size_t i = 0; i < lg->env.n; i++) {
        snprintf(cli, sizeof cli, "set environment %s", lg->env.v[i]);
        send_cli(k, cli);
    }
    if (c->width >= 0) {
        snprintf(cli, sizeof cli, "set width %lld", c->width);
        send_cli(k, cli);
    }
    for (int i = 0; i < c->ngdbsets; i++) /* the user's GDB settings */
        send_cli(k, c->gdbsets[i]);
    if (!c->main_sym) {
        c->main_sym = exe_has_main(c->exe) ? 1 : -1;
        if (c->main_sym < 0)
            fprintf(stderr, "drdb: no main symbol (a stripped program): "
                    "stopped before its first MPI call\n");
    }
    /* Without main, the stub stops before event 0 (DRDB_REPLAY_STOP). */
    if (c->main_sym > 0)
        send_setup(k, "-break-insert -t main");
    else
        send_cli(k, "set environment " DRDB_ENV_REPLAY_STOP "=0");
    send_setup(k, "-break-insert -f " DRDB_SYM_DIVERGENCE_HOOK);
    /* goto: the stub calls drdb_stop_hook() only at drdb_stop_event. */
    send_setup(k, "-break-insert -f " DRDB_SYM_STOP_HOOK);
    /* with checkpoints, the rank stops before it exits (con-ckpt.c) */
    if (c->ckpt_every > 0 || c->ckpt_interval > 0)
        send_cli(k, "catch syscall exit_group");
    if (lg->flags & LAUNCH_GDB_MPROTECT) {
        send_cli(k, "handle SIGSEGV nostop noprint pass");
        send_setup(k, "-break-insert -f " DRDB_SYM_CKPT_SEGV_HOOK);
    }
    run_program(c, k, lg, plain);
}

/* GDB's environment: ours, with libdrdb-gdb-xstate.so preloaded (mi/
 * gdb-xstate.c: GDB 13's register writes on CPUs with AMX). The program
 * does not inherit it: setup_rank sets its LD_PRELOAD. NULL (our own
 * environment) when the library is not found. Built once a session. */
static char *const *gdb_env(struct con *c, const char *lib)
{
    extern char **environ;
    if (c->gdb_env || !lib[0])
        return c->gdb_env;
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    const char *old = getenv("LD_PRELOAD");
    size_t len = strlen("LD_PRELOAD=") + strlen(lib) + 2 +
                 (old ? strlen(old) : 0);
    char *pre = env ? malloc(len) : NULL;
    if (!pre) {
        free(env);
        return NULL;
    }
    snprintf(pre, len, "LD_PRELOAD=%s%s%s", lib, old && *old ? ":" : "",
             old && *old ? old : "");
    size_t k = 0;
    env[k++] = pre;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
            env[k++] = environ[i];
    env[k] = NULL;
    c->gdb_env = env;
    return env;
}

/* ---- the session's action points in a rank's GDB ------------------------ */

const char *con_bpt_verb(const struct con_bpt *b)
{
    switch (b->watch) {
    case CON_BPT_WATCH:
        return "watch";
    case CON_BPT_RWATCH:
        return "rwatch";
    case CON_BPT_AWATCH:
        return "awatch";
    case CON_BPT_HBREAK:
        return b->temp ? "thbreak" : "hbreak";
    default:
        return b->temp ? "tbreak" : "break";
    }
}

/* CLI on rank R, GDB's words (what it printed, then its error) into *TEXT
 * (malloc'd, when TEXT): 0, or -1 when GDB refused it. */
int con_cli_sync(struct con *c, int r, const char *cli, char **text)
{
    struct con_rank *k = c->ranks[r];
    struct mi_reply rep;
    char *mi = con_mi_console(cli);
    if (text)
        *text = NULL;
    if (!mi || !k->gdb) {
        free(mi);
        if (text)
            *text = strdup(k->gdb ? "out of memory" : "its GDB is gone");
        return -1;
    }
    int st = mi_gdb_exec_sync(k->gdb, mi, &rep,
                              c->timeout_ms > 0 ? c->timeout_ms : 30000);
    free(mi);
    size_t len = rep.console_len;
    while (len && rep.console[len - 1] == '\n')
        len--;
    if (text && st == 0)
        *text = strndup(rep.console ? rep.console : "", len);
    else if (text)
        asprintf(text, "%.*s%s%s", (int)len, rep.console ? rep.console : "",
                 len ? "\n" : "",
                 rep.message ? rep.message : mi_strerror(st));
    mi_reply_release(&rep);
    return st == 0 ? 0 : -1;
}

int con_bpt_insert(struct con *c, struct con_bpt *b, int r, char **text)
{
    char cli[1200], *said = NULL;
    if (text)
        *text = NULL;
    b->gdbno[r] = 0;
    /* GDB's own command: its words, its checks (a place GDB does not know
     * is its error: drdb sets breakpoint pending off) */
    snprintf(cli, sizeof cli, "%s %s%s%s", con_bpt_verb(b), b->loc,
             b->cond[0] ? " if " : "", b->cond);
    if (con_cli_sync(c, r, cli, &said) < 0) {
        if (text)
            *text = said;
        else
            free(said);
        return -1;
    }
    int ok;
    long long no = con_eval_int(c, r, "$bpnum", &ok);
    b->gdbno[r] = ok && no > 0 ? (int)no : 0;
    if (text && said)
        *text = con_renumber(c, r, said);
    free(said);
    /* what the session's breakpoint has on top of it */
    if (b->gdbno[r] && !b->enabled) {
        snprintf(cli, sizeof cli, "disable %d", b->gdbno[r]);
        con_cli_sync(c, r, cli, NULL);
    }
    if (b->gdbno[r] && b->ignore > 0) {
        snprintf(cli, sizeof cli, "ignore %d %d", b->gdbno[r], b->ignore);
        con_cli_sync(c, r, cli, NULL);
    }
    if (b->gdbno[r] && b->commands)
        con_bpt_commands(c, b, r);
    return 0;
}

int con_bpt_commands(struct con *c, struct con_bpt *b, int r)
{
    struct mi_cmd mc;
    struct mi_reply rep;
    char no[16];
    int rc = -1;
    snprintf(no, sizeof no, "%d", b->gdbno[r]);
    mi_cmd_init(&mc);
    mi_cmd_op(&mc, "-break-commands");
    mi_cmd_arg(&mc, no);
    for (const char *l = b->commands ? b->commands : ""; *l;) {
        size_t n = strcspn(l, "\n");
        char *line = strndup(l, n);
        if (line)
            mi_cmd_arg(&mc, line);
        free(line);
        l += n + (l[n] == '\n');
    }
    if (mi_cmd_str(&mc) && c->ranks[r]->gdb &&
        mi_gdb_exec_sync(c->ranks[r]->gdb, mi_cmd_str(&mc), &rep,
                         c->timeout_ms > 0 ? c->timeout_ms : 30000) == 0)
        rc = 0;
    if (mi_cmd_str(&mc))
        mi_reply_release(&rep);
    mi_cmd_release(&mc);
    return rc;
}

void con_bpt_apply(struct con *c, int r, char **note)
{
    size_t len = 0;
    FILE *f = open_memstream(note, &len);
    for (int i = 0; i < c->nbpts; i++) {
        struct con_bpt *b = &c->bpts[i];
        char *err = NULL;
        if (!rs_has(&b->set, r) && !b->all)
            continue;
        rs_add(&b->set, r);
        if (con_bpt_insert(c, b, r, &err) < 0) {
            int watch = b->watch && b->watch != CON_BPT_HBREAK, id = b->id;
            if (watch && con_bpt_drop(c, b, r))
                i--; /* (B went: the next is at I) */
            if (f)
                fprintf(f, watch ? "Watchpoint %d deleted: the new process "
                        "cannot watch it from main: %s\n"
                        : "Breakpoint %d could not be set again: %s\n", id,
                        err ? err : "?");
        }
        free(err);
    }
    if (f)
        fclose(f);
    while (len && (*note)[len - 1] == '\n')
        (*note)[--len] = '\0';
    if (!len) {
        free(*note);
        *note = NULL;
    }
    for (int i = 0; i < c->ndisps; i++)
        if (c->disps[i].all)
            rs_add(&c->disps[i].set, r);
}

int con_rank_abnormal(const struct con_rank *k)
{
    switch (k->state) {
    case CON_EXITED:
        return k->exit_signal || k->exit_code;
    case CON_DIVERGED:
    case CON_LOG_END:
    case CON_LOST:
        return 1;
    default:
        return 0;
    }
}

/* A rank being started (start_ranks): what its host made ready, its
 * SETUP's ticket and its GDB's START there (remote), whether a step
 * failed. */
struct starting {
    struct con_rank *k;
    struct launch_gdb lg;
    unsigned ticket;
    struct remote_proc *p;
    int bad;
};

/* Local rank K's GDB started with what its replay needs made ready here
 * into LG: 0, or -1 (said). */
static int start_local(struct con *c, struct con_rank *k,
                       struct launch_gdb *lg)
{
    char err[4400], msg[256];
    if (launch_gdb_prepare(lg, c->dir, k->rank, c->in_place, err,
                           sizeof err) < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        return -1;
    }
    struct mi_gdb_options opt = {0};
    opt.on_async = con_on_async;
    opt.on_stream = con_on_stream;
    opt.ud = k;
    opt.envp = gdb_env(c, lg->xstate);
    opt.nofile = fe_nofile_raise(); /* the limit drdb was given */
    if (mi_gdb_start(&k->gdb, &opt, msg, sizeof msg) < 0) {
        fprintf(stderr, "drdb: rank %d: cannot start gdb: %s\n", k->rank,
                msg);
        k->gdb = NULL;
        return -1;
    }
    return 0;
}

/* The GDBs of the N ranks of V started, here or on their hosts
 * (con-host.c), and set up to run to main (each in NOW). Each step is
 * taken for all of them before the next, so that a host gets every
 * rank's SETUP, then every START, without waiting in between: its
 * agent's answers come back to back and its GDBs start together, as
 * local ones do, instead of one round trip after the other per rank.
 * The ranks started are counted in *STARTED (of TODO), the others in
 * *FAILED. */
static void start_ranks(struct con *c, struct starting *v, int n,
                        struct rankset *now, int todo, int *started,
                        int *failed)
{
    for (int i = 0; i < n; i++) {
        launch_gdb_init(&v[i].lg);
        v[i].p = NULL;
        v[i].bad = v[i].k->host >= 0 &&
                   con_host_setup(c, v[i].k, &v[i].ticket) < 0;
    }
    for (int i = 0; i < n; i++)
        if (!v[i].bad && v[i].k->host >= 0)
            v[i].bad = con_host_prepared(c, v[i].k, v[i].ticket,
                                         &v[i].lg) < 0;
    for (int i = 0; i < n; i++)
        if (!v[i].bad)
            v[i].bad = v[i].k->host >= 0
                           ? con_host_launch(c, v[i].k, &v[i].lg, &v[i].p)
                           : start_local(c, v[i].k, &v[i].lg);
    for (int i = 0; i < n; i++) {
        struct con_rank *k = v[i].k;
        if (!v[i].bad && k->host >= 0)
            v[i].bad = con_host_started(c, k, v[i].p) < 0;
        if (v[i].bad) {
            (*failed)++;
            launch_gdb_release(&v[i].lg);
            continue;
        }
        k->state = CON_STARTING;
        k->hung = k->killed = k->exit_code = k->exit_signal = 0;
        k->end_checked = k->tbpt_hit = k->at_event = k->in_stub = 0;
        k->last_event = -1;
        k->reason[0] = k->where[0] = '\0';
        k->outlen = 0;
        /* what GDB said for the last command was the old process's */
        k->stop.len = 0;
        k->stop.capture = k->stop.numbered = 0;
        setup_rank(c, k, &v[i].lg);
        launch_gdb_release(&v[i].lg);
        rs_add(now, k->rank);
        (*started)++;
        if (todo >= 16 && (*started % 16 == 0 || *started == todo))
            fprintf(stderr, "drdb: started %d of %d ranks\n", *started,
                    todo);
    }
}

/* After Ctrl-C stopped con_replay: the ranks of SET it did not start (not
 * in NOW, with no GDB) not started, each starting when a command needs
 * it, said once with the way to start them now. -1 when there are some. */
static int not_started(struct con *c, const struct rankset *set,
                       const struct rankset *now)
{
    struct rankset left;
    char buf[256];
    if (rs_init(&left, c->nranks) < 0)
        return -1;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && !rs_has(now, r) && !c->ranks[r]->gdb &&
            (c->ranks[r]->state == CON_OFF ||
             c->ranks[r]->state == CON_DEFERRED))
            rs_add(&left, r);
    con_defer(c, &left);
    int n = rs_count(&left);
    if (n)
        fprintf(stderr, "drdb: interrupted: %s %s not started (%d; each "
                "starts when a command needs it, 'replay @%s' now)\n",
                n > 1 ? "ranks" : "rank", rs_format(&left, buf, sizeof buf),
                n, buf);
    rs_release(&left);
    return n ? -1 : 0;
}

/* Ranks started together (a host's agent gets their steps back to
 * back): Ctrl-C is seen between two chunks. */
#define START_CHUNK 32

int con_replay(struct con *c, const struct rankset *set)
{
    int todo = 0, started = 0, failed = 0;
    int64_t t0 = mi_now_ms();
    struct rankset now;
    if (rs_init(&now, c->nranks) < 0)
        return -1;
    for (int r = 0; r < c->nranks; r++) {
        /* A lost rank comes back: its GDB (if any) is ended first. */
        if (rs_has(set, r) && c->ranks[r]->state == CON_LOST) {
            if (c->ranks[r]->gdb)
                mi_gdb_free(c->ranks[r]->gdb);
            c->ranks[r]->gdb = NULL;
            c->ranks[r]->state = CON_OFF;
        }
        if (rs_has(set, r) && !c->ranks[r]->gdb)
            todo++;
    }
    struct starting *v = todo ? calloc((size_t)todo, sizeof *v) : NULL;
    if (todo && !v) {
        rs_release(&now);
        fprintf(stderr, "drdb: out of memory\n");
        return -1;
    }
    int n = 0, i = 0;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && !c->ranks[r]->gdb &&
            (v[n].k = con_rank_own(c, r)))
            n++;
    failed += todo - n; /* (out of memory: said) */
    /* The first rank alone first: its GDB fills the index cache that the
     * others' then use. */
    if (todo > 4) {
        start_ranks(c, &v[i++], 1, &now, todo, &started, &failed);
        if (started)
            con_wait(c, &now, 1);
    }
    /* The rest, START_CHUNK at a time: Ctrl-C meanwhile starts no more
     * (those started go on to main); a chunk none of whose GDBs started
     * (no gdb, no processes left) ends it. */
    while (i < n && !c->interrupted) {
        int m = n - i < START_CHUNK ? n - i : START_CHUNK, was = failed;
        start_ranks(c, &v[i], m, &now, todo, &started, &failed);
        i += m;
        if (con_sigint) {
            con_sigint = 0;
            c->interrupted = 1;
        }
        if (failed - was == m && i < n) { /* a whole chunk: no more */
            fprintf(stderr, "drdb: no GDB of the last %d ranks started: "
                    "the other %d are not started\n", m, n - i);
            failed += n - i;
            break;
        }
    }
    free(v);
    if (rs_count(&now)) {
        if (todo >= 16)
            fprintf(stderr, "drdb: running %d ranks to main\n",
                    rs_count(&now));
        if (con_wait(c, &now, 1) < 0)
            fprintf(stderr, "drdb: some ranks did not reach main in time\n");
        if (todo >= 16 || c->timing)
            fprintf(stderr, "drdb: %d rank%s started in %.2f s\n",
                    rs_count(&now), rs_count(&now) > 1 ? "s" : "",
                    (double)(mi_now_ms() - t0) / 1000);
    }
    /* The session's action points, in each new GDB (the one place they
     * are given to a rank: a restart, a re-run, a rank started later). */
    struct con_answer *notes = calloc((size_t)c->nranks + 1, sizeof *notes);
    int nn = 0;
    for (int r = 0; notes && r < c->nranks; r++)
        if (rs_has(&now, r) && c->ranks[r]->state == CON_STOPPED) {
            notes[nn].rank = r;
            con_bpt_apply(c, r, &notes[nn].text);
            nn += notes[nn].text != NULL;
        }
    if (nn)
        con_print_merged(c, notes, nn);
    for (int j = 0; j < nn; j++)
        free(notes[j].text);
    free(notes);
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (!rs_has(&now, r) || k->state == CON_STOPPED)
            continue;
        fprintf(stderr, "drdb: rank %d did not reach main: %s%s%s\n", r,
                con_state_name(k->state), k->reason[0] ? ": " : "",
                k->reason);
        failed++;
    }
    /* Ctrl-C: the ranks of SET not started stay in the session, not
     * started (a restart had ended their GDBs: never left out unsaid). */
    if (c->interrupted && not_started(c, set, &now) < 0)
        failed++;
    rs_release(&now);
    return failed ? -1 : 0;
}

void con_defer(struct con *c, const struct rankset *set)
{
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && !c->ranks[r]->gdb &&
            c->ranks[r]->state == CON_OFF && con_rank_own(c, r)) {
            c->ranks[r]->state = CON_DEFERRED;
            c->ranks[r]->killed = 0;
            snprintf(c->ranks[r]->reason, sizeof c->ranks[r]->reason,
                     "its GDB starts when a command needs it");
        }
}

int con_start_deferred(struct con *c, const struct rankset *set)
{
    struct rankset s;
    char buf[256];
    if (rs_init(&s, c->nranks) < 0)
        return -1;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && c->ranks[r]->state == CON_DEFERRED)
            rs_add(&s, r);
    int rc = 0;
    if (rs_count(&s)) {
        fprintf(stderr, "drdb: starting %s %s (to main)\n",
                rs_count(&s) > 1 ? "ranks" : "rank",
                rs_format(&s, buf, sizeof buf));
        /* (con_replay says which ranks Ctrl-C left not started) */
        rc = con_replay(c, &s);
        if (c->interrupted)
            rc = -1;
    }
    rs_release(&s);
    return rc;
}

void con_drop(struct con *c, const struct rankset *set)
{
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (rs_has(set, r) && !k->gdb && k->state == CON_DEFERRED) {
            k->state = CON_OFF;
            k->reason[0] = '\0';
        }
        if (!rs_has(set, r) || !k->gdb)
            continue;
        mi_gdb_free(k->gdb);
        k->gdb = NULL;
        con_ckpt_forget(k);
        k->state = CON_OFF;
        k->where[0] = k->reason[0] = '\0';
        /* Its GDB numbers went with its GDB: none may name a breakpoint
         * of the next one. */
        for (int i = 0; i < c->nbpts; i++)
            c->bpts[i].gdbno[r] = 0;
    }
}

int con_rank_ensure(struct con *c, int r)
{
    struct con_rank *k = c->ranks[r];
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
