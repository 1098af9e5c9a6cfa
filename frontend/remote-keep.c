/* The client's side of keeping a session and attaching to it (remote.h,
 * "keeping a session"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote.h"
#include "remote-int.h"
#include "wire.h"

const char *remote_session(const struct remote *r)
{
    return r->session;
}

int remote_keep(struct remote *r, int keep_s, const char *note, char *err,
                size_t errlen)
{
    if (note && strlen(note) > WIRE_MAX_NOTE) {
        snprintf(err, errlen, "a session note of %zu bytes (at most %u)",
                 strlen(note), WIRE_MAX_NOTE);
        return -1;
    }
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_u32(&b, keep_s > 0 ? (uint32_t)keep_s : 0);
    wire_put_str(&b, note);
    struct wire_rd rd;
    int rc = remote__ask_data(r, WIRE_KEEP, &b, &rd, err, errlen);
    wire_buf_release(&b);
    if (rc < 0)
        return -1;
    char *id = wire_get_str(&rd);
    if (!id || strlen(id) >= sizeof r->session) {
        free(id);
        snprintf(err, errlen, "%s: a malformed answer to KEEP", r->host);
        return -1;
    }
    snprintf(r->session, sizeof r->session, "%s", id);
    free(id);
    return 0;
}

int remote_label(struct remote_proc *p, const char *label)
{
    size_t n = strlen(label);
    if (n > WIRE_MAX_LABEL || p->r->lost)
        return -1;
    char *s = strdup(label);
    if (!s)
        return -1;
    free(p->label);
    p->label = s;
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_str(&b, label);
    int rc = wire_send_buf(&p->r->c, WIRE_LABEL, p->ch, &b);
    wire_buf_release(&b);
    return rc;
}

int remote_sessions(struct remote *r, char ***ids, size_t *n, char *err,
                    size_t errlen)
{
    struct wire_buf b;
    wire_buf_init(&b);
    struct wire_rd rd;
    uint32_t count;
    int rc = remote__ask_data(r, WIRE_SESSIONS, &b, &rd, err, errlen);
    wire_buf_release(&b);
    if (rc < 0)
        return -1;
    char **v = NULL;
    size_t got = 0;
    if (wire_get_u32(&rd, &count) == 0 && count <= WIRE_MAX_WORDS &&
        (v = calloc(count + 1, sizeof *v)))
        while (got < count && (v[got] = wire_get_str(&rd)))
            got++;
    if (!v || got < count || rd.at != rd.len) {
        for (size_t i = 0; i < got; i++)
            free(v[i]);
        free(v);
        snprintf(err, errlen, "%s: a malformed list of sessions", r->host);
        return -1;
    }
    *ids = v;
    *n = count;
    return 0;
}

/* The processes LIST's answer (read by RD) gives, made R's. */
static int adopt(struct remote *r, struct wire_rd *rd,
                 struct remote_proc ***procs, size_t *n, char **note,
                 char *err, size_t errlen)
{
    struct wire_kept *k = NULL;
    size_t nk = 0;
    char *id = wire_get_str(rd);
    if (!id || strlen(id) >= sizeof r->session ||
        wire_get_list(rd, note, &k, &nk) < 0) {
        free(id);
        snprintf(err, errlen, "%s: a malformed list of processes", r->host);
        return -1;
    }
    snprintf(r->session, sizeof r->session, "%s", id);
    free(id);
    struct remote_proc **v = calloc(nk ? nk : 1, sizeof *v);
    size_t made = 0;
    for (; v && made < nk; made++) {
        struct remote_proc *p =
            remote__proc_new(r, k[made].ch, !!(k[made].flags & WIRE_KEPT_ERR),
                             !!(k[made].flags & WIRE_KEPT_TTY), err, errlen);
        if (!p)
            break;
        v[made] = p;
        p->pid = (pid_t)k[made].pid;
        snprintf(p->tty_name, sizeof p->tty_name, "%s", k[made].tty_name);
        p->label = k[made].label;
        k[made].label = NULL;
        if (k[made].flags & WIRE_KEPT_EXITED) {
            p->exited = 1;
            p->status = (int)k[made].status;
        }
        /* A stream that ended before: ended here too. */
        if (!(k[made].flags & WIRE_KEPT_OUT))
            p->eof |= 1u << 1;
    }
    wire_kept_free(k, nk);
    if (made < nk) {
        if (!v)
            snprintf(err, errlen, "out of memory");
        free(v);
        free(*note);
        *note = NULL;
        return -1;
    }
    *procs = v;
    *n = nk;
    return 0;
}

/* remote_attach(), with RESUME sent or not (remote_peek). */
static int attach(struct remote **out, const struct remote_opts *o,
                  const char *id, struct remote_proc ***procs, size_t *n,
                  char **note, int resume, char *err, size_t errlen)
{
    const char *words[] = {"--attach", id, NULL};
    struct remote_opts plain = *o;
    struct remote *r;
    plain.keep_s = 0;
    *note = NULL;
    if (id && (!*id || strspn(id, "0123456789") != strlen(id) ||
               strlen(id) > 10)) {
        snprintf(err, errlen, "'%s' is not a session id (the digits "
                 "'drdb attach --list HOST' shows)", id);
        return -1;
    }
    if (remote__connect(&r, &plain, words, err, errlen) < 0) {
        /* What `drdb agent --attach` said, with the host named. */
        const char *said = strstr(err, "drdb agent: ");
        if (said) {
            char why[1024];
            snprintf(why, sizeof why, "%s", said + 12);
            snprintf(err, errlen, "%s: %s", o->host ? o->host : "localhost",
                     why);
        }
        return -1;
    }
    struct wire_buf b;
    struct wire_rd rd;
    wire_buf_init(&b);
    if (remote__ask_data(r, WIRE_LIST, &b, &rd, err, errlen) < 0 ||
        adopt(r, &rd, procs, n, note, err, errlen) < 0) {
        wire_buf_release(&b);
        remote_close(r);
        return -1;
    }
    wire_buf_release(&b);
    /* Now that the processes are known here: what they wrote meanwhile. */
    if (resume)
        wire_send(&r->c, WIRE_RESUME, 0, NULL, 0);
    *out = r;
    return 0;
}

int remote_attach(struct remote **out, const struct remote_opts *o,
                  const char *id, struct remote_proc ***procs, size_t *n,
                  char **note, char *err, size_t errlen)
{
    return attach(out, o, id, procs, n, note, 1, err, errlen);
}

int remote_peek(struct remote **out, const struct remote_opts *o,
                const char *id, struct remote_proc ***procs, size_t *n,
                char **note, char *err, size_t errlen)
{
    return attach(out, o, id, procs, n, note, 0, err, errlen);
}
