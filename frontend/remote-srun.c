/*
 * The agent started by Slurm's srun (remote.h, launcher "srun"): one job
 * step of the allocation drdb runs in, on the named node, and what srun's
 * failures mean; the allocation's node list.
 *
 * srun executes the command itself on the node (slurmstepd's execve, no
 * shell on either side), so the argv here is fixed words and nothing is
 * quoted. The node name is the one word that reaches srun's parser
 * (--nodelist=HOST): a list, a range or a path there ('/' makes it a
 * file name) is refused, so that it names exactly one node.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "remote.h"
#include "remote-int.h"

extern char **environ;

int remote__is_srun(const struct remote_opts *o)
{
    return o->launcher && !strcmp(o->launcher, "srun");
}

/* The job drdb runs in (SLURM_JOB_ID, or the older SLURM_JOBID), or NULL. */
static const char *slurm_job(void)
{
    const char *id = getenv("SLURM_JOB_ID");
    if (!id || !*id)
        id = getenv("SLURM_JOBID");
    return id && *id ? id : NULL;
}

static const char no_job[] =
    "not inside a Slurm allocation (SLURM_JOB_ID unset): run drdb inside "
    "salloc/sbatch, or use ssh";

/* Whether HOST is one node name for srun: a host name with no list,
 * range or path character. */
static int one_node(const char *host)
{
    return remote_host_ok(host) && !strpbrk(host, ",/[]*=");
}

char **remote__srun_argv(const struct remote_opts *o, char *err,
                         size_t errlen)
{
    if (o->nssh_opts) {
        snprintf(err, errlen, "--ssh-option is for the ssh launcher; srun "
                 "takes its options from the environment (SLURM_*)");
        return NULL;
    }
    if (!slurm_job()) {
        snprintf(err, errlen, "%s", no_job);
        return NULL;
    }
    if (!one_node(o->host)) {
        snprintf(err, errlen, "'%s' is not one Slurm node name (it starts "
                 "with '-', or holds a space, a control character or one "
                 "of ,/[]*=): give one node of the allocation, as "
                 "'scontrol show hostnames' lists them", o->host);
        return NULL;
    }
    /* One task on the node, sharing the job's CPUs with its other steps
     * (--overlap), bound to none of them (the agent's GDBs and replays
     * use the node), not an MPI task, its output passed on as written
     * (--unbuffered: without it slurmstepd holds a partial line, and a
     * frame is one). */
    static const char *const head[] = {
        "srun", "--nodes=1", "--ntasks=1", "--overlap", "--quiet",
        "--unbuffered", "--kill-on-bad-exit=1", "--mpi=none",
        "--cpu-bind=none",
    };
    size_t nhead = sizeof head / sizeof *head, n = 0;
    char **v = calloc(nhead + 5, sizeof *v);
    size_t len = strlen(o->host) + sizeof "--nodelist=";
    char *nodelist = malloc(len);
    if (!v || !nodelist)
        goto oom;
    snprintf(nodelist, len, "--nodelist=%s", o->host);
    for (size_t i = 0; i < nhead; i++)
        if (!(v[n++] = strdup(head[i])))
            goto oom;
    v[n++] = nodelist;
    nodelist = NULL;
    if (!(v[n++] = strdup("--")) ||
        !(v[n++] = strdup(o->drdb ? o->drdb : "drdb")) ||
        !(v[n++] = strdup("agent")))
        goto oom;
    return v;
oom:
    free(nodelist);
    remote_argv_free(v);
    snprintf(err, errlen, "out of memory");
    return NULL;
}

/* The line of TEXT that holds NEEDLE (its end trimmed) into LINE: 1, or 0
 * when none does. */
static int line_with(const char *text, const char *needle, char *line,
                     size_t len)
{
    const char *at = strstr(text, needle);
    if (!at)
        return 0;
    const char *s = at, *e = at;
    while (s > text && s[-1] != '\n')
        s--;
    while (*e && *e != '\n' && *e != '\r')
        e++;
    snprintf(line, len, "%.*s", (int)(e - s), s);
    return 1;
}

void remote__srun_diagnose(const char *host, const char *drdb, int status,
                           const char *stderr_text, char *err,
                           size_t errlen)
{
    char line[512] = "";
    const char *job = slurm_job();
    int code = status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (!drdb)
        drdb = "drdb";
    if (!job)
        job = "?";
    if (line_with(stderr_text, "cannot run 'srun'", line, sizeof line))
        snprintf(err, errlen, "%s", line);
    else if (line_with(stderr_text, "Requested node configuration is not "
                       "available", line, sizeof line) ||
             line_with(stderr_text, "Invalid node name", line, sizeof line))
        snprintf(err, errlen, "%s is not a node of Slurm job %s (%s): give "
                 "one of its nodes ('scontrol show hostnames' lists them), "
                 "or use ssh", host, job, line);
    else if (line_with(stderr_text, "has expired", line, sizeof line) ||
             line_with(stderr_text, "Invalid job id", line, sizeof line) ||
             line_with(stderr_text, "already completing or completed", line,
                       sizeof line))
        snprintf(err, errlen, "Slurm job %s has ended (%s): run drdb inside "
                 "a running allocation (salloc/sbatch), or use ssh", job,
                 line);
    else if (line_with(stderr_text, "execve(): ", line, sizeof line) &&
             strstr(line, "No such file"))
        snprintf(err, errlen, "drdb is not installed on %s ('%s' was not "
                 "found there): install the same drdb there, or give its "
                 "path with --remote-drdb PATH", host, drdb);
    else if (line[0])
        snprintf(err, errlen, "'%s' on %s cannot be run (%s): give drdb's "
                 "path there with --remote-drdb PATH", drdb, host, line);
    else {
        remote__last_line(stderr_text, line, sizeof line);
        snprintf(err, errlen, "srun did not start the drdb agent on %s "
                 "(exit status %d)%s%s", host, code, line[0] ? ": " : "",
                 line);
    }
}

/* Runs ARGV (a fixed argv, found on PATH) to its end: its standard output
 * (malloc'd, NUL-terminated) and 0, or -1 with its last error line or the
 * reason in ERR. */
static char *capture(char *const *argv, char *err, size_t errlen)
{
    int out[2], ep[2];
    if (pipe2(out, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        return NULL;
    }
    if (pipe2(ep, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        close(out[0]);
        close(out[1]);
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    close(ep[1]);
    char *text = NULL, msg[512] = "";
    size_t len = 0, cap = 0;
    ssize_t k;
    if (rc == 0) {
        for (;;) {
            if (len + 4096 + 1 > cap) {
                char *t = realloc(text, cap = 2 * cap + 8192);
                if (!t)
                    break;
                text = t;
            }
            k = read(out[0], text + len, cap - len - 1);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                break;
            len += (size_t)k;
        }
        size_t m = 0;
        while (m + 1 < sizeof msg &&
               (k = read(ep[0], msg + m, sizeof msg - 1 - m)) > 0)
            m += (size_t)k;
        msg[m] = '\0';
    }
    close(out[0]);
    close(ep[0]);
    int st = 0;
    if (rc != 0) {
        snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror(rc));
        return NULL;
    }
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!text || !WIFEXITED(st) || WEXITSTATUS(st)) {
        char *nl = strchr(msg, '\n');
        if (nl)
            *nl = '\0';
        snprintf(err, errlen, "'%s' failed%s%s", argv[0], msg[0] ? ": " : "",
                 msg);
        free(text);
        return NULL;
    }
    text[len] = '\0';
    return text;
}

int remote_alloc_hosts(char ***out, char *err, size_t errlen)
{
    const char *list = getenv("SLURM_JOB_NODELIST");
    *out = NULL;
    if (!slurm_job()) {
        snprintf(err, errlen, "%s", no_job);
        return -1;
    }
    if (!list || !*list)
        list = getenv("SLURM_NODELIST");
    if (!list || !*list) {
        snprintf(err, errlen, "SLURM_JOB_NODELIST is unset although "
                 "SLURM_JOB_ID is set: run drdb in the shell or script "
                 "salloc/sbatch starts, or name the nodes");
        return -1;
    }
    char *argv[] = {"scontrol", "show", "hostnames", (char *)list, NULL};
    char *text = capture(argv, err, errlen);
    if (!text)
        return -1;
    int n = 0;
    for (char *p = text; *p; p++)
        n += *p == '\n';
    char **v = calloc((size_t)n + 2, sizeof *v);
    int k = 0;
    for (char *save = NULL, *w = v ? strtok_r(text, "\n", &save) : NULL; w;
         w = strtok_r(NULL, "\n", &save))
        if (*w && !(v[k++] = strdup(w))) {
            remote_argv_free(v);
            v = NULL;
            break;
        }
    free(text);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (!k) {
        free(v);
        snprintf(err, errlen, "'scontrol show hostnames %s' listed no node",
                 list);
        return -1;
    }
    *out = v;
    return k;
}
