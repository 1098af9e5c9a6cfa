/* drdb replay: run ranks of a recorded run alone, against the replay stub. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
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

/* After a rank stopped on its own: its report (if the stub wrote one). */
static void report(int rank, const char *path)
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
        if (src[0])
            fprintf(stderr, "drdb: rank %d: the call is at %s\n", rank, src);
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
        launch_env_set(&env, DRDB_ENV_REPLAY_REPORT, j->report) < 0) {
        launch_env_release(&env);
        return fe_error("out of memory");
    }
    /* The recorded stack layout (log-format.h), read before the fork. */
    struct log_file_header h;
    char lpath[PATH_MAX];
    log_path(lpath, sizeof lpath, dir, j->rank);
    int lfd = open(lpath, O_RDONLY | O_CLOEXEC);
    if (lfd < 0 || pread(lfd, &h, sizeof h, 0) != (ssize_t)sizeof h)
        memset(&h, 0, sizeof h);
    if (lfd >= 0)
        close(lfd);
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
                cwd, strerror(errno));
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
    launch_pad_env(argv[0], argv, h.stack_strings, h.stack_nenv);
    /* As drdb record ran the ranks, and as GDB runs them in the console
     * (set disable-randomization on, its default). */
    int pers = personality(0xffffffff);
    if (pers != -1)
        personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
    execv(argv[0], argv);
    fprintf(stderr, "drdb: rank %d: cannot run '%s': %s\n", j->rank, argv[0],
            strerror(errno));
    _exit(127);
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"rank", required_argument, NULL, 'r'},
        {"ranks", required_argument, NULL, 'R'},
        {"cwd", required_argument, NULL, 'C'},
        {"outfile-pattern", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},
        {"trust", no_argument, NULL, 'T'},
        {"write-in-place", no_argument, NULL, 'W'},
        {"stdin", required_argument, NULL, 'S'},
        {"host", required_argument, NULL, 'H'},
        {"ssh-option", required_argument, NULL, 'O'},
        {"remote-drdb", required_argument, NULL, 'D'},
        {"launcher", required_argument, NULL, 'L'},
        {NULL, 0, NULL, 0},
    };
    /* For --host: the options the replay there gets, as given here. */
    static char *fwd[2 * 16], dashed[16][24];
    const char *ssh_opts[64];
    struct remote_opts ro = {.ssh_opts = ssh_opts};
    int nfwd = 0, nd = 0;
    const char *ranks = "0", *cwd_opt = NULL, *pattern = NULL;
    int quiet = 0, trust = 0, in_place = 0, c;
    /* RUNDIR, with options before or after it */
    const char *dirarg = NULL;
    int npos = 0;
    while ((c = fe_getopt(argc, argv, "+r:R:C:o:q", opts, NULL, &dirarg, 1,
                          &npos)) != -1) {
        /* Forwarded as --NAME [ARG]: the option's own table entry. */
        for (int i = 0; !strchr("HODL", c) && opts[i].name; i++)
            if (opts[i].val == c && nd < 16) {
                snprintf(dashed[nd], sizeof dashed[0], "--%s", opts[i].name);
                fwd[nfwd++] = dashed[nd++];
                if (optarg)
                    fwd[nfwd++] = optarg;
                break;
            }
        switch (c) {
        case 'H':
            ro.host = optarg;
            break;
        case 'O':
            if (ro.nssh_opts == (int)(sizeof ssh_opts / sizeof *ssh_opts))
                return fe_error("too many --ssh-option");
            ssh_opts[ro.nssh_opts++] = optarg;
            break;
        case 'D':
            ro.drdb = optarg;
            break;
        case 'L':
            if (strcmp(optarg, "ssh") && strcmp(optarg, "srun")) {
                fe_error("--launcher takes ssh or srun, not '%s'", optarg);
                return 2;
            }
            ro.launcher = optarg;
            break;
        case 'r':
        case 'R':
            ranks = optarg;
            break;
        case 'C':
            cwd_opt = optarg;
            break;
        case 'o':
            pattern = optarg;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'T':
            trust = 1;
            break;
        case 'W':
            in_place = 1;
            break;
        case 'S':
            stdin_file = optarg;
            break;
        default:
            fe_subcmd_usage(&fe_sub_replay, stderr);
            return 2;
        }
    }
    if (!npos && optind + 1 < argc && !strcmp(argv[optind], "--")) {
        dirarg = argv[optind + 1]; /* drdb replay [OPTIONS] -- RUNDIR */
        optind += 2;
        npos = 1;
    }
    if (!npos) {
        fe_error("which run? for example: drdb replay --rank 1 run1");
        return 2;
    }
    if (optind < argc && strcmp(argv[optind], "--") == 0)
        optind++;

    /* HOST:RUNDIR, or --host HOST: RUNDIR is a path there (relative: to
     * the home directory there, as for scp). A directory here of that
     * name stays one ("./a:b" always does). */
    static char host[256];
    const char *there = ro.host ? NULL
                                : fe_split_host(dirarg, host, sizeof host);
    if (there) {
        ro.host = host;
        dirarg = there;
    }
    /* --launcher srun alone: the allocation's node, when it has one. */
    char **nodes = NULL;
    if (!ro.host && ro.launcher && !strcmp(ro.launcher, "srun")) {
        char err[512];
        int k = remote_alloc_hosts(&nodes, err, sizeof err);
        if (k < 0)
            return fe_error("%s", err);
        if (k > 1) {
            fe_error("the allocation has %d nodes (%s, %s%s): say which "
                     "holds the run with --host NODE or NODE:RUNDIR", k,
                     nodes[0], nodes[1], k > 2 ? ", ..." : "");
            remote_argv_free(nodes);
            return 2;
        }
        snprintf(host, sizeof host, "%s", nodes[0]);
        remote_argv_free(nodes);
        ro.host = host;
    }
    if (ro.host)
        return fe_replay_host(&ro, dirarg, fwd, nfwd,
                              optind < argc ? argv + optind : NULL, trust,
                              stdin_file && !strcmp(stdin_file, "-"));

    char dir[PATH_MAX], err[512];
    if (!realpath(dirarg, dir))
        return fe_error("cannot open run '%s': %s", dirarg, strerror(errno));
    struct log_run lrun;
    if (log_run_open(&lrun, dir, err, sizeof err) < 0)
        return fe_error("%s", err);
    /* The ranks, in increasing order. */
    struct rankset set;
    int *list = NULL, n = 0, at;
    const char *why;
    if (rs_init(&set, lrun.world_size) < 0)
        return fe_error("out of memory");
    if (rs_parse(ranks, strlen(ranks), &set, NULL, NULL, &at, &why) < 0 ||
        !rs_count(&set) ||
        !(list = calloc((size_t)rs_count(&set), sizeof *list))) {
        fe_error("'%s' is not a list of ranks of this run (0-%d), like "
                 "'0-3,8'", ranks, lrun.world_size - 1);
        rs_release(&set);
        log_run_release(&lrun);
        return 2;
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
            log_run_release(&lrun);
            free(list);
            return 2;
        }
    }

    /* The program: as recorded, or the one given after "--". */
    static char exe[PATH_MAX], args[65536], cwd[PATH_MAX];
    char **pargv, **split = NULL;
    if (optind < argc) {
        pargv = argv + optind;
    } else {
        if (!log_run_get(&lrun, "exe", exe, sizeof exe) ||
            !log_run_get(&lrun, "argv", args, sizeof args)) {
            log_run_release(&lrun);
            free(list);
            return fe_error("'%s' does not say which program ran; give it: "
                            "drdb replay %s -- ./app ARGS", dirarg, dirarg);
        }
        pargv = split = launch_split_argv(args);
        if (!pargv)
            return fe_error("out of memory");
        pargv[0] = exe;
    }
    const char *run_cwd = cwd_opt;
    if (!run_cwd && log_run_get(&lrun, "cwd", cwd, sizeof cwd)) {
        if (launch_dir_ok(cwd))
            run_cwd = cwd;
        else
            fprintf(stderr, "drdb: warning: the recorded working directory "
                    "'%s' does not exist here; running in the current one "
                    "(--cwd chooses)\n", cwd);
    }
    /* A relative program path is relative to where the user is. */
    static char prog[PATH_MAX];
    if (strchr(pargv[0], '/') && realpath(pargv[0], prog))
        pargv[0] = prog;
    if (access(pargv[0], X_OK) != 0) {
        log_run_release(&lrun);
        free(list);
        return fe_error("cannot run '%s': %s; give the program: drdb replay "
                        "%s -- ./app ARGS", pargv[0], strerror(errno),
                        dirarg);
    }
    /* What will run, shown and checked before anything starts. */
    /* On a terminal; a script's merged output keeps the program's own. */
    int checked = launch_check(&lrun, dir, pargv[0], !split, trust,
                               !quiet && isatty(2) ? stderr : NULL, "drdb: ");
    if (checked < 0) {
        log_run_release(&lrun);
        free(list);
        free(split);
        return 2;
    }
    log_run_release(&lrun);

    char stub[PATH_MAX];
    if (fe_find_stub(stub, sizeof stub) < 0) {
        free(list);
        return fe_error("cannot find the replay stub (" DRDB_STUB_LIB " of "
                        "drdb); set " DRDB_ENV_REPLAY_LIB_DIR " to its "
                        "directory");
    }

    jobs = calloc((size_t)n, sizeof *jobs);
    if (!jobs)
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
    if (n > 1 && !quiet)
        fprintf(stderr, "drdb: replaying %d ranks of %s\n", n, dir);
    for (int i = 0; i < n && !in_place; i++)
        if (launch_out_dir(dir, "rank", list[i], jobs[i].out, sizeof jobs[i].out))
            return 1;
    /* Said on a terminal, as the program check: a script's merged output
     * keeps the program's own. */
    if (quiet || !isatty(2))
        ; /* the directory is documented: RUNDIR/replay-out/rank-R */
    else if (in_place)
        fprintf(stderr, "drdb: --write-in-place: the program writes its "
                "files where it says, over the recorded run's\n");
    else if (n == 1 || strncmp(jobs[0].out, dir, strlen(dir)) != 0)
        for (int i = 0; i < n; i++)
            fprintf(stderr, "drdb: rank %d writes its files in %s\n",
                    list[i], jobs[i].out);
    else
        fprintf(stderr, "drdb: each rank writes its files in %s/"
                LAUNCH_OUT_DIR "/rank-R\n", dir);
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, forward);
    signal(SIGHUP, forward);
    int failed = 0, code = 0;
    for (int i = 0; i < n; i++) {
        jobs[i].rank = list[i];
        njobs = i + 1;
        if (start(&jobs[i], stub, dir, run_cwd, pargv, pattern, n)) {
            failed = 1;
            break;
        }
    }
    int left = njobs, done = 0;
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
                report(jobs[i].rank, jobs[i].report);
                failed = 1;
            } else if (WIFSIGNALED(st)) {
                fprintf(stderr, "drdb: rank %d: killed by signal %d (%s)\n",
                        jobs[i].rank, WTERMSIG(st), strsignal(WTERMSIG(st)));
            }
            unlink(jobs[i].report);
            if (rc && !code)
                code = rc;
            if (n > 8 && !quiet && (done % 16 == 0 || left == 0))
                fprintf(stderr, "drdb: %d of %d ranks done\n", done, n);
        }
    }
    if (n > 1 && !quiet) {
        int bad = 0;
        for (int i = 0; i < njobs; i++)
            bad += jobs[i].status != 0;
        fprintf(stderr, "drdb: replayed %d ranks: %d exited 0, %d did "
                "not\n", njobs, njobs - bad, bad);
    }
    free(jobs);
    free(list);
    free(split);
    rmdir(report_dir);
    return code ? code : failed;
}

const struct fe_subcmd fe_sub_replay = {
    .name = "replay",
    .args = "[--rank R | --ranks LIST] [--trust] [--write-in-place] "
            "[--stdin FILE] [--host HOST [--ssh-option OPT] "
            "[--remote-drdb PATH]] [--launcher ssh|srun] [HOST:]RUNDIR "
            "[-- PROGRAM [ARGS...]]",
    .summary = "re-execute ranks of a recorded run alone, from their logs",
    .help =
        "Runs each chosen rank as its own process, with no mpiexec and no "
        "other rank:\nthe program's MPI calls are answered from the rank's "
        "log by drdb's replay\nstub (a drop-in libmpich.so.12), so the rank "
        "sees exactly what it saw when\nrecorded: received data, statuses, "
        "MPI_Wtime. The program's output is its own.\n\n"
        "By default the recorded executable runs with the recorded arguments "
        "in the\nrecorded working directory; give PROGRAM after '--' to run "
        "another path.\n\n"
        "  -r, --rank R, --ranks LIST  the ranks, e.g. 2 or 0-3,8 (default "
        "0); several\n"
        "                              ranks run in parallel\n"
        "  -C, --cwd DIR               run in DIR\n"
        "  -o, --outfile-pattern PAT   each rank's stdout to PAT, %r is "
        "the rank\n"
        "  -q, --quiet                 no progress lines\n"
        "      --trust                 run the recorded program even when the "
        "run\n"
        "                              directory, drdb.run or the program is "
        "another\n"
        "                              user's or writable by others, or the "
        "program is\n"
        "                              not the recorded build\n"
        "      --write-in-place        let the program write its files where "
        "it says,\n"
        "                              over the recorded run's (by default "
        "they go to\n"
        "                              RUNDIR/replay-out/rank-R/: cwd/ for "
        "the recorded\n"
        "                              working directory's, root/PATH for "
        "others)\n"
        "      --stdin FILE            rank 0's standard input from FILE "
        "('-': drdb's\n"
        "                              own); by default the recorded one\n"
        "      --host HOST             replay on HOST, where RUNDIR is, "
        "through its drdb\n"
        "                              agent (HOST:RUNDIR says the same; "
        "docs/remote.md)\n"
        "      --ssh-option OPT        passes -o OPT to ssh (repeatable)\n"
        "      --remote-drdb PATH      the drdb to run on HOST (default: "
        "drdb on its PATH)\n"
        "      --launcher ssh|srun     how the agent starts: over ssh "
        "(default), or with\n"
        "                              srun as a step of the Slurm "
        "allocation drdb runs\n"
        "                              in, on node HOST (no ssh; without "
        "--host, the\n"
        "                              allocation's node when it has "
        "one)\n\n"
        "Files the rank opens to read come from the replay's own writes, "
        "then from the\nrun's captured inputs (drdb record --capture-inputs), "
        "then from where they are.\n\n"
        "Before starting, drdb shows the program that will run (path, owner, "
        "build id;\non a terminal, or when it refuses it).\n\n"
        "A call that differs from the log stops the rank with 'replay "
        "diverged' and the\nexpected and actual calls (exit status 97); a "
        "log that ends early (the\nrecorded rank was killed) stops it with "
        "status 98. The exit status is the\nfirst non-zero one of the "
        "ranks.\n\n"
        "example:\n  drdb replay --rank 2 run1\n",
    .run = run,
};
