/*
 * How drdb reaches a host (remote.h): the host name check, the one
 * quoting function, the command line of ssh, and what ssh's failures mean.
 *
 * ssh joins the words after the host into one string that the remote
 * user's shell parses: the remote command is built here from quoted
 * words only, so no path or name is ever interpreted there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "remote.h"
#include "remote-int.h"
#include "wire.h"

int remote_host_ok(const char *host)
{
    if (!host || !*host || host[0] == '-')
        return 0;
    for (const unsigned char *p = (const unsigned char *)host; *p; p++)
        if (*p <= ' ' || *p == 0x7f)
            return 0;
    return 1;
}

void remote_quote(struct wire_buf *b, const char *word)
{
    wire_buf_add(b, "'", 1);
    for (const char *p = word; *p; p++) {
        if (*p == '\'')
            wire_buf_add(b, "'\\''", 4);
        else
            wire_buf_add(b, p, 1);
    }
    wire_buf_add(b, "'", 1);
}

int remote__is_local(const char *host)
{
    return !host || !strcmp(host, "localhost");
}

char **remote_argv(const struct remote_opts *o, char *err, size_t errlen)
{
    char secs[16];
    const char *keep[] = {"--keep", secs, NULL};
    snprintf(secs, sizeof secs, "%d", o->keep_s);
    return remote__argv(o, o->keep_s > 0 ? keep : NULL, err, errlen);
}

char **remote__argv(const struct remote_opts *o, const char *const *words,
                    char *err, size_t errlen)
{
    if (o->launcher && strcmp(o->launcher, "ssh") &&
        !remote__is_srun(o)) {
        snprintf(err, errlen, "unknown launcher '%s': use ssh or srun",
                 o->launcher);
        return NULL;
    }
    if (!remote__is_local(o->host) && remote__is_srun(o)) {
        if (words) {
            snprintf(err, errlen, "a kept session (--keep, drdb attach) "
                     "is reached over ssh, not srun: use --launcher ssh");
            return NULL;
        }
        return remote__srun_argv(o, err, errlen);
    }
    size_t nw = 0;
    while (words && words[nw])
        nw++;
    size_t n = 0, cap = 8 + nw + 2 * (size_t)o->nssh_opts;
    char **v = calloc(cap, sizeof *v);
    if (!v)
        goto oom;
    if (remote__is_local(o->host)) {
        /* This drdb (or the one named), by the same code path. */
        char self[4096];
        ssize_t len = o->drdb ? (ssize_t)snprintf(self, sizeof self, "%s",
                                                  o->drdb)
                              : readlink("/proc/self/exe", self,
                                         sizeof self - 1);
        if (len <= 0) {
            snprintf(err, errlen, "cannot find this drdb (/proc/self/exe)");
            free(v);
            return NULL;
        }
        if (!o->drdb)
            self[len] = '\0';
        if (!(v[n++] = strdup(self)) || !(v[n++] = strdup("agent")))
            goto oom;
        for (size_t i = 0; i < nw; i++)
            if (!(v[n++] = strdup(words[i])))
                goto oom;
        return v;
    }
    if (!remote_host_ok(o->host)) {
        snprintf(err, errlen, "'%s' is not a host name (it starts with '-' "
                 "or holds a space or control character); give the host "
                 "as ssh knows it", o->host);
        free(v);
        return NULL;
    }
    static const char *const head[] = {"ssh", "-T", "-o", "BatchMode=yes"};
    for (size_t i = 0; i < 4; i++)
        if (!(v[n++] = strdup(head[i])))
            goto oom;
    for (int i = 0; i < o->nssh_opts; i++)
        if (!(v[n++] = strdup("-o")) || !(v[n++] = strdup(o->ssh_opts[i])))
            goto oom;
    struct wire_buf cmd;
    wire_buf_init(&cmd);
    remote_quote(&cmd, o->drdb ? o->drdb : "drdb");
    wire_buf_add(&cmd, " agent", 6);
    for (size_t i = 0; i < nw; i++) {
        wire_buf_add(&cmd, " ", 1);
        remote_quote(&cmd, words[i]);
    }
    wire_buf_add(&cmd, "", 1); /* the NUL */
    if (cmd.oom || !(v[n++] = strdup("--")) || !(v[n++] = strdup(o->host)) ||
        !(v[n++] = strdup((char *)cmd.p))) {
        wire_buf_release(&cmd);
        goto oom;
    }
    wire_buf_release(&cmd);
    return v;
oom:
    remote_argv_free(v);
    snprintf(err, errlen, "out of memory");
    return NULL;
}

void remote_argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

void remote__last_line(const char *text, char *line, size_t len)
{
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(line, len, "%.*s", (int)(end - start), start);
}

void remote__diagnose(const char *host, const char *drdb, int local,
                      int status, const char *stderr_text, char *err,
                      size_t errlen)
{
    char line[512];
    remote__last_line(stderr_text, line, sizeof line);
    int code = status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (!drdb)
        drdb = "drdb";
    if (local)
        snprintf(err, errlen, "the local drdb agent ended before it "
                 "answered%s%s", line[0] ? ": " : "", line);
    else if (code == 255 && strstr(stderr_text, "Permission denied"))
        snprintf(err, errlen, "cannot log in to %s: authentication failed "
                 "(%s); 'ssh %s' must work without a prompt: load your key "
                 "(ssh-add) or set IdentityFile in ~/.ssh/config", host,
                 line, host);
    else if (code == 255 && strstr(stderr_text, "Host key verification"))
        snprintf(err, errlen, "%s's host key is unknown or changed (%s): "
                 "check it with 'ssh %s' first", host, line, host);
    else if (code == 255)
        snprintf(err, errlen, "cannot reach %s: %s; check the host name "
                 "and that sshd runs there (--ssh-option passes options to "
                 "ssh)", host, line[0] ? line : "ssh failed");
    else if (code == 127)
        snprintf(err, errlen, "drdb is not installed on %s ('%s' was not "
                 "found there): install the same drdb there, or give its "
                 "path with --remote-drdb PATH", host, drdb);
    else if (code == 126)
        snprintf(err, errlen, "'%s' on %s cannot be run (%s): give "
                 "drdb's path there with --remote-drdb PATH", drdb, host,
                 line);
    else
        snprintf(err, errlen, "the drdb agent on %s ended before it "
                 "answered (exit status %d)%s%s", host, code,
                 line[0] ? ": " : "", line);
}

void remote__mismatch(const char *host, uint32_t proto, const char *ver,
                      const char *mine, char *err, size_t errlen)
{
    int c = wire_version_cmp(ver, mine);
    if (!c)
        c = proto < WIRE_PROTOCOL ? -1 : 1;
    snprintf(err, errlen, "drdb on %s is version %s (protocol %u), this "
             "drdb is %s (protocol %u): install the same drdb on both (%s "
             "is older)", host, ver, (unsigned)proto, mine, WIRE_PROTOCOL,
             c < 0 ? host : "this one");
}
