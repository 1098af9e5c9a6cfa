/* The agent protocol's frames, payloads and connection (wire.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch.h"
#include "wire.h"

static const char *const type_names[WIRE_TYPE_END] = {
    [WIRE_HELLO] = "HELLO",     [WIRE_ERROR] = "ERROR",
    [WIRE_START] = "START",     [WIRE_STARTED] = "STARTED",
    [WIRE_STDIN] = "STDIN",     [WIRE_STDOUT] = "STDOUT",
    [WIRE_STDERR] = "STDERR",   [WIRE_TTY] = "TTY",
    [WIRE_SIGNAL] = "SIGNAL",   [WIRE_EXIT] = "EXIT",
    [WIRE_READ] = "READ",       [WIRE_DATA] = "DATA",
    [WIRE_RUN] = "RUN",         [WIRE_INDEX] = "INDEX",
    [WIRE_IMAGE] = "IMAGE",
    [WIRE_IMAGE_END] = "IMAGE_END", [WIRE_KEEP] = "KEEP",
    [WIRE_LABEL] = "LABEL",     [WIRE_LIST] = "LIST",
    [WIRE_RESUME] = "RESUME",   [WIRE_SESSIONS] = "SESSIONS",
    [WIRE_SETUP] = "SETUP",     [WIRE_SHADOW] = "SHADOW",
};

const char *wire_type_name(unsigned type)
{
    return type && type < WIRE_TYPE_END ? type_names[type] : "?";
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

long wire_parse(const uint8_t *buf, size_t len, struct wire_frame *f,
                char *err, size_t errlen)
{
    if (len < WIRE_HEADER)
        return 0;
    f->len = get32(buf);
    f->type = (uint16_t)(buf[4] | buf[5] << 8);
    f->channel = (uint16_t)(buf[6] | buf[7] << 8);
    if (f->type == 0 || f->type >= WIRE_TYPE_END) {
        snprintf(err, errlen, "unknown frame type %u", (unsigned)f->type);
        return -1;
    }
    if (f->len > WIRE_MAX_PAYLOAD) {
        snprintf(err, errlen, "a %s frame of %lu bytes (the limit is %u)",
                 wire_type_name(f->type), (unsigned long)f->len,
                 WIRE_MAX_PAYLOAD);
        return -1;
    }
    if (len - WIRE_HEADER < f->len)
        return 0;
    f->data = buf + WIRE_HEADER;
    return (long)(WIRE_HEADER + f->len);
}

/* ---- payloads ----------------------------------------------------------- */

void wire_buf_init(struct wire_buf *b)
{
    memset(b, 0, sizeof *b);
}

void wire_buf_release(struct wire_buf *b)
{
    free(b->p);
    wire_buf_init(b);
}

uint8_t *wire_buf_reserve(struct wire_buf *b, size_t n)
{
    if (b->oom)
        return NULL;
    if (b->off && b->off == b->len)
        b->off = b->len = 0;
    if (b->off && b->len + n > b->cap && b->off >= b->len - b->off) {
        /* A queue's consumed front is reused when it is at least as
         * large as what is left to move: each byte moves O(1) times. */
        memmove(b->p, b->p + b->off, b->len - b->off);
        b->len -= b->off;
        b->off = 0;
    }
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->oom = 1;
            return NULL;
        }
        b->p = q;
        b->cap = cap;
    }
    return b->p + b->len;
}

void wire_buf_add(struct wire_buf *b, const void *p, size_t n)
{
    if (!n)
        return;
    uint8_t *at = wire_buf_reserve(b, n);
    if (at) {
        memcpy(at, p, n);
        b->len += n;
    }
}

void wire_buf_drop(struct wire_buf *b, size_t n)
{
    b->off += n < wire_buf_size(b) ? n : wire_buf_size(b);
    if (b->off == b->len)
        b->off = b->len = 0;
}

void wire_put_u32(struct wire_buf *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
                    (uint8_t)(v >> 24)};
    wire_buf_add(b, p, 4);
}

void wire_put_u64(struct wire_buf *b, uint64_t v)
{
    wire_put_u32(b, (uint32_t)v);
    wire_put_u32(b, (uint32_t)(v >> 32));
}

void wire_put_str(struct wire_buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    wire_put_u32(b, (uint32_t)n);
    wire_buf_add(b, s, n);
}

void wire_rd_init(struct wire_rd *r, const struct wire_frame *f)
{
    r->p = f->data;
    r->len = f->len;
    r->at = 0;
    r->bad = 0;
}

int wire_get_u32(struct wire_rd *r, uint32_t *v)
{
    if (r->bad || r->len - r->at < 4) {
        r->bad = 1;
        return -1;
    }
    *v = get32(r->p + r->at);
    r->at += 4;
    return 0;
}

int wire_get_u64(struct wire_rd *r, uint64_t *v)
{
    uint32_t lo, hi;
    if (wire_get_u32(r, &lo) < 0 || wire_get_u32(r, &hi) < 0)
        return -1;
    *v = (uint64_t)hi << 32 | lo;
    return 0;
}

char *wire_get_str(struct wire_rd *r)
{
    uint32_t n;
    if (wire_get_u32(r, &n) < 0)
        return NULL;
    if (r->len - r->at < n || memchr(r->p + r->at, '\0', n)) {
        r->bad = 1;
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->bad = 1;
        return NULL;
    }
    memcpy(s, r->p + r->at, n);
    s[n] = '\0';
    r->at += n;
    return s;
}

/* ---- launcher descriptions ---------------------------------------------- */

/* nenv, "NAME=VALUE"... */
static void put_env(struct wire_buf *b, const struct launch_env *e)
{
    wire_put_u32(b, (uint32_t)e->n);
    for (size_t i = 0; i < e->n; i++)
        wire_put_str(b, e->v[i]);
}

static int get_env(struct wire_rd *r, struct launch_env *e)
{
    uint32_t nenv;
    if (wire_get_u32(r, &nenv) < 0 || nenv > WIRE_MAX_WORDS)
        return -1;
    for (uint32_t i = 0; i < nenv; i++) {
        char *s = wire_get_str(r), *eq = s ? strchr(s, '=') : NULL;
        int rc = -1;
        if (eq && eq != s) {
            *eq = '\0';
            rc = launch_env_set(e, s, eq + 1);
        }
        free(s);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* flags, argc, argv..., cwd ("" none), nenv, env..., rundir, program. */
void wire_put_desc(struct wire_buf *b, const struct launch_desc *d)
{
    size_t argc = 0;
    while (d->argv && d->argv[argc])
        argc++;
    wire_put_u32(b, d->flags);
    wire_put_u32(b, (uint32_t)argc);
    for (size_t i = 0; i < argc; i++)
        wire_put_str(b, d->argv[i]);
    wire_put_str(b, d->cwd);
    put_env(b, &d->env);
    wire_put_str(b, d->rundir);
    wire_put_str(b, d->program);
}

/* A string field, NULL when empty. */
static int get_opt_str(struct wire_rd *r, char **out)
{
    char *s = wire_get_str(r);
    if (!s)
        return -1;
    if (!*s) {
        free(s);
        s = NULL;
    }
    *out = s;
    return 0;
}

int wire_get_desc(struct wire_rd *r, struct launch_desc *d)
{
    uint32_t argc;
    launch_desc_init(d);
    if (wire_get_u32(r, &d->flags) < 0 || wire_get_u32(r, &argc) < 0 ||
        argc < 1 || argc > WIRE_MAX_WORDS ||
        !(d->argv = calloc((size_t)argc + 1, sizeof *d->argv)))
        goto bad;
    for (uint32_t i = 0; i < argc; i++)
        if (!(d->argv[i] = wire_get_str(r)))
            goto bad;
    if (get_opt_str(r, &d->cwd) < 0 || get_env(r, &d->env) < 0)
        goto bad;
    if (get_opt_str(r, &d->rundir) < 0 || get_opt_str(r, &d->program) < 0 ||
        r->at != r->len)
        goto bad;
    return 0;
bad:
    launch_desc_release(d);
    return -1;
}

/* ---- a kept session's processes ----------------------------------------- */

void wire_put_list(struct wire_buf *b, const char *note,
                   const struct wire_kept *k, size_t n)
{
    wire_put_str(b, note);
    wire_put_u32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        wire_put_u32(b, k[i].ch);
        wire_put_u32(b, k[i].pid);
        wire_put_u32(b, k[i].flags);
        wire_put_u32(b, k[i].status);
        wire_put_str(b, k[i].label);
        wire_put_str(b, k[i].tty_name);
    }
}

void wire_kept_free(struct wire_kept *k, size_t n)
{
    for (size_t i = 0; k && i < n; i++) {
        free(k[i].label);
        free(k[i].tty_name);
    }
    free(k);
}

int wire_get_list(struct wire_rd *r, char **note, struct wire_kept **k,
                  size_t *n)
{
    uint32_t count;
    struct wire_kept *v = NULL;
    size_t got = 0;
    *note = wire_get_str(r);
    if (!*note || strlen(*note) > WIRE_MAX_NOTE ||
        wire_get_u32(r, &count) < 0 || count > WIRE_MAX_WORDS ||
        !(v = calloc(count ? count : 1, sizeof *v)))
        goto bad;
    for (; got < count; got++) {
        struct wire_kept *p = &v[got];
        if (wire_get_u32(r, &p->ch) < 0 || wire_get_u32(r, &p->pid) < 0 ||
            wire_get_u32(r, &p->flags) < 0 ||
            wire_get_u32(r, &p->status) < 0 || p->ch == 0 ||
            p->ch > 65535 || !(p->label = wire_get_str(r)) ||
            !(p->tty_name = wire_get_str(r)) ||
            strlen(p->label) > WIRE_MAX_LABEL)
            goto bad_one;
    }
    if (r->at != r->len)
        goto bad;
    *k = v;
    *n = count;
    return 0;
bad_one:
    got++; /* its strings, if any, are freed too */
bad:
    wire_kept_free(v, got);
    free(*note);
    *note = NULL;
    return -1;
}

/* ---- a rank's replay under GDB, made on the agent's host ---------------- */

/* flags, stub, xstate, index, out, nenv, env..., stack_strings,
 * stack_nenv */
void wire_put_gdb(struct wire_buf *b, const struct launch_gdb *g)
{
    wire_put_u32(b, g->flags);
    wire_put_str(b, g->stub);
    wire_put_str(b, g->xstate);
    wire_put_str(b, g->index);
    wire_put_str(b, g->out);
    put_env(b, &g->env);
    wire_put_u32(b, g->stack_strings);
    wire_put_u32(b, g->stack_nenv);
}

int wire_get_gdb(struct wire_rd *r, struct launch_gdb *g)
{
    launch_gdb_init(g);
    if (wire_get_u32(r, &g->flags) < 0 || !(g->stub = wire_get_str(r)) ||
        !(g->xstate = wire_get_str(r)) || !(g->index = wire_get_str(r)) ||
        !(g->out = wire_get_str(r)) || get_env(r, &g->env) < 0 ||
        wire_get_u32(r, &g->stack_strings) < 0 ||
        wire_get_u32(r, &g->stack_nenv) < 0 || !g->stub[0] || r->at != r->len) {
        launch_gdb_release(g);
        return -1;
    }
    return 0;
}

/* ---- HELLO -------------------------------------------------------------- */

const char *wire_version(void)
{
    /* Test-only (docs/remote.md): a version mismatch without two builds. */
    const char *v = getenv("DRDB_TEST_VERSION");
    return v && *v ? v : DRDB_VERSION;
}

void wire_put_hello(struct wire_buf *b, const char *version)
{
    wire_buf_add(b, WIRE_MAGIC, 8);
    wire_put_u32(b, WIRE_PROTOCOL);
    wire_put_str(b, version);
}

int wire_get_hello(const struct wire_frame *f, uint32_t *proto,
                   char **version)
{
    struct wire_rd r;
    if (f->type != WIRE_HELLO || f->channel != 0 || f->len < 12 ||
        memcmp(f->data, WIRE_MAGIC, 8) != 0)
        return -1;
    wire_rd_init(&r, f);
    r.at = 8;
    if (wire_get_u32(&r, proto) < 0)
        return -1;
    /* A later protocol may add fields after the version. */
    *version = wire_get_str(&r);
    return *version ? 0 : -1;
}

int wire_version_cmp(const char *a, const char *b)
{
    while (*a || *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            unsigned long x = strtoul(a, (char **)&a, 10);
            unsigned long y = strtoul(b, (char **)&b, 10);
            if (x != y)
                return x < y ? -1 : 1;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return 0;
}

/* ---- a connection ------------------------------------------------------- */

void wire_conn_init(struct wire_conn *c, int in, int out)
{
    c->in = in;
    c->out = out;
    wire_buf_init(&c->inq);
    wire_buf_init(&c->outq);
    c->err[0] = '\0';
    c->nread = 0;
}

void wire_conn_release(struct wire_conn *c)
{
    wire_buf_release(&c->inq);
    wire_buf_release(&c->outq);
}

static void put_header(uint8_t *h, unsigned type, unsigned channel,
                       size_t len)
{
    uint8_t v[WIRE_HEADER] = {
        (uint8_t)len,     (uint8_t)(len >> 8),     (uint8_t)(len >> 16),
        (uint8_t)(len >> 24), (uint8_t)type,       (uint8_t)(type >> 8),
        (uint8_t)channel, (uint8_t)(channel >> 8),
    };
    memcpy(h, v, sizeof v);
}

int wire_send(struct wire_conn *c, unsigned type, unsigned channel,
              const void *data, size_t len)
{
    if (len > WIRE_MAX_PAYLOAD)
        return -1;
    uint8_t *h = wire_buf_reserve(&c->outq, WIRE_HEADER + len);
    if (!h)
        return -1;
    put_header(h, type, channel, len);
    if (len)
        memcpy(h + WIRE_HEADER, data, len);
    c->outq.len += WIRE_HEADER + len;
    return 0;
}

long wire_send_read(struct wire_conn *c, unsigned type, unsigned channel,
                    int fd)
{
    uint8_t *h = wire_buf_reserve(&c->outq, WIRE_HEADER + WIRE_CHUNK);
    if (!h) {
        errno = ENOMEM;
        return -1;
    }
    ssize_t n = read(fd, h + WIRE_HEADER, WIRE_CHUNK);
    if (n > 0) {
        put_header(h, type, channel, (size_t)n);
        c->outq.len += WIRE_HEADER + (size_t)n;
    }
    return (long)n;
}

int wire_send_buf(struct wire_conn *c, unsigned type, unsigned channel,
                  const struct wire_buf *b)
{
    if (b->oom)
        return -1;
    return wire_send(c, type, channel, b->p + b->off, wire_buf_size(b));
}

int wire_flush(struct wire_conn *c)
{
    while (wire_buf_size(&c->outq)) {
        ssize_t n = write(c->out, c->outq.p + c->outq.off,
                          wire_buf_size(&c->outq));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        if (n <= 0) {
            snprintf(c->err, sizeof c->err, "%s",
                     n < 0 ? strerror(errno) : "closed");
            return -1;
        }
        wire_buf_drop(&c->outq, (size_t)n);
    }
    return 0;
}

int wire_fill(struct wire_conn *c)
{
    for (;;) {
        uint8_t *at = wire_buf_reserve(&c->inq, WIRE_CHUNK);
        if (!at) {
            snprintf(c->err, sizeof c->err, "out of memory");
            return -1;
        }
        ssize_t n = read(c->in, at, WIRE_CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 1;
        if (n < 0) {
            snprintf(c->err, sizeof c->err, "%s", strerror(errno));
            return -1;
        }
        if (n == 0)
            return 0;
        c->inq.len += (size_t)n;
        c->nread += (uint64_t)n;
        if (n < WIRE_CHUNK)
            return 1;
    }
}

int wire_next(struct wire_conn *c, struct wire_frame *f)
{
    long n = wire_parse(c->inq.p + c->inq.off, wire_buf_size(&c->inq), f,
                        c->err, sizeof c->err);
    if (n <= 0)
        return (int)n;
    /* Dropped now, the bytes stay in place until the next wire_fill(). */
    wire_buf_drop(&c->inq, (size_t)n);
    return 1;
}

void wire_poll_add(struct pollfd *fds, int *n, int max, int fd, short ev)
{
    if (fd < 0 || *n >= max)
        return;
    fds[*n].fd = fd;
    fds[*n].events = ev;
    fds[*n].revents = 0;
    (*n)++;
}

void wire_ready_take(struct wire_ready *w, const struct pollfd *fds, int n)
{
    int top = -1;
    for (int i = 0; i < n; i++)
        if (fds[i].fd > top)
            top = fds[i].fd;
    w->fds = fds;
    w->n = n;
    w->bad = 0;
    if ((size_t)(top + 1) > w->cap) {
        size_t cap = (size_t)top + 65;
        short *ev = realloc(w->ev, cap * sizeof *ev);
        if (!ev) {
            w->bad = 1;
            return;
        }
        w->ev = ev;
        w->cap = cap;
    }
    if (w->cap)
        memset(w->ev, 0, w->cap * sizeof *w->ev);
    for (int i = 0; i < n; i++)
        if (fds[i].fd >= 0)
            w->ev[fds[i].fd] |= fds[i].revents;
}

short wire_ready_get(const struct wire_ready *w, int fd)
{
    if (fd < 0)
        return 0;
    if (!w->bad)
        return (size_t)fd < w->cap ? w->ev[fd] : 0;
    short ev = 0;
    for (int i = 0; i < w->n; i++)
        if (w->fds[i].fd == fd)
            ev |= w->fds[i].revents;
    return ev;
}

void wire_ready_release(struct wire_ready *w)
{
    free(w->ev);
    w->ev = NULL;
    w->cap = 0;
}

/* ---- SHADOW -------------------------------------------------------------- */

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

void wire_put_shadow(struct wire_buf *b, const struct wire_shadow *q)
{
    wire_put_u32(b, q->op);
    if (q->op != WIRE_SHADOW_START) {
        wire_put_u32(b, q->id);
        if (q->op == WIRE_SHADOW_STOP)
            wire_put_u32(b, q->flags);
        return;
    }
    wire_put_u32(b, q->pid);
    wire_put_str(b, q->rundir ? q->rundir : "");
    wire_put_u32(b, q->rank);
    wire_put_u64(b, dbits(q->interval));
    wire_put_u64(b, q->every);
}

int wire_get_shadow(struct wire_rd *r, struct wire_shadow *q)
{
    uint64_t bits = 0;
    memset(q, 0, sizeof *q);
    if (wire_get_u32(r, &q->op) < 0 || q->op >= WIRE_SHADOW_END)
        return -1;
    if (q->op != WIRE_SHADOW_START) {
        wire_get_u32(r, &q->id);
        if (q->op == WIRE_SHADOW_STOP)
            wire_get_u32(r, &q->flags);
    } else {
        wire_get_u32(r, &q->pid);
        q->rundir = wire_get_str(r);
        wire_get_u32(r, &q->rank);
        wire_get_u64(r, &bits);
        wire_get_u64(r, &q->every);
        memcpy(&q->interval, &bits, sizeof bits);
    }
    if (r->bad || r->at != r->len) {
        free(q->rundir);
        q->rundir = NULL;
        return -1;
    }
    return 0;
}

void wire_put_ckpt_files(struct wire_buf *b, const struct launch_shadow_file *v,
                         size_t n)
{
    wire_put_u32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        wire_put_str(b, v[i].name);
        wire_put_u64(b, (uint64_t)v[i].id);
        wire_put_u64(b, (uint64_t)v[i].parent);
        wire_put_u64(b, v[i].event);
        wire_put_u64(b, dbits(v[i].time));
        wire_put_u64(b, v[i].pages);
        wire_put_u64(b, v[i].bytes);
    }
}

int wire_get_ckpt_files(struct wire_rd *r, struct launch_shadow_file **out,
                        size_t *n)
{
    uint32_t m;
    *out = NULL;
    *n = 0;
    /* each takes 52 bytes at least: no count the payload cannot hold */
    if (wire_get_u32(r, &m) < 0 || m > (r->len - r->at) / 52)
        return -1;
    struct launch_shadow_file *v = calloc(m ? m : 1, sizeof *v);
    if (!v)
        return -1;
    for (uint32_t i = 0; i < m; i++) {
        char *name = wire_get_str(r);
        uint64_t f[6] = {0};
        for (int j = 0; j < 6; j++)
            wire_get_u64(r, &f[j]);
        int bad = !name || r->bad || !name[0] ||
                  strlen(name) >= sizeof v[i].name || strchr(name, '/');
        if (!bad)
            snprintf(v[i].name, sizeof v[i].name, "%s", name);
        free(name);
        if (bad) {
            free(v);
            return -1;
        }
        v[i].id = (long)f[0];
        v[i].parent = (long)f[1];
        v[i].event = f[2];
        memcpy(&v[i].time, &f[3], sizeof v[i].time);
        v[i].pages = f[4];
        v[i].bytes = f[5];
    }
    if (r->at != r->len) {
        free(v);
        return -1;
    }
    *out = v;
    *n = m;
    return 0;
}
