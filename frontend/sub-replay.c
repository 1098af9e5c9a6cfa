/* drdb replay: run ranks of a recorded run alone, against the replay stub. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

#include "args.h"
#include "drdb-stub.h"
#include "fe.h"
#include "launch.h"
#include "life.h"
#include "log.h"
#include "rankset.h"
#include "remote.h"
#include "log-reader.h"
#include "term-escape.h"

/* Text from the run (a path, a file name) as a terminal may show it
 * (term-escape.h): escaped in a buffer of its own, for one message. */
static const char *shown(const char *s)
{
    static char *last;
    free(last);
    last = term_escape(s, 0);
    return last ? last : "?";
}

/* Runs addr2line (no shell) to turn "OBJ+0xOFF (sym)" into a source line. */
static void source_line(const char *where, char *out, size_t len)
{
    char obj[PATH_MAX], off[32];
    const char *plus = strrchr(where, '+');
    out[0] = '\0';
    if (!plus || (size_t)(plus - where) >= sizeof obj)
        return;
    memcpy(obj, where, (size_t)(plus - where));
    obj[plus - where] = '\0';
    size_t k = 0;
    for (const char *p = plus + 1; *p && *p != ' ' && k + 1 < sizeof off; p++)
        off[k++] = *p;
    off[k] = '\0';
    int fds[2];
    if (pipe(fds) < 0)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        int dn = open("/dev/null", O_WRONLY);
        if (dn >= 0)
            dup2(dn, 2);
        unsetenv("LD_PRELOAD");
        execlp("addr2line", "addr2line", "-e", obj, "-f", "-C", "-s", off,
               (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char buf[1024];
    ssize_t got = 0, r;
    while (pid > 0 && (size_t)got < sizeof buf - 1 &&
           (r = read(fds[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0)
        got += r;
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    buf[got > 0 ? got : 0] = '\0';
    /* "function\nfile:line\n" */
    char *nl = strchr(buf, '\n');
    if (!nl || strncmp(nl + 1, "??", 2) == 0)
        return;
    *nl = '\0';
    char *line = nl + 1, *end = strchr(line, '\n');
    if (end)
        *end = '\0';
    snprintf(out, len, "%.500s in %.400s()", line, buf);
}

/* After a rank stopped on its own, or died of a signal: its report (if
 * the stub wrote one), the place it names as "LABEL FILE:LINE". */
static void report(int rank, const char *path, const char *label)
{
    char buf[4096];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    unlink(path);
    if (n <= 0)
        return;
    buf[n] = '\0';
    char *caller = strstr(buf, "\n" DRDB_REPORT_CALLER);
    if (caller) {
        caller += 1 + strlen(DRDB_REPORT_CALLER);
        char *end = strchr(caller, '\n');
        if (end)
            *end = '\0';
        char src[1024];
        source_line(caller, src, sizeof src);
        /* (a program without line information: the object and offset) */
        if (src[0] || caller[0])
            fprintf(stderr, "drdb: rank %d: %s %s\n", rank, label,
                    shown(src[0] ? src : caller));
    }
}

struct job {
    int rank;
    pid_t pid;
    int status;
    char report[PATH_MAX];
    char out[PATH_MAX]; /* where its writes go ("": in place) */
};

static struct job *jobs;
static int njobs;
/* A private directory (mkdtemp, 0700) for the ranks' reports: the stub
 * creates each new there, so no other user can plant a name for it. */
static char report_dir[PATH_MAX - 64];

static void forward(int sig)
{
    for (int i = 0; i < njobs; i++)
        if (jobs[i].pid > 0)
            kill(jobs[i].pid, sig);
}

/* Set when the user gave the program and its arguments: the ranks run
 * with them (DRDB_ENV_REPLAY_OWN_ARGS). */
static int own_args;

/* Standard input: the recorded one for rank 0 (NULL), or this file ("-":
 * drdb's own). */
static const char *stdin_file;

/* Starts rank R: the run DIR's, with the stub in STUB. */
static int start(struct job *j, const char *stub, const char *dir,
                 const char *cwd, char **argv, const char *pattern,
                 int nranks)
{
    struct launch_env env;
    snprintf(j->report, sizeof j->report, "%s/rank-%d.report", report_dir,
             j->rank);
    unlink(j->report);
    launch_env_init(&env);
    if (launch_env_replay(&env, stub, dir, j->rank, 1) < 0 ||
        launch_env_files(&env, dir, j->out[0] ? j->out : NULL,
                         !stdin_file) < 0 ||
        launch_env_set(&env, DRDB_ENV_REPLAY_REPORT, j->report) < 0 ||
        (own_args &&
         launch_env_set(&env, DRDB_ENV_REPLAY_OWN_ARGS, "1") < 0)) {
        launch_env_release(&env);
        return fe_error("out of memory");
    }
    /* The recorded stack layout (log-format.h), read before the fork. */
    uint32_t stack_strings, stack_nenv;
    launch_stack_recorded(dir, j->rank, &stack_strings, &stack_nenv);
    pid_t parent = getpid();
    j->pid = fork();
    if (j->pid != 0)
        launch_env_release(&env);
    if (j->pid < 0)
        return fe_error("cannot fork: %s", strerror(errno));
    if (j->pid > 0)
        return 0;
    if (life_die_with_parent(parent) < 0)
        _exit(DRDB_EXIT_SETUP);
    launch_env_apply(&env);
    if (cwd && chdir(cwd) < 0) {
        fprintf(stderr, "drdb: rank %d: cannot enter '%s': %s\n", j->rank,
                shown(cwd), strerror(errno));
        _exit(DRDB_EXIT_SETUP);
    }
    /* As mpiexec: standard input goes to the first rank only (rank 0's
     * recorded one: the stub opens it). */
    if (j != &jobs[0] || nranks > 1) {
        int dn = open("/dev/null", O_RDONLY);
        if (dn >= 0 && j != &jobs[0])
            dup2(dn, 0);
    }
    if (j == &jobs[0] && stdin_file && strcmp(stdin_file, "-") != 0) {
        int fd = open(stdin_file, O_RDONLY);
        if (fd < 0) {
            fprintf(stderr, "drdb: cannot open '%s': %s\n", stdin_file,
                    strerror(errno));
            _exit(DRDB_EXIT_SETUP);
        }
        dup2(fd, 0);
        close(fd);
    }
    if (pattern) {
        char out[PATH_MAX];
        size_t k = 0;
        for (const char *p = pattern; *p && k + 12 < sizeof out; p++) {
            if (p[0] == '%' && p[1] == 'r') {
                k += (size_t)snprintf(out + k, sizeof out - k, "%d", j->rank);
                p++;
            } else {
                out[k++] = *p;
            }
        }
        out[k] = '\0';
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) {
            fprintf(stderr, "drdb: rank %d: cannot create '%s': %s\n",
                    j->rank, out, strerror(errno));
            _exit(DRDB_EXIT_SETUP);
        }
        dup2(fd, 1);
        close(fd);
    }
    launch_pad_env(argv[0], argv, stack_strings, stack_nenv);
    /* As drdb record ran the ranks, and as GDB runs them in the console
     * (set disable-randomization on, its default). */
    int pers = personality(0xffffffff);
    if (pers != -1)
        personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
    execv(argv[0], argv);
    fprintf(stderr, "drdb: rank %d: cannot run '%s': %s\n", j->rank,
            shown(argv[0]), strerror(errno));
    _exit(127);
}

struct replay_opts {
    const char *ranks, *cwd, *pattern, *stdin_file;
    int quiet, trust, in_place;
    struct fe_run_opts run;
};

#define OFF(f) offsetof(struct replay_opts, f)
static const struct fe_opt replay_opts[] = {
    FE_STR('r', "ranks", "LIST", OFF(ranks), "the ranks, e.g. 2 or 0-3,8 "
     "(default 0; --rank R says the same); several ranks run in parallel"),
    FE_STR('R', "rank", "R", OFF(ranks), NULL),
    FE_STR('C', "cwd", "DIR", OFF(cwd), "run in DIR"),
    FE_STR('o', "outfile-pattern", "PAT", OFF(pattern), "each rank's stdout "
     "to PAT, %r is the rank"),
    FE_FLAG('q', "quiet", OFF(quiet), "no progress lines"),
    FE_FLAG(0, "trust", OFF(trust), "run the recorded program even when the "
     "run is not signed with your key (one you did not record, or changed "
     "since: drdb log sign), the run or the program is another user's or "
     "writable by others, or the program is not the recorded build"),
    FE_FLAG(0, "write-in-place", OFF(in_place), "let the program write its "
     "files where it says, over the recorded run's (by default they go to "
     "RUNDIR/replay-out/rank-R/: cwd/ for the recorded working directory's, "
     "root/PATH for others)"),
    FE_STR(0, "stdin", "FILE", OFF(stdin_file), "rank 0's standard input "
     "from FILE ('-': drdb's own); by default the recorded one"),
    FE_GROUP(OFF(run), fe_run_opt_table),
    FE_END,
};
#undef OFF

/* --host: the options the replay there gets, as given here (all but the
 * group's, which say how to reach the host). */
struct fwd {
    const struct replay_opts *o;
    char *v[2 * 16];
    char dashed[16][24];
    int n, nd;
};

static int fwd_one(const struct fe_opt *e, size_t off, void *ud)
{
    struct fwd *f = ud;
    const char *at = (const char *)f->o + off;
    if (!e->help || off >= offsetof(struct replay_opts, run) || f->nd == 16)
        return 0;
    const char *val = e->kind == FE_OPT_STR ? *(const char *const *)at : NULL;
    if (e->kind == FE_OPT_STR ? !val : !*(const int *)at)
        return 0;
    snprintf(f->dashed[f->nd], sizeof f->dashed[0], "--%s", e->name);
    f->v[f->n++] = f->dashed[f->nd++];
    if (val)
        f->v[f->n++] = (char *)val;
    return 0;
}

/* RUNDIR's ranks LIST names, increasing, into *OUT (malloc'd): how many,
 * or -1 after an error message. */
static int pick_ranks(const struct log_run *lrun, const char *dir,
                      const char *dirarg, const char *ranks, int **out)
{
    struct rankset set;
    int *list = NULL, n = 0, at;
    const char *why;
    if (rs_init(&set, lrun->world_size) < 0)
        return fe_error("out of memory"), -1;
    if (rs_parse(ranks, strlen(ranks), &set, NULL, NULL, &at, &why) < 0 ||
        !rs_count(&set) ||
        !(list = calloc((size_t)rs_count(&set), sizeof *list))) {
        fe_error("'%s' is not a list of ranks of this run (0-%d), like "
                 "'0-3,8'", ranks, lrun->world_size - 1);
        rs_release(&set);
        return -1;
    }
    for (int r = 0; r < set.n; r++)
        if (rs_has(&set, r))
            list[n++] = r;
    rs_release(&set);
    for (int i = 0; i < n; i++) {
        char p[PATH_MAX + 32];
        log_path(p, sizeof p, dir, list[i]);
        if (access(p, R_OK) != 0) {
            fe_error("rank %d was not recorded in '%s' (no %s); 'drdb log "
                     "info %s' lists the recorded ranks", list[i], dirarg,
                     strrchr(p, '/') + 1, dirarg);
            free(list);
            return -1;
        }
    }
    *out = list;
    return n;
}

/* Says once that PROG's arguments are not the recorded ones (RECORDED,
 * drdb.run's value): the user's on purpose, and the replay may diverge. */
static void say_own_args(const char *recorded, char **prog)
{
    static char now[LOG_RUN_MAX];
    char what[1024];
    int n = 0;
    while (prog[n])
        n++;
    if (log_run_args(n, prog, now, sizeof now) == 0 &&
        log_run_args_differ(recorded, now, what, sizeof what))
        fprintf(stderr, "drdb: replaying with the arguments given, not the "
                "recorded ones (%s): the replay diverges where the program "
                "does something else with them\n", shown(what));
}

/* The program and its arguments: PROG when given, else the recorded ones
 * (*SPLIT: their malloc'd array); its path made absolute. NULL after an
 * error message. */
static char **pick_program(const struct log_run *lrun, const char *dirarg,
                           char **prog, char ***split)
{
    static char exe[PATH_MAX], args[65536], abs_prog[PATH_MAX];
    char **pargv = prog;
    *split = NULL;
    if (!pargv) {
        if (!log_run_get(lrun, "exe", exe, sizeof exe) ||
            !log_run_get(lrun, "argv", args, sizeof args))
            return fe_error("'%s' does not say which program ran; give it: "
                            "drdb replay %s -- ./app ARGS", dirarg, dirarg),
                   NULL;
        if (!(pargv = *split = launch_split_argv(args)))
            return fe_error("out of memory"), NULL;
        pargv[0] = exe;
    } else {
        own_args = 1;
        if (log_run_get(lrun, "argv", args, sizeof args))
            say_own_args(args, prog);
    }
    /* A relative program path is relative to where the user is. */
    if (strchr(pargv[0], '/') && realpath(pargv[0], abs_prog))
        pargv[0] = abs_prog;
    if (access(pargv[0], X_OK) != 0) {
        fe_error("cannot run '%s': %s; give the program: drdb replay %s -- "
                 "./app ARGS", pargv[0], strerror(errno), dirarg);
        free(*split);
        return *split = NULL;
    }
    return pargv;
}

/* Where each of the N ranks writes, said on a terminal as the program
 * check (a script's merged output keeps the program's own). */
static void say_files(const struct replay_opts *o, const char *dir, int n)
{
    if (o->quiet || !isatty(2))
        ; /* the directory is documented: RUNDIR/replay-out/rank-R */
    else if (o->in_place)
        fprintf(stderr, "drdb: --write-in-place: the program writes its "
                "files where it says, over the recorded run's\n");
    else if (n == 1 || strncmp(jobs[0].out, dir, strlen(dir)) != 0)
        for (int i = 0; i < n; i++)
            fprintf(stderr, "drdb: rank %d writes its files in %s\n",
                    jobs[i].rank, jobs[i].out);
    else
        fprintf(stderr, "drdb: each rank writes its files in %s/"
                LAUNCH_OUT_DIR "/rank-R\n", dir);
}

/* Waits for the jobs started; the first non-zero exit status, or 1 when
 * one failed without one (FAILED: one did not start). */
static int wait_all(const struct replay_opts *o, int n, int failed)
{
    int left = njobs, done = 0, code = 0;
    while (left > 0) {
        int st;
        pid_t pid = wait(&st);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < njobs; i++) {
            if (jobs[i].pid != pid)
                continue;
            jobs[i].pid = 0;
            jobs[i].status = st;
            left--;
            done++;
            int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            if (rc == DRDB_EXIT_DIVERGED || rc == DRDB_EXIT_LOG_END ||
                rc == DRDB_EXIT_SETUP) {
                report(jobs[i].rank, jobs[i].report, "the call is at");
                failed = 1;
            } else if (WIFSIGNALED(st)) {
                fprintf(stderr, "drdb: rank %d: killed by signal %d (%s)\n",
                        jobs[i].rank, WTERMSIG(st), strsignal(WTERMSIG(st)));
                /* The stub's handler said which event (rpl-death.c). */
                report(jobs[i].rank, jobs[i].report, "it died at");
            }
            unlink(jobs[i].report);
            if (rc && !code)
                code = rc;
            if (n > 8 && !o->quiet && (done % 16 == 0 || left == 0))
                fprintf(stderr, "drdb: %d of %d ranks done\n", done, n);
        }
    }
    if (n > 1 && !o->quiet) {
        int bad = 0;
        for (int i = 0; i < njobs; i++)
            bad += jobs[i].status != 0;
        fprintf(stderr, "drdb: replayed %d ranks: %d exited 0, %d did "
                "not\n", njobs, njobs - bad, bad);
    }
    return code ? code : failed;
}

/* The N ranks of LIST of run DIR, PARGV each, in parallel: the exit
 * status. */
static int replay_ranks(const struct replay_opts *o, const char *dir,
                        const char *cwd, char **pargv, const int *list, int n)
{
    char stub[PATH_MAX];
    if (fe_find_stub(stub, sizeof stub) < 0)
        return fe_error("cannot find the replay stub (" DRDB_STUB_LIB " of "
                        "drdb); set " DRDB_ENV_REPLAY_LIB_DIR " to its "
                        "directory");
    if (!(jobs = calloc((size_t)n, sizeof *jobs)))
        return fe_error("out of memory");
    /* The ranks end with drdb however it ends (life.h: TERM and HUP are
     * forwarded to them below); the report directories of a drdb replay
     * killed before are removed now. */
    const char *t = life_tmpdir();
    life_install(LIFE_CRASH);
    life_sweep(t, LIFE_REPLAY_PREFIX);
    snprintf(report_dir, sizeof report_dir, "%s/" LIFE_REPLAY_PREFIX
             "-%d-XXXXXX", t, (int)getpid());
    if (!mkdtemp(report_dir))
        return fe_error("cannot create a directory in '%s': %s (TMPDIR "
                        "chooses where)", t, strerror(errno));
    life_dir_add(report_dir);
    if (n > 1 && !o->quiet)
        fprintf(stderr, "drdb: replaying %d ranks of %s\n", n, dir);
    for (int i = 0; i < n; i++) {
        jobs[i].rank = list[i];
        if (!o->in_place && launch_out_dir(dir, "rank", list[i], jobs[i].out,
                                           sizeof jobs[i].out))
            return 1;
    }
    say_files(o, dir, n);
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, forward);
    signal(SIGHUP, forward);
    int failed = 0;
    for (int i = 0; i < n; i++) {
        njobs = i + 1;
        if (start(&jobs[i], stub, dir, cwd, pargv, o->pattern, n)) {
            failed = 1;
            break;
        }
    }
    int code = wait_all(o, n, failed);
    free(jobs);
    rmdir(report_dir);
    return code;
}

/* --launcher srun without a host: the allocation's node, when it has
 * one, into HOST: 0, or the exit status (said). */
static int alloc_host(char *host, size_t len)
{
    char **nodes, err[512];
    int k = remote_alloc_hosts(&nodes, err, sizeof err);
    if (k < 0)
        return fe_error("%s", err);
    if (k > 1) {
        fe_error("the allocation has %d nodes (%s, %s%s): say which holds "
                 "the run with --host NODE or NODE:RUNDIR", k, nodes[0],
                 nodes[1], k > 2 ? ", ..." : "");
        remote_argv_free(nodes);
        return 2;
    }
    snprintf(host, len, "%s", nodes[0]);
    remote_argv_free(nodes);
    return 0;
}

static int run(int argc, char **argv)
{
    static struct replay_opts o = {.ranks = "0"};
    struct fe_pos pos;
    fe_run_opts_init(&o.run);
    /* RUNDIR, with options before or after it */
    if (fe_subcmd_parse(&fe_sub_replay, argc, argv, &o, 1, &pos) < 0)
        return 2;
    if (o.run.nparts || o.run.hosts.n)
        return fe_error("drdb replay runs the ranks of one host: --host HOST "
                        "(--also and --hosts are for console, log and "
                        "check)"), 2;
    const char *dirarg = pos.n ? pos.v[0] : NULL;
    int rest = pos.rest;
    if (!dirarg && pos.dashdash && rest < argc)
        dirarg = argv[rest++]; /* drdb replay [OPTIONS] -- RUNDIR */
    if (!dirarg)
        return fe_error("which run? for example: drdb replay --rank 1 run1"),
               2;
    if (rest < argc && strcmp(argv[rest], "--") == 0)
        rest++;
    stdin_file = o.stdin_file;
    char **prog = rest < argc ? argv + rest : NULL;

    /* HOST:RUNDIR, or --host HOST: RUNDIR is a path there (relative: to
     * the home directory there, as for scp). A directory here of that
     * name stays one ("./a:b" always does). */
    static char host[256];
    struct remote_opts ro = o.run.ro;
    const char *there = fe_split_host(dirarg, host, sizeof host);
    ro.host = o.run.host;
    if (!ro.host && there) {
        ro.host = host;
        dirarg = there;
    }
    int st;
    if (!ro.host && ro.launcher && !strcmp(ro.launcher, "srun")) {
        if ((st = alloc_host(host, sizeof host)))
            return st;
        ro.host = host;
    }
    if (ro.host) {
        struct fwd f = {.o = &o};
        fe_opts_each(replay_opts, fwd_one, &f);
        return fe_replay_host(&ro, dirarg, f.v, f.n, prog, o.trust,
                              o.stdin_file && !strcmp(o.stdin_file, "-"));
    }

    char dir[PATH_MAX], err[512], cwd[PATH_MAX], **split = NULL;
    if (!realpath(dirarg, dir))
        return fe_error("cannot open run '%s': %s", dirarg, strerror(errno));
    struct log_run lrun;
    if (log_run_open(&lrun, dir, err, sizeof err) < 0)
        return fe_error("%s", err);
    int *list = NULL, n = pick_ranks(&lrun, dir, dirarg, o.ranks, &list);
    char **pargv = n < 0 ? NULL : pick_program(&lrun, dirarg, prog, &split);
    const char *run_cwd = o.cwd;
    if (pargv && !run_cwd && log_run_get(&lrun, "cwd", cwd, sizeof cwd)) {
        if (launch_dir_ok(cwd))
            run_cwd = cwd;
        else
            fprintf(stderr, "drdb: warning: the recorded working directory "
                    "'%s' does not exist here; running in the current one "
                    "(--cwd chooses)\n", shown(cwd));
    }
    /* What will run, shown and checked before anything starts; on a
     * terminal (a script's merged output keeps the program's own). */
    st = n < 0 ? 2 : !pargv ? 1
         : launch_check(&lrun, dir, pargv[0], !split, o.trust,
                        !o.quiet && isatty(2) ? stderr : NULL, "drdb: ") < 0
             ? 2 : 0;
    log_run_release(&lrun);
    if (!st)
        st = replay_ranks(&o, dir, run_cwd, pargv, list, n);
    free(list);
    free(split);
    return st;
}

const struct fe_subcmd fe_sub_replay = {
    .name = "replay",
    .args = "[HOST:]RUNDIR [-- PROGRAM [ARGS...]]",
    .summary = "re-execute ranks of a recorded run alone, from their logs",
    .help =
        "Runs each chosen rank as its own process, with no mpiexec and no "
        "other rank:\nthe program's MPI calls are answered from the rank's "
        "log by drdb's replay\nstub (a drop-in libmpich.so.12), so the rank "
        "sees exactly what it saw when\nrecorded: received data, statuses, "
        "MPI_Wtime. The program's output is its own.\n\n"
        "By default the recorded executable runs with the recorded arguments "
        "in the\nrecorded working directory; give PROGRAM after '--' to run "
        "another path.\n",
    .opts = replay_opts,
    .more =
        "Files the rank opens to read come from the replay's own writes, "
        "then from the\nrun's captured inputs (drdb record --capture-inputs), "
        "then from where they are.\n\n"
        "Before starting, drdb shows the program that will run (path, owner, "
        "build id;\non a terminal), and, for a run you did not record and "
        "sign, everything it\nwould execute, before refusing it without "
        "--trust (docs/security.md).\n\n"
        "A call that differs from the log stops the rank with 'replay "
        "diverged' and the\nexpected and actual calls (exit status 97); a "
        "log that ends early (the\nrecorded rank was killed) stops it with "
        "status 98. The exit status is the\nfirst non-zero one of the "
        "ranks.\n\n"
        "example:\n  drdb replay --rank 2 run1\n",
    .run = run,
};
