/*
 * A kept session's rendezvous (agent.h): the user's socket directory, the
 * socket a kept agent listens on, the handing over of a connection's
 * descriptors to it (`drdb agent --attach`), and the list of sessions.
 *
 * A connection is handed over whole: the process ssh started (`drdb agent
 * --attach ID`, or the parent of `drdb agent --keep S`) passes its
 * standard input, output and error to the kept agent (SCM_RIGHTS), which
 * then reads and writes them itself: nothing is copied on the way. The
 * process stays, so that the ssh session lasts, until the agent is done
 * with the connection (it writes 'd' and closes, or it ends).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "life.h"

int agent_id_ok(const char *id)
{
    size_t n = 0;
    for (; id && id[n]; n++)
        if (id[n] < '0' || id[n] > '9')
            return 0;
    return n >= 1 && n <= 10;
}

/* Makes DIR (mode 0700) when missing: 0, or -1 with errno. */
static int make_dir(const char *dir)
{
    return mkdir(dir, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

/* The user's cache directory, "$XDG_CACHE_HOME/drdb" or "$HOME/.cache/
 * drdb" (HOME from the password file when unset), its parents made when
 * MAKE: 0, or -1 with ERR. Never a shared /tmp, where another user could
 * take a predictable name first (the victim cannot remove it there). */
static int cache_dir(char *dir, size_t len, int make, char *err,
                     size_t errlen)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char parent[4096];
    if (x && *x == '/')
        snprintf(parent, sizeof parent, "%s", x);
    else {
        if (!home || *home != '/') {
            const struct passwd *pw = getpwuid(getuid());
            home = pw ? pw->pw_dir : NULL;
        }
        if (!home || *home != '/') {
            snprintf(err, errlen, "no private directory for kept sessions: "
                     "set XDG_RUNTIME_DIR (or HOME) to a directory of yours");
            return -1;
        }
        snprintf(parent, sizeof parent, "%.4000s/.cache", home);
    }
    snprintf(dir, len, "%.4000s/drdb", parent);
    if (make && (make_dir(parent) < 0 || make_dir(dir) < 0)) {
        snprintf(err, errlen, "cannot make '%s': %s (set XDG_RUNTIME_DIR or "
                 "XDG_CACHE_HOME to a directory of yours)", dir,
                 strerror(errno));
        return -1;
    }
    return 0;
}

int agent_keep_dir(char *dir, size_t len, int make, char *err,
                   size_t errlen)
{
    const char *x = getenv("XDG_RUNTIME_DIR"), *fix;
    if (x && *x == '/') {
        snprintf(dir, len, "%s/drdb-agent", x);
        fix = "set XDG_RUNTIME_DIR to another directory of yours";
    } else {
        /* A home shared by the nodes of a cluster: one directory per host,
         * so that a host never takes another's sockets for dead ones. */
        char cache[4096], host[256];
        if (cache_dir(cache, sizeof cache, make, err, errlen) < 0)
            return -1;
        if (gethostname(host, sizeof host) < 0)
            snprintf(host, sizeof host, "localhost");
        host[sizeof host - 1] = '\0';
        snprintf(dir, len, "%.3800s/agent-%s", cache, host);
        fix = "set XDG_RUNTIME_DIR to a directory of yours";
    }
    if (!make && access(dir, F_OK) < 0 && errno == ENOENT)
        return 1;
    if (make && make_dir(dir) < 0) {
        snprintf(err, errlen, "cannot make '%s': %s (%s)", dir,
                 strerror(errno), fix);
        return -1;
    }
    /* Whoever made it: a directory (not a link to one), ours, 0700. */
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        snprintf(err, errlen, "'%s' is not a directory of its own (%s): "
                 "remove it or %s", dir, strerror(errno), fix);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    if (st.st_uid != getuid() || (st.st_mode & 077)) {
        snprintf(err, errlen, "'%s' belongs to uid %u with mode %03o: a "
                 "session directory must be yours with mode 700; remove "
                 "it or %s", dir, (unsigned)st.st_uid,
                 (unsigned)(st.st_mode & 0777), fix);
        return -1;
    }
    return 0;
}

static int sock_path(struct sockaddr_un *a, const char *dir, const char *id)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    return snprintf(a->sun_path, sizeof a->sun_path, "%s/%s.sock", dir, id) <
                   (int)sizeof a->sun_path
               ? 0
               : -1;
}

int agent_keep_listen(const char *id, char *path, size_t len, char *err,
                      size_t errlen)
{
    char dir[4096];
    struct sockaddr_un a;
    if (agent_keep_dir(dir, sizeof dir, 1, err, errlen) < 0)
        return -1;
    if (sock_path(&a, dir, id) < 0) {
        snprintf(err, errlen, "'%s' is too long for a socket's path: set "
                 "XDG_RUNTIME_DIR to a shorter directory", dir);
        return -1;
    }
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) {
        snprintf(err, errlen, "cannot make a socket: %s", strerror(errno));
        return -1;
    }
    unlink(a.sun_path); /* a socket left by an agent of this pid, killed */
    mode_t old = umask(077);
    int rc = bind(s, (struct sockaddr *)&a, sizeof a);
    umask(old);
    if (rc < 0 || chmod(a.sun_path, 0600) < 0 || listen(s, 4) < 0) {
        snprintf(err, errlen, "cannot listen on '%s': %s", a.sun_path,
                 strerror(errno));
        close(s);
        return -1;
    }
    snprintf(path, len, "%s", a.sun_path);
    return s;
}

int agent_peer_ok(int sock, char *err, size_t errlen)
{
    struct ucred cr;
    socklen_t n = sizeof cr;
    if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cr, &n) < 0) {
        snprintf(err, errlen, "cannot tell who connected: %s",
                 strerror(errno));
        return -1;
    }
    if (cr.uid != getuid()) {
        snprintf(err, errlen, "refused a connection of uid %u (pid %d): a "
                 "session is its user's only", (unsigned)cr.uid, (int)cr.pid);
        return -1;
    }
    return 0;
}

int agent_keep_accept(int sock, int fd[3], char *err, size_t errlen)
{
    char byte;
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(3 * sizeof(int))];
    } u;
    struct iovec io = {&byte, 1};
    struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1,
                       .msg_control = u.buf, .msg_controllen = sizeof u.buf};
    struct timeval tv = {2, 0};
    setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (agent_peer_ok(sock, err, errlen) < 0)
        return -1;
    ssize_t n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
    struct cmsghdr *c = n == 1 ? CMSG_FIRSTHDR(&m) : NULL;
    if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
        c->cmsg_len != CMSG_LEN(3 * sizeof(int))) {
        /* Descriptors that came with a malformed message are closed. */
        if (c && c->cmsg_type == SCM_RIGHTS)
            for (size_t i = 0;
                 i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++) {
                int x;
                memcpy(&x, CMSG_DATA(c) + i * sizeof(int), sizeof x);
                close(x);
            }
        snprintf(err, errlen, "a connection that passed no standard streams");
        return -1;
    }
    memcpy(fd, CMSG_DATA(c), 3 * sizeof(int));
    return 0;
}

void agent_null_stdio(int n)
{
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0)
        return;
    for (int i = 0; i < n; i++)
        dup2(null, i);
    close(null);
}

int agent_hand_over(int sock)
{
    int fds[3] = {0, 1, 2};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof fds)];
    } u;
    char byte = 'a';
    struct iovec io = {&byte, 1};
    struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1,
                       .msg_control = u.buf, .msg_controllen = sizeof u.buf};
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof fds);
    memcpy(CMSG_DATA(c), fds, sizeof fds);
    return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

/* Waits on FD until the agent says it is done with the connection ('d':
 * kept, 0) or ends (its end of FD closes: the status of CHILD, if any). */
static int wait_done(int fd, pid_t child)
{
    char c = 0;
    ssize_t n;
    do
        n = read(fd, &c, 1);
    while (n < 0 && errno == EINTR);
    if (n == 1 && c == 'd')
        return 0;
    int st;
    if (child > 0 && waitpid(child, &st, 0) == child)
        return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    return 0;
}

int agent_keep_fork(int *done)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* The agent: a session of its own, out of the ssh session's and
         * the client's process groups (what ends those does not end it). */
        close(p[0]);
        setsid();
        *done = p[1];
        return 0;
    }
    close(p[1]);
    /* This process is what ssh started: the connection is the agent's
     * now; stay until it is done with it. */
    agent_null_stdio(2);
    signal(SIGHUP, SIG_IGN);
    exit(wait_done(p[0], pid));
}

/* The live sessions' ids in DIR (a socket whose agent is gone is removed):
 * malloc'd; N of them. */
static char **live(const char *dir, size_t *n)
{
    char **v = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char id[64];
        size_t len = strlen(e->d_name);
        if (len < 6 || len - 5 >= sizeof id ||
            strcmp(e->d_name + len - 5, ".sock"))
            continue;
        snprintf(id, sizeof id, "%.*s", (int)(len - 5), e->d_name);
        struct stat st;
        if (!agent_id_ok(id) ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
            !S_ISSOCK(st.st_mode) || st.st_uid != getuid())
            continue;
        pid_t pid = (pid_t)strtol(id, NULL, 10);
        if (kill(pid, 0) < 0 && errno == ESRCH) {
            unlinkat(dirfd(d), e->d_name, 0);
            continue;
        }
        char **w = realloc(v, (*n + 1) * sizeof *v);
        if (!w || !(w[*n] = strdup(id)))
            break;
        v = w;
        (*n)++;
    }
    if (d)
        closedir(d);
    return v;
}

int agent_sessions(struct wire_buf *out, char *err, size_t errlen)
{
    char dir[4096];
    size_t n = 0;
    int rc = agent_keep_dir(dir, sizeof dir, 0, err, errlen);
    if (rc < 0)
        return -1;
    char **v = rc ? NULL : live(dir, &n);
    wire_put_u32(out, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        wire_put_str(out, v[i]);
        free(v[i]);
    }
    free(v);
    return 0;
}

int agent_attach(const char *id)
{
    char dir[4096], err[600], one[64];
    struct sockaddr_un a;
    int rc = agent_keep_dir(dir, sizeof dir, 0, err, sizeof err);
    if (rc) {
        if (rc < 0)
            fprintf(stderr, "drdb agent: %s\n", err);
        else
            fprintf(stderr, "drdb agent: no kept session%s%s on this host "
                    "(drdb attach --list HOST lists them)\n", id ? " " : "",
                    id ? id : "");
        return 1;
    }
    if (!id) {
        size_t n;
        char **v = live(dir, &n);
        if (n == 1)
            snprintf(one, sizeof one, "%s", v[0]);
        for (size_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
        if (n != 1) {
            fprintf(stderr, "drdb agent: %s\n",
                    n ? "more than one kept session on this host: give its "
                        "id (drdb attach --list HOST)"
                      : "no kept session on this host");
            return 1;
        }
        id = one;
    }
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0 || sock_path(&a, dir, id) < 0 ||
        connect(s, (struct sockaddr *)&a, sizeof a) < 0) {
        fprintf(stderr, "drdb agent: no kept session %s on this host (%s; "
                "drdb attach --list HOST lists them)\n", id,
                strerror(errno));
        return 1;
    }
    /* The agent is this user's too (SO_PEERCRED), not a socket someone
     * else put there. */
    if (agent_peer_ok(s, err, sizeof err) < 0) {
        fprintf(stderr, "drdb agent: session %s: %s\n", id, err);
        return 1;
    }
    if (agent_hand_over(s) < 0) {
        fprintf(stderr, "drdb agent: cannot reach session %s: %s\n", id,
                strerror(errno));
        return 1;
    }
    /* The connection is the agent's: keep the ssh session until it is
     * done with it. */
    agent_null_stdio(3);
    signal(SIGHUP, SIG_IGN);
    return wait_done(s, -1);
}
