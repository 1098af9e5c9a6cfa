/* The one launcher: a replay's environment and command, and shadows. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "drdb-stub.h"
#include "util.h"
#include "launch.h"
#include "life.h"

/* ---- environments -------------------------------------------------------- */

void launch_env_init(struct launch_env *e)
{
    e->v = NULL;
    e->n = e->cap = 0;
}

void launch_env_release(struct launch_env *e)
{
    for (size_t i = 0; i < e->n; i++)
        free(e->v[i]);
    free(e->v);
    launch_env_init(e);
}

/* The index of NAME's setting in E, or E->n. */
static size_t env_find(const struct launch_env *e, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < e->n; i++)
        if (strncmp(e->v[i], name, len) == 0 && e->v[i][len] == '=')
            return i;
    return e->n;
}

/* Takes S (malloc'd "NAME=VALUE") as NAME's setting. */
static int env_put(struct launch_env *e, const char *name, char *s)
{
    if (!s)
        return -1;
    size_t i = env_find(e, name);
    if (i < e->n) {
        free(e->v[i]);
        e->v[i] = s;
        return 0;
    }
    if (util_grow(&e->v, &e->cap, e->n + 2, sizeof *e->v) < 0) {
        free(s);
        return -1;
    }
    e->v[e->n++] = s;
    e->v[e->n] = NULL;
    return 0;
}

int launch_env_set(struct launch_env *e, const char *name, const char *value)
{
    char *s = NULL;
    if (asprintf(&s, "%s=%s", name, value) < 0)
        return -1;
    return env_put(e, name, s);
}

void launch_env_unset(struct launch_env *e, const char *name)
{
    size_t i;
    while ((i = env_find(e, name)) < e->n) {
        free(e->v[i]);
        memmove(e->v + i, e->v + i + 1, (e->n - i) * sizeof *e->v);
        e->n--;
    }
}

/* DIR, then the caller's NAME (a colon-separated list) if set. */
static int env_prepend(struct launch_env *e, const char *name, const char *dir)
{
    const char *old = getenv(name);
    char *s = NULL;
    if (asprintf(&s, "%s=%s%s%s", name, dir, old && *old ? ":" : "",
                 old && *old ? old : "") < 0)
        return -1;
    return env_put(e, name, s);
}

int launch_env_replay(struct launch_env *e, const char *stub_dir,
                      const char *dir, int rank, int keep_preload)
{
    char num[16], lib[4200];
    snprintf(num, sizeof num, "%d", rank);
    snprintf(lib, sizeof lib, "%s/" DRDB_STUB_LIB, stub_dir);
    if (launch_env_set(e, DRDB_ENV_REPLAY_DIR, dir) < 0 ||
        launch_env_set(e, DRDB_ENV_REPLAY_RANK, num) < 0 ||
        env_prepend(e, "LD_LIBRARY_PATH", stub_dir) < 0)
        return -1;
    return keep_preload ? env_prepend(e, "LD_PRELOAD", lib)
                        : launch_env_set(e, "LD_PRELOAD", lib);
}

int launch_env_ckpt(struct launch_env *e, double interval, long long every)
{
    const char *on = getenv(DRDB_ENV_CKPT);
    char num[64];
    if (launch_env_set(e, DRDB_ENV_CKPT, on ? on : "on") < 0)
        return -1;
    if (interval > 0) {
        snprintf(num, sizeof num, "%g", interval);
        if (launch_env_set(e, DRDB_ENV_CKPT_INTERVAL, num) < 0)
            return -1;
    }
    if (every > 0) {
        snprintf(num, sizeof num, "%lld", every);
        if (launch_env_set(e, DRDB_ENV_CKPT_EVERY, num) < 0)
            return -1;
    }
    return 0;
}

void launch_env_apply(const struct launch_env *e)
{
    for (size_t i = 0; i < e->n; i++) {
        char *eq = strchr(e->v[i], '=');
        if (!eq)
            continue;
        *eq = '\0';
        setenv(e->v[i], eq + 1, 1);
        *eq = '=';
    }
}

/*
 * Linux's exec (create_elf_tables) puts the strings (path, environment,
 * arguments: S bytes) 8 bytes below the top of the stack, rounds down to
 * 16, puts the platform name and 16 random bytes, then the auxiliary
 * vector and the argv and envp arrays (8 bytes per entry,
 * NULL-terminated), rounded down to 16: with randomization off, the stack
 * pointer at entry is TOP - roundup16(S + 8) - 8 * (argc + nenv) - a
 * constant, rounded. It is the same as recorded when roundup16(S' + 8) +
 * 8 * nenv' equals the recorded one: K padding variables (1 or 2, so that the difference of the counts
 * stays a multiple of 16 bytes) make up for a smaller environment. The
 * argv and envp arrays and the strings may sit elsewhere: the program's
 * stack frames do not.
 */
long long launch_pad_size(unsigned long long cur, size_t nenv_now,
                          uint32_t strings, uint32_t nenv, int *k)
{
    if (!strings)
        return -1;
    long long dn = (long long)nenv - (long long)nenv_now;
    *k = ((dn - 1) & 1) ? 2 : 1;
    /* The strings end 8 bytes below the top (a NULL pointer's room). */
    long long target =
        (((long long)strings + 8 + 15) & ~15LL) + 8 * (dn - *k) - 8;
    /* "DRDB_PAD0=" and "DRDB_PAD1=", each with its NUL */
    long long extra = target - (long long)cur - 11LL * *k;
    return extra < 0 || extra > 65536 ? -1 : extra;
}

void launch_pad_env(const char *path, char *const *argv, uint32_t strings,
                    uint32_t nenv)
{
    extern char **environ;
    size_t cur = strlen(path) + 1, n = 0;
    for (size_t i = 0; argv[i]; i++)
        cur += strlen(argv[i]) + 1;
    for (; environ && environ[n]; n++)
        cur += strlen(environ[n]) + 1;
    int k;
    long long extra = launch_pad_size(cur, n, strings, nenv, &k);
    char *val = extra >= 0 ? malloc((size_t)extra + 1) : NULL;
    if (!val)
        return; /* not known, or the environment is too large already */
    memset(val, 'x', (size_t)extra);
    val[extra] = '\0';
    setenv("DRDB_PAD0", val, 1);
    if (k == 2)
        setenv("DRDB_PAD1", "", 1);
    free(val);
}

/* ---- descriptions -------------------------------------------------------- */

void launch_gdb_init(struct launch_gdb *g)
{
    memset(g, 0, sizeof *g);
    launch_env_init(&g->env);
}

void launch_gdb_release(struct launch_gdb *g)
{
    free(g->stub);
    free(g->xstate);
    free(g->index);
    free(g->out);
    launch_env_release(&g->env);
    launch_gdb_init(g);
}

void launch_desc_init(struct launch_desc *d)
{
    memset(d, 0, sizeof *d);
    launch_env_init(&d->env);
}

void launch_desc_release(struct launch_desc *d)
{
    for (size_t i = 0; d->argv && d->argv[i]; i++)
        free(d->argv[i]);
    free(d->argv);
    free(d->cwd);
    free(d->rundir);
    free(d->program);
    launch_env_release(&d->env);
    launch_desc_init(d);
}

int launch_desc_argv(struct launch_desc *d, char *const *argv)
{
    size_t n = 0;
    while (argv[n])
        n++;
    char **v = calloc(n + 1, sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!(v[i] = strdup(argv[i]))) {
            while (i--)
                free(v[i]);
            free(v);
            return -1;
        }
    for (size_t i = 0; d->argv && d->argv[i]; i++)
        free(d->argv[i]);
    free(d->argv);
    d->argv = v;
    return 0;
}

/* ---- the command --------------------------------------------------------- */

char **launch_split_argv(char *s)
{
    size_t n = 1;
    for (char *p = s; *p; p++)
        n += *p == '\x1f';
    char **v = calloc(n + 1, sizeof *v);
    if (!v)
        return NULL;
    size_t i = 0;
    for (char *p = s;; p++) {
        if (*p == '\x1f' || !*p) {
            int end = !*p;
            *p = '\0';
            v[i++] = s;
            s = p + 1;
            if (end)
                break;
        }
    }
    return v;
}

char *launch_gdb_args(const char *args, int *plain)
{
    /* CLI "set args", not MI's -exec-arguments, which would keep quotes. */
    *plain = 1;
    for (const char *q = strchr(args, '\x1f'); q && *q; q++)
        if (*q != '\x1f' && !isalnum((unsigned char)*q) &&
            !strchr("_./:=,+-@%", *q))
            *plain = 0;
    size_t cap = 16 + 4 * strlen(args);
    char *cli = malloc(cap), *o = cli;
    if (!cli)
        return NULL;
    o += sprintf(o, "set args");
    for (const char *p = strchr(args, '\x1f'); p; p = strchr(p + 1, '\x1f')) {
        *o++ = ' ';
        if (!*plain)
            *o++ = '\'';
        for (const char *q = p + 1; *q && *q != '\x1f'; q++) {
            if (*q == '\'') {
                memcpy(o, "'\\''", 4);
                o += 4;
            } else {
                *o++ = *q;
            }
        }
        if (!*plain)
            *o++ = '\'';
    }
    *o = '\0';
    return cli;
}

int launch_dir_ok(const char *dir)
{
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- shadows ------------------------------------------------------------- */

/* The NUL-separated /proc/PID/NAME into *OUT (malloc'd): its length, or
 * -1. */
static ssize_t proc_read(pid_t pid, const char *name, char **out)
{
    char p[64];
    snprintf(p, sizeof p, "/proc/%d/%s", (int)pid, name);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    ssize_t got;
    while (buf && (got = read(fd, buf + len, cap - len)) > 0) {
        len += (size_t)got;
        if (len == cap) {
            char *nb = realloc(buf, (cap *= 2) + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
        }
    }
    close(fd);
    if (!buf)
        return -1;
    buf[len] = '\0';
    *out = buf;
    return (ssize_t)len;
}

int launch_proc_read(struct launch_proc *p, pid_t pid)
{
    char path[64], *args = NULL, *env = NULL;
    memset(p, 0, sizeof *p);
    launch_env_init(&p->env);
    snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
    ssize_t l = readlink(path, p->exe, sizeof p->exe - 1);
    p->exe[l > 0 ? l : 0] = '\0';
    snprintf(path, sizeof path, "/proc/%d/cwd", (int)pid);
    l = readlink(path, p->cwd, sizeof p->cwd - 1);
    p->cwd[l > 0 ? l : 0] = '\0';
    ssize_t na = proc_read(pid, "cmdline", &args);
    ssize_t ne = proc_read(pid, "environ", &env);
    int rc = -1;
    if (na < 0 || ne < 0 || !p->exe[0])
        goto out;
    size_t n = 0;
    for (ssize_t i = 0; i < na; i++)
        n += !args[i];
    if (!(p->argv = calloc(n + 1, sizeof *p->argv)))
        goto out;
    n = 0;
    for (ssize_t i = 0; i < na; i += (ssize_t)strlen(args + i) + 1)
        if (!(p->argv[n++] = strdup(args + i)))
            goto out;
    /* The whole environment, in its order. */
    for (ssize_t i = 0; i < ne; i += (ssize_t)strlen(env + i) + 1) {
        char *s = strdup(env + i);
        if (!s || util_grow(&p->env.v, &p->env.cap, p->env.n + 2,
                           sizeof *p->env.v) < 0) {
            free(s);
            goto out;
        }
        p->env.v[p->env.n++] = s;
        p->env.v[p->env.n] = NULL;
    }
    rc = 0;
out:
    free(args);
    free(env);
    if (rc < 0)
        launch_proc_release(p);
    return rc;
}

void launch_proc_release(struct launch_proc *p)
{
    for (size_t i = 0; p->argv && p->argv[i]; i++)
        free(p->argv[i]);
    free(p->argv);
    p->argv = NULL;
    launch_env_release(&p->env);
}

pid_t launch_shadow(const struct launch_proc *p, const char *out,
                    const char *status)
{
    static char *const noenv[] = {NULL};
    fflush(NULL);
    pid_t console = getpid();
    pid_t a = fork();
    if (a != 0) {
        if (a > 0)
            setpgid(a, a);
        return a;
    }
    /* The drain: a terminal for the shadow (so that its stdio buffers as
     * the original's does), its output to a file, then its status. Each
     * dies with its parent, even one killed with SIGKILL (life.h). */
    setpgid(0, 0);
    if (life_die_with_parent(console) < 0)
        _exit(123);
    /* Nothing of its parent's held open (an agent's connection, its
     * processes' pipes: their ends must come when the parent closes
     * them). */
    int nul = open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3 && nul >= 0; fd++)
        dup2(nul, fd);
    for (int fd = 3; fd < 65536; fd++)
        close(fd);
    pid_t drain = getpid();
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0)
        _exit(120);
    const char *sname = ptsname(m);
    pid_t b = fork();
    if (b == 0) {
        if (life_die_with_parent(drain) < 0)
            _exit(123);
        int s = open(sname, O_RDWR);
        if (s < 0)
            _exit(121);
        dup2(s, 0);
        dup2(s, 1);
        dup2(s, 2);
        for (int fd = 3; fd < 65536; fd++)
            close(fd);
        if (p->cwd[0] && chdir(p->cwd) < 0)
            _exit(122);
        personality(ADDR_NO_RANDOMIZE);
        setpriority(PRIO_PROCESS, 0, 10);
        execve(p->exe, p->argv, p->env.v ? p->env.v : noenv);
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

int launch_shadow_poll(pid_t pid, const char *status, int *st)
{
    int w;
    if (pid <= 0 || waitpid(pid, &w, WNOHANG) != pid)
        return 0;
    *st = launch_shadow_status(status, w);
    return 1;
}

int launch_shadow_status(const char *status, int w)
{
    /* the drain process wrote the shadow's own status */
    char buf[32] = "";
    FILE *f = fopen(status, "r");
    if (f && fgets(buf, sizeof buf, f))
        w = atoi(buf);
    if (f)
        fclose(f);
    return w;
}

void launch_shadow_stop(pid_t pid)
{
    if (pid > 0) {
        kill(-pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
}

void launch_clear_dir(const char *dir)
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
