/*
 * Printing events and their relations (events.h): an event in full, its
 * partners, every match of a run, the queues at a point. Used by `drdb log`
 * and meant for the console.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "log-abi.h"
#include "log-codec.h"

const char *ev_fn_name(int fn)
{
    return log_func_name(fn);
}

/* ---- helpers ------------------------------------------------------------ */

/* The function of rank R's event N ("?" when unreadable). */
static const char *fn_at(struct ev_run *x, int rank, uint64_t n)
{
    int fn = n == EV_NONE ? -1 : ev_fn(x, rank, n);
    return fn < 0 ? "?" : log_func_name(fn);
}

static void comm_str(char *buf, size_t len, int32_t comm)
{
    if (comm < 0)
        snprintf(buf, len, "?");
    else
        snprintf(buf, len, "#%d", comm);
}

/* " on comm #C" unless C is MPI_COMM_WORLD. */
static void on_comm(char *buf, size_t len, int32_t comm)
{
    if (comm == 0)
        buf[0] = '\0';
    else if (comm < 0)
        snprintf(buf, len, " on an unknown communicator");
    else
        snprintf(buf, len, " on comm #%d", comm);
}

/* "from 2 tag 5" / "to 0 tag 5" and what matched: one message's side. */
static void msg_side(struct ev_run *x, char *buf, size_t len,
                     const struct ev_msg *m)
{
    char c[48], peer[32];
    on_comm(c, sizeof c, m->comm);
    if (m->flags & EV_M_PROC_NULL && m->comm < 0)
        c[0] = '\0';
    int send = (m->flags & EV_M_SEND) != 0;
    if (m->flags & EV_M_PROC_NULL)
        snprintf(peer, sizeof peer, "MPI_PROC_NULL");
    else if (m->peer >= 0)
        snprintf(peer, sizeof peer, "%d", m->peer);
    else if (!send && (m->flags & EV_M_NOSTATUS) && m->peer_local < 0)
        snprintf(peer, sizeof peer, "MPI_ANY_SOURCE");
    else
        snprintf(peer, sizeof peer, "?");
    if (m->tag >= 0)
        snprintf(buf, len, "%s %s tag %d%s", send ? "to" : "from", peer,
                 m->tag, c);
    else
        snprintf(buf, len, "%s %s%s", send ? "to" : "from", peer, c);
    (void)x;
}

/* "event 17 MPI_Irecv" for message M's own call (with its init). */
static void msg_call(struct ev_run *x, char *buf, size_t len,
                     const struct ev_msg *m)
{
    if (m->init != EV_NONE)
        snprintf(buf, len, "event %" PRIu64 " %s (of event %" PRIu64 " %s)",
                 m->event, log_func_name(m->fn), m->init,
                 fn_at(x, m->rank, m->init));
    else
        snprintf(buf, len, "event %" PRIu64 " %s", m->event,
                 log_func_name(m->fn));
}

/* Why message M matched nothing. */
static const char *no_match_why(struct ev_run *x, const struct ev_msg *m)
{
    if (m->peer >= 0 && m->peer < x->world_size &&
        !x->ranks[m->peer].present && !(m->flags & EV_M_CANCELLED))
        return m->flags & EV_M_SEND ? "unknown (the receiver was not "
                                      "recorded)"
                                    : "unknown (the sender was not "
                                      "recorded)";
    if (m->flags & EV_M_PROC_NULL)
        return "no message (MPI_PROC_NULL)";
    if (m->flags & EV_M_CANCELLED)
        return "no message (cancelled)";
    if (m->flags & EV_M_SEND) {
        if (m->flags & EV_M_UNKNOWN || m->comm < 0)
            return "unknown (its communicator or destination is unknown)";
        return "no receive took it";
    }
    if (m->flags & EV_M_NOSTATUS)
        return m->peer < 0 ? "unknown (never completed: no status says "
                             "what it matched)"
                           : "no send found (never completed)";
    if (m->flags & EV_M_UNKNOWN || m->comm < 0)
        return "unknown (its communicator or source is unknown)";
    return "no send found";
}

/* One line for message MI as seen from its own side, with its partner:
 * "rank 0 event 17 MPI_Recv from 2 tag 5 <- rank 2 event 9 MPI_Send". AT
 * (when not EV_NONE, and not the message's call) is the event asked
 * about (a completion or probe). */
static void print_msg_line(struct ev_run *x, FILE *out, int32_t mi,
                           uint64_t at, const char *at_fn)
{
    const struct ev_msg *m = ev_msg_at(x, mi);
    char side[96], call[160];
    msg_side(x, side, sizeof side, m);
    msg_call(x, call, sizeof call, m);
    int send = (m->flags & EV_M_SEND) != 0;
    if (at != EV_NONE && at != m->event)
        fprintf(out, "rank %d event %" PRIu64 " %s: ", m->rank, at, at_fn);
    fprintf(out, "rank %d %s %s %s ", m->rank, call, side,
            send ? "->" : "<-");
    if (m->match < 0) {
        fprintf(out, "%s\n", no_match_why(x, m));
        return;
    }
    const struct ev_msg *o = ev_msg_at(x, m->match);
    char ocall[160];
    msg_call(x, ocall, sizeof ocall, o);
    fprintf(out, "rank %d %s", o->rank, ocall);
    const struct ev_msg *r = send ? o : m;
    if (r->bytes >= 0)
        fprintf(out, " (%" PRId64 " bytes)", r->bytes);
    /* When the receive completed, if not in its own call. */
    if (r->done != r->event) {
        if (r->done == EV_NONE)
            fprintf(out, ", never completed");
        else
            fprintf(out, ", completed by event %" PRIu64 " %s", r->done,
                    fn_at(x, r->rank, r->done));
    }
    fputc('\n', out);
}

/* "MPI_Allreduce instance 3 of comm #2: rank 0 event 12, ..." */
static void print_instance(struct ev_run *x, FILE *out, int32_t comm,
                           int32_t k)
{
    int32_t small[64], *v = small;
    int n = ev_instance(x, comm, k, small, 64);
    if (n > 64) {
        if (!(v = malloc((size_t)n * sizeof *v)))
            return;
        ev_instance(x, comm, k, v, n);
    }
    if (n <= 0)
        return;
    int same = 1;
    for (int i = 1; i < n; i++)
        same &= ev_coll_at(x, v[i])->fn == ev_coll_at(x, v[0])->fn;
    if (same)
        fprintf(out, "%s ", log_func_name(ev_coll_at(x, v[0])->fn));
    fprintf(out, "instance %d of comm #%d:", k, comm);
    for (int i = 0; i < n; i++) {
        const struct ev_coll *c = ev_coll_at(x, v[i]);
        fprintf(out, "%s rank %d event %" PRIu64, i ? "," : "", c->rank,
                c->event);
        if (!same)
            fprintf(out, " %s", log_func_name(c->fn));
        if (c->nonblocking && c->done != EV_NONE)
            fprintf(out, " (completed by event %" PRIu64 ")", c->done);
    }
    /* Members whose logs exist but that have no call of this instance. */
    const struct ev_comm *cm = ev_comm_at(x, comm);
    int missing = 0;
    for (int g = 0; cm && g < cm->na + cm->nb; g++) {
        int32_t w = g < cm->na ? cm->a[g] : cm->b[g - cm->na];
        if (w < 0 || w >= x->world_size || !x->ranks[w].present)
            continue;
        int found = 0;
        for (int i = 0; i < n && !found; i++)
            found = ev_coll_at(x, v[i])->rank == w;
        if (!found)
            fprintf(out, "%s%d", missing++ ? "," : "; no call at rank ", w);
    }
    fputc('\n', out);
    if (v != small)
        free(v);
}

int ev_print_match(struct ev_run *x, FILE *out, int rank, uint64_t n,
                   char *err, size_t errlen)
{
    struct log_event ev;
    if (ev_event(x, rank, n, &ev, err, errlen) < 0 ||
        ev_build(x, err, errlen) < 0)
        return -1;
    struct ev_use small[16], *use = small;
    int nu = ev_uses(x, rank, n, small, 16);
    if (nu > 16) {
        if (!(use = malloc((size_t)nu * sizeof *use))) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        ev_uses(x, rank, n, use, nu);
    }
    const char *fn = log_func_name(ev.fn);
    for (int u = 0; u < nu; u++) {
        if (use[u].role == EV_COLL || use[u].role == EV_COLL_DONE) {
            const struct ev_coll *c = ev_coll_at(x, use[u].i);
            if (use[u].role == EV_COLL_DONE)
                fprintf(out, "rank %d event %" PRIu64 " %s completes event "
                        "%" PRIu64 " %s: ", rank, n, fn, c->event,
                        log_func_name(c->fn));
            if (c->comm < 0)
                fprintf(out, "rank %d event %" PRIu64 " %s: on an unknown "
                        "communicator\n", rank, c->event,
                        log_func_name(c->fn));
            else
                print_instance(x, out, c->comm, c->instance);
            continue;
        }
        if (use[u].role == EV_PROBE) {
            const struct ev_msg *m = ev_msg_at(x, use[u].i);
            char side[96];
            msg_side(x, side, sizeof side, m);
            fprintf(out, "rank %d event %" PRIu64 " %s matched a message "
                    "%s <- ", rank, n, fn, side);
            if (m->match >= 0) {
                const struct ev_msg *o = ev_msg_at(x, m->match);
                char ocall[160];
                msg_call(x, ocall, sizeof ocall, o);
                fprintf(out, "rank %d %s", o->rank, ocall);
            } else {
                fprintf(out, "%s", no_match_why(x, m));
            }
            if (m->event != n)
                fprintf(out, "; received by event %" PRIu64 " %s",
                        m->event, log_func_name(m->fn));
            else
                fprintf(out, "; never received");
            fputc('\n', out);
            continue;
        }
        print_msg_line(x, out, use[u].i, n, fn);
    }
    if (use != small)
        free(use);
    if (nu > 0)
        return 0;
    /* A Probe/Iprobe: the message it saw. */
    struct ev_ref ref;
    int k = ev_partners(x, rank, n, &ref, 1, err, errlen);
    if (k < 0)
        return 1;
    const struct ev_msg *s = ev_msg_at(x, ref.other);
    char side[96], call[160];
    msg_call(x, call, sizeof call, s);
    msg_side(x, side, sizeof side, s);
    fprintf(out, "rank %d event %" PRIu64 " %s sees rank %d %s %s", rank, n,
            fn, s->rank, call, side);
    if (s->match >= 0) {
        const struct ev_msg *r = ev_msg_at(x, s->match);
        fprintf(out, "; received by event %" PRIu64 " %s", r->event,
                log_func_name(r->fn));
    }
    fputc('\n', out);
    return 0;
}

void ev_print_all_matches(struct ev_run *x, FILE *out)
{
    size_t nm = ev_nmsgs(x);
    for (size_t i = 0; i < nm; i++) {
        const struct ev_msg *m = ev_msg_at(x, (int32_t)i);
        if (!(m->flags & EV_M_SEND) || m->match < 0)
            print_msg_line(x, out, (int32_t)i, EV_NONE, "");
    }
    int nc = ev_ncomms(x);
    for (int c = 0; c < nc; c++)
        for (int k = 0;; k++) {
            int32_t one;
            if (ev_instance(x, c, k, &one, 1) <= 0)
                break;
            print_instance(x, out, c, k);
        }
}

/* ---- an event in full --------------------------------------------------- */

static void print_hex(FILE *out, const uint8_t *p, uint64_t len,
                      uint64_t max)
{
    for (uint64_t i = 0; i < len && i < max; i++)
        fprintf(out, "%s%02x", i && i % 4 == 0 ? " " : "", p[i]);
    if (len > max)
        fprintf(out, " ...");
}

static void print_cstring(FILE *out, const uint8_t *p, uint64_t len,
                          uint64_t max)
{
    fputc('"', out);
    for (uint64_t i = 0; i < len && i < max; i++) {
        uint8_t c = p[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c == 0)
            fputs("\\0", out);
        else if (c < 32 || c >= 127)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
    if (len > max)
        fputs("...", out);
}

/* One element of type T at P. */
static void print_elem(FILE *out, const struct log_mpi_type *t,
                       const uint8_t *p)
{
    union {
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
        float f;
        double d;
        long double ld;
        uint8_t b[16];
    } u;
    memset(&u, 0, sizeof u);
    switch (t->kind) {
    case 'i':
        memcpy(u.b, p, (size_t)t->size);
        fprintf(out, "%" PRId64, t->size == 1 ? u.i8 : t->size == 2 ? u.i16
                                 : t->size == 4 ? u.i32 : u.i64);
        break;
    case 'u':
    case 'l':
        memcpy(u.b, p, (size_t)t->size);
        fprintf(out, "%" PRIu64, t->size == 1 ? u.u8 : t->size == 2 ? u.u16
                                 : t->size == 4 ? u.u32 : u.u64);
        break;
    case 'f':
        memcpy(u.b, p, (size_t)t->size);
        if (t->size == 4)
            fprintf(out, "%.9g", (double)u.f);
        else if (t->size == 8)
            fprintf(out, "%.17g", u.d);
        else
            fprintf(out, "%.21Lg", u.ld);
        break;
    case 'z':   /* a complex: two floats */
    case 'p': { /* a pair: two ints */
        const struct log_mpi_type half = {0, "", t->kind == 'z' ? 'f' : 'i',
                                          t->size / 2};
        fputc('(', out);
        print_elem(out, &half, p);
        fputc(',', out);
        print_elem(out, &half, p + t->size / 2);
        fputc(')', out);
        break;
    }
    default:
        fprintf(out, "0x%02x", p[0]);
        break;
    }
}

/* DATA of LEN bytes decoded as elements of TYPE (hex when RAW or not a
 * builtin type). */
static void print_data(FILE *out, const uint8_t *p, uint64_t len,
                       uint32_t type, int raw)
{
    const struct log_mpi_type *t = raw ? NULL : log_mpi_type_of(type);
    fprintf(out, "%" PRIu64 " bytes", len);
    if (!len)
        return;
    if (!t || len % (uint64_t)t->size) {
        fprintf(out, ": ");
        print_hex(out, p, len, 1024);
        return;
    }
    uint64_t n = len / (uint64_t)t->size;
    fprintf(out, " = %" PRIu64 " x %s: ", n, t->name);
    if (t->kind == 'c') {
        print_cstring(out, p, len, 32);
        return;
    }
    for (uint64_t i = 0; i < n && i < 32; i++) {
        if (i)
            fputc(' ', out);
        print_elem(out, t, p + i * (uint64_t)t->size);
    }
    if (n > 32)
        fprintf(out, " ...");
}

/* Whether EV is the datatype constructor that returned H (its new type,
 * not the in-out handle of MPI_Type_commit or MPI_Type_free). */
static int built_type(const struct log_event *ev, uint32_t h)
{
    struct log_field f;
    uint32_t v;
    int newtype = ev->desc ? ev->desc->slot[LOG_S_NEWTYPE] : -1;
    return ev->desc && ev->desc->kind == LOG_K_TYPE_CTOR && newtype >= 0 &&
           log_event_find(ev, (unsigned)newtype, LOG_F_HANDLE, &f) &&
           log_field_handle(&f, &v) == 0 && v == h;
}

/*
 * The builtin type a derived datatype H is made of, for printing its packed
 * data element by element: the constructor that returned H (the latest
 * before event N whose HANDLE output is H) names its old type by value
 * (contiguous, vector, hvector, indexed, hindexed, indexed_block, subarray,
 * darray, resized, dup...); followed down to a builtin. 0 when unknown (a
 * struct's types are an input array, not in the log). *CTOR gets the
 * outermost constructor's name.
 */
static uint32_t leaf_type(struct ev_run *x, int rank, uint64_t n, uint32_t h,
                          const char **ctor, int depth)
{
    if (log_mpi_type_of(h) || depth > 16)
        return log_mpi_type_of(h) ? h : 0;
    for (uint64_t e = n; e-- > 0;) {
        struct log_event ev;
        char err[128];
        if (ev_event(x, rank, e, &ev, err, sizeof err) < 0 ||
            !built_type(&ev, h))
            continue;
        if (depth == 0)
            *ctor = ev.desc->name;
        int old = ev.desc->slot[LOG_S_OLDTYPE];
        return old < 0 ? 0
                       : leaf_type(x, rank, e, (uint32_t)log_event_arg(&ev, old),
                                   ctor, depth + 1);
    }
    return 0;
}

/* A struct datatype's layout, from its constructor's logged arrays
 * (MPI_Type_create_struct logs its block lengths and member types): up to
 * MAX blocks of CNT[i] elements of builtin type TY[i]. Returns how many
 * blocks, 0 when unknown (not a struct, a derived member). */
static int struct_layout(struct ev_run *x, int rank, uint64_t n, uint32_t h,
                         int64_t *cnt, uint32_t *ty, int max, int depth)
{
    for (uint64_t e = n; depth < 16 && e-- > 0;) {
        struct log_event ev;
        struct log_field f, bl = {0}, tys = {0};
        size_t cur = 0;
        int logged = 0;
        char err[128];
        if (ev_event(x, rank, e, &ev, err, sizeof err) < 0 ||
            !built_type(&ev, h))
            continue;
        /* The constructor whose layout the log holds: its logged input
         * arrays, the block lengths and the member types. */
        while (log_event_field(&ev, &cur, &f) == 1) {
            const struct log_arg_desc *a =
                f.arg < (unsigned)ev.desc->nargs ? &ev.desc->args[f.arg] : NULL;
            if (f.kind != LOG_F_RAW || !a || !a->logged)
                continue;
            logged = 1;
            if (strstr(a->ctype, "MPI_Datatype"))
                tys = f;
            else
                bl = f;
        }
        if (!logged) {
            /* Built on a struct (resized, dup, contiguous, vector...):
             * its packed data is that struct's elements in a row. */
            int old = ev.desc->slot[LOG_S_OLDTYPE];
            return old < 0 ? 0
                           : struct_layout(x, rank, e,
                                           (uint32_t)log_event_arg(&ev, old),
                                           cnt, ty, max, depth + 1);
        }
        int64_t count = log_event_arg(&ev, ev.desc->slot[LOG_S_COUNT]);
        if (count <= 0 || count > max || !bl.len || !tys.len ||
            tys.len != (uint64_t)count * 4 || bl.len % (uint64_t)count)
            return 0;
        size_t esz = bl.len / (uint64_t)count; /* int or MPI_Count */
        for (int64_t i = 0; i < count; i++) {
            int64_t c = 0;
            int32_t c4;
            if (esz == 8) {
                memcpy(&c, bl.data + 8 * i, 8);
            } else {
                memcpy(&c4, bl.data + 4 * i, 4);
                c = c4;
            }
            memcpy(&ty[i], tys.data + 4 * i, 4);
            if (!log_mpi_type_of(ty[i]) || c < 0)
                return 0;
            cnt[i] = c;
        }
        return (int)count;
    }
    return 0;
}

/* Packed data of a struct type: each element's blocks in order, in braces
 * ("{1 2.5 abc} {2 3.5 def} ..."), at most 8 elements. */
static void print_struct_data(FILE *out, const uint8_t *p, uint64_t len,
                              const int64_t *cnt, const uint32_t *ty, int nb)
{
    uint64_t off = 0;
    int shown = 0;
    fprintf(out, "%" PRIu64 " bytes:", len);
    while (off < len && shown < 8) {
        fputs(" {", out);
        for (int b = 0; b < nb && off < len; b++) {
            const struct log_mpi_type *t = log_mpi_type_of(ty[b]);
            for (int64_t k = 0; k < cnt[b] && off + (uint64_t)t->size <= len;
                 k++) {
                if (b || k)
                    fputc(' ', out);
                print_elem(out, t, p + off);
                off += (uint64_t)t->size;
            }
        }
        fputc('}', out);
        shown++;
    }
    if (off < len)
        fputs(" ...", out);
}

/* A by-value argument's value, named where MPI names it. */
static void print_arg(struct ev_run *x, FILE *out, int rank, uint64_t n,
                      const struct log_arg_desc *a, int64_t v)
{
    if (a->enc == LOG_ENC_HANDLE) {
        uint32_t h = (uint32_t)v;
        const char *name = log_mpi_handle_name(a->ctype, h);
        if (name)
            fprintf(out, "%s (0x%08x)", name, h);
        else
            fprintf(out, "0x%08x", h);
        if (strcmp(a->ctype, "MPI_Comm") == 0 && h != EV_COMM_NULL) {
            int side;
            int c = ev_comm_of(x, rank, n, h, &side);
            if (c >= 0)
                fprintf(out, " = comm #%d", c);
            else
                fprintf(out, " = an unknown communicator");
        }
        return;
    }
    if (a->enc == LOG_ENC_PTR) {
        fprintf(out, "0x%" PRIx64, (uint64_t)v);
        return;
    }
    fprintf(out, "%" PRId64, v);
    const char *nm = a->name;
    if (a->enc != LOG_ENC_INT)
        return;
    int is_rank = strcmp(nm, "source") == 0 || strcmp(nm, "dest") == 0 ||
                  strcmp(nm, "root") == 0;
    if (is_rank && v == EV_ANY_SOURCE)
        fputs(" (MPI_ANY_SOURCE)", out);
    else if (is_rank && v == EV_PROC_NULL)
        fputs(" (MPI_PROC_NULL)", out);
    else if (is_rank && v == -3)
        fputs(" (MPI_ROOT)", out);
    else if (strstr(nm, "tag") && v == EV_ANY_TAG)
        fputs(" (MPI_ANY_TAG)", out);
    else if (v == -32766)
        fputs(" (MPI_UNDEFINED)", out);
}

/* The datatype a DATA field of argument ARG of EV is made of: the type
 * its length annotation names ("count x TYPE"), 0 when unknown. */
static uint32_t data_type(const struct log_event *ev, unsigned arg)
{
    const struct log_func_desc *d = ev->desc;
    if (!d || arg >= (unsigned)d->nargs || !d->args[arg].length)
        return 0;
    const char *x = strstr(d->args[arg].length, " x ");
    if (!x)
        return 0;
    x += 3;
    size_t len = strcspn(x, " @[");
    for (int i = 0; i < d->nargs; i++)
        if (d->args[i].enc && strlen(d->args[i].name) == len &&
            strncmp(d->args[i].name, x, len) == 0)
            return (uint32_t)log_event_arg(ev, i);
    return 0;
}

/* What the fields of one event are about: for a completion, the message
 * or collective each element (request index) completed; for a receive
 * call, its receive. */
struct subjects {
    int32_t *msg, *coll; /* by element, -1 none */
    uint64_t n;
    int32_t recv;        /* the receive of a call, -1 none */
};

static void subjects_of(struct ev_run *x, int rank, uint64_t n,
                        struct subjects *s)
{
    memset(s, 0, sizeof *s);
    s->recv = -1;
    int nu = ev_uses(x, rank, n, NULL, 0);
    struct ev_use *use = nu > 0 ? malloc((size_t)nu * sizeof *use) : NULL;
    if (!use)
        return;
    ev_uses(x, rank, n, use, nu);
    uint64_t max = 0;
    for (int u = 0; u < nu; u++) {
        uint64_t e = use[u].role == EV_DONE
                         ? ev_msg_at(x, use[u].i)->done_elem
                     : use[u].role == EV_COLL_DONE
                         ? ev_coll_at(x, use[u].i)->done_elem : 0;
        if (e + 1 > max && e < (1u << 24))
            max = e + 1;
    }
    s->msg = malloc((max ? max : 1) * sizeof *s->msg);
    s->coll = malloc((max ? max : 1) * sizeof *s->coll);
    if (!s->msg || !s->coll) {
        free(s->msg);
        free(s->coll);
        s->msg = s->coll = NULL;
        free(use);
        return;
    }
    s->n = max;
    for (uint64_t e = 0; e < max; e++)
        s->msg[e] = s->coll[e] = -1;
    for (int u = 0; u < nu; u++) {
        const struct ev_msg *m;
        switch (use[u].role) {
        case EV_DONE:
            m = ev_msg_at(x, use[u].i);
            /* An Isendrecv's two halves share the element: the receive
             * is what the fields describe. */
            if (m->done_elem < max &&
                (s->msg[m->done_elem] < 0 || !(m->flags & EV_M_SEND)))
                s->msg[m->done_elem] = use[u].i;
            break;
        case EV_COLL_DONE:
            if (ev_coll_at(x, use[u].i)->done_elem < max)
                s->coll[ev_coll_at(x, use[u].i)->done_elem] = use[u].i;
            break;
        case EV_CALL:
        case EV_PROBE:
            m = ev_msg_at(x, use[u].i);
            if (!(m->flags & EV_M_SEND) && s->recv < 0)
                s->recv = use[u].i;
            break;
        }
    }
    free(use);
}

static void subjects_release(struct subjects *s)
{
    free(s->msg);
    free(s->coll);
}

/* The receive message the fields of element ELEM describe, or -1. */
static int32_t subject_recv(struct ev_run *x, const struct subjects *s,
                            int completion, uint64_t elem)
{
    if (!completion)
        return s->recv;
    if (elem >= s->n || s->msg[elem] < 0 ||
        ev_msg_at(x, s->msg[elem])->flags & EV_M_SEND)
        return -1;
    return s->msg[elem];
}

/* A RAW field (an output argument as in memory), by its argument's C
 * type: ints, 64-bit integers, doubles, handles; else hex. */
static void print_raw(FILE *out, const struct log_func_desc *d,
                      const struct log_field *f, int raw)
{
    const char *ct = f->arg < (unsigned)d->nargs ? d->args[f->arg].ctype
                                                 : NULL;
    char kind = 'x';
    int size = 1;
    if (raw)
        ;
    else if (!ct && strcmp(d->ret, "double") == 0)
        kind = 'f', size = 8; /* MPI_Wtime's value */
    else if (!ct)
        kind = 'i', size = 4; /* the Wait/Test families' index, flag, ... */
    else if (strncmp(ct, "double", 6) == 0)
        kind = 'f', size = 8;
    else if (strncmp(ct, "MPI_Aint", 8) == 0 ||
             strncmp(ct, "MPI_Count", 9) == 0 ||
             strncmp(ct, "MPI_Offset", 10) == 0)
        kind = 'i', size = 8;
    else if (strncmp(ct, "int", 3) == 0 || strncmp(ct, "const int", 9) == 0 ||
             strncmp(ct, "MPI_Fint", 8) == 0)
        kind = 'i', size = 4;
    else if (strncmp(ct, "MPI_", 4) == 0 && strncmp(ct, "MPI_Status", 10) &&
             strncmp(ct, "MPI_File", 8) && strncmp(ct, "MPI_T_", 6))
        kind = 'h', size = 4;
    if (kind == 'x' || f->len % (uint64_t)size || !f->len) {
        fprintf(out, "%" PRIu64 " bytes: ", f->len);
        print_hex(out, f->data, f->len, raw ? 1024 : 64);
        return;
    }
    uint64_t n = f->len / (uint64_t)size;
    for (uint64_t i = 0; i < n && i < 32; i++) {
        const uint8_t *p = f->data + i * (uint64_t)size;
        if (i)
            fputc(' ', out);
        if (kind == 'h') {
            uint32_t h;
            memcpy(&h, p, 4);
            fprintf(out, "0x%08x", h);
        } else if (kind == 'f') {
            double v;
            memcpy(&v, p, 8);
            fprintf(out, "%.17g", v);
        } else if (size == 8) {
            int64_t v;
            memcpy(&v, p, 8);
            fprintf(out, "%" PRId64, v);
        } else {
            int32_t v;
            memcpy(&v, p, 4);
            fprintf(out, "%d", v);
        }
    }
    if (n > 32)
        fputs(" ...", out);
}

static const char *kind_name(unsigned k)
{
    static const char *const names[] = {
        "?", "raw", "data", "status", "string", "members", "request", "size",
        "handle", "data", "windiff",
    };
    return k < sizeof names / sizeof names[0] ? names[k] : "?";
}

int ev_print_event(struct ev_run *x, FILE *out, int rank, uint64_t n,
                   int raw, char *err, size_t errlen)
{
    struct log_event ev;
    if (ev_event(x, rank, n, &ev, err, errlen) < 0 ||
        ev_build(x, err, errlen) < 0)
        return -1;
    const struct log_func_desc *d = ev.desc;
    fprintf(out, "rank %d event %" PRIu64 ": %s\n", rank, n,
            d ? d->name : "(logging stopped)");
    fprintf(out, "  enter     %.9f s after the log's start\n",
            (double)ev.enter_ns / 1e9);
    fprintf(out, "  duration  %.3f us\n", (double)ev.dur_ns / 1000.0);
    if (ev.flags & LOG_REC_TRUNC)
        fprintf(out, "  logging stopped here (error %d)\n", -ev.ret);
    else if (ev.flags & LOG_REC_RET)
        fprintf(out, "  return    %d (an error code)\n", ev.ret);
    else
        fprintf(out, "  return    MPI_SUCCESS\n");
    if (ev.flags & LOG_REC_REPEAT)
        fprintf(out, "  repeat    %" PRIu64 " identical calls\n", ev.repeat);
    if (ev.flags & LOG_REC_PARTIAL)
        fprintf(out, "  partial   some outputs were not logged\n");
    if (!d)
        return 0;

    int64_t vals[32];
    int nv = log_event_args(&ev, vals, 32);
    if (nv > 0) {
        fprintf(out, "  arguments\n");
        for (int i = 0, k = 0; i < d->nargs && k < 32; i++) {
            if (!d->args[i].enc)
                continue;
            fprintf(out, "    %-14s ", d->args[i].name);
            print_arg(x, out, rank, n, &d->args[i], vals[k++]);
            fputc('\n', out);
        }
    }

    /* Completions (Wait/Test families) log per-request fields whose
     * argument is the request (array). */
    int completion = 0;
    for (int i = 0; i < d->nargs; i++)
        if (strncmp(d->args[i].ctype, "MPI_Request", 11) == 0 &&
            d->args[i].dir == LOG_DIR_INOUT && strstr(d->name, "_free") ==
                NULL && (strncmp(d->name, "MPI_Wait", 8) == 0 ||
                         strncmp(d->name, "MPI_Test", 8) == 0))
            completion = 1;

    struct subjects subj;
    subjects_of(x, rank, n, &subj);
    struct log_field f;
    size_t cur = 0;
    int rc, nf = 0;
    while ((rc = log_event_field(&ev, &cur, &f)) == 1) {
        if (!nf++)
            fprintf(out, "  fields\n");
        const char *an = f.arg < (unsigned)d->nargs ? d->args[f.arg].name
                                                     : "-";
        char where[64];
        if ((completion || f.elem) && f.arg < (unsigned)d->nargs)
            snprintf(where, sizeof where, "%s[%" PRIu64 "]", an, f.elem);
        else
            snprintf(where, sizeof where, "%s", an);
        fprintf(out, "    %-8s %-14s ", kind_name(f.kind), where);
        switch (f.kind) {
        case LOG_F_STATUS: {
            int32_t st[LOG_ST_N];
            if (log_field_status(&f, st) < 0) {
                fputs("(malformed)", out);
                break;
            }
            fputs("source ", out);
            if (st[LOG_ST_SOURCE] == EV_PROC_NULL)
                fputs("MPI_PROC_NULL", out);
            else if (st[LOG_ST_SOURCE] == EV_ANY_SOURCE)
                fputs("MPI_ANY_SOURCE", out);
            else
                fprintf(out, "%d", st[LOG_ST_SOURCE]);
            int32_t mi = subject_recv(x, &subj, completion, f.elem);
            const struct ev_msg *m = mi >= 0 ? ev_msg_at(x, mi) : NULL;
            if (m && m->peer >= 0 && m->comm != 0 &&
                st[LOG_ST_SOURCE] == m->peer_local)
                fprintf(out, " (world rank %d)", m->peer);
            if (st[LOG_ST_TAG] == EV_ANY_TAG)
                fputs(", tag MPI_ANY_TAG", out);
            else
                fprintf(out, ", tag %d", st[LOG_ST_TAG]);
            fprintf(out, ", count %" PRId64 " bytes, error %d",
                    log_status_bytes(st), st[LOG_ST_ERROR]);
            /* MPI sets MPI_ERROR only where a call returns
             * MPI_ERR_IN_STATUS: the array completions. */
            if (st[LOG_ST_ERROR] && strcmp(d->name, "MPI_Waitall") &&
                strcmp(d->name, "MPI_Waitsome") &&
                strcmp(d->name, "MPI_Testall") &&
                strcmp(d->name, "MPI_Testsome"))
                fputs(" (unset by MPI here)", out);
            if (log_status_cancelled(st))
                fputs(", cancelled", out);
            break;
        }
        case LOG_F_DATA: {
            uint32_t type = 0;
            if (!completion)
                type = data_type(&ev, f.arg);
            else if (f.elem < subj.n && subj.msg[f.elem] >= 0)
                type = ev_msg_at(x, subj.msg[f.elem])->datatype;
            else if (f.elem < subj.n && subj.coll[f.elem] >= 0)
                type = ev_coll_at(x, subj.coll[f.elem])->datatype;
            if (type && !raw && !log_mpi_type_of(type)) {
                /* A derived type: its elements, when they are all of one
                 * builtin type. */
                const char *ctor = NULL;
                uint32_t leaf = leaf_type(x, rank, n, type, &ctor, 0);
                int64_t cnt[64];
                uint32_t ty[64];
                int nb = leaf ? 0 : struct_layout(x, rank, n, type, cnt, ty,
                                                  64, 0);
                fprintf(out, "(datatype 0x%08x%s%s%s) ", type,
                        ctor ? ", made by " : "", ctor ? ctor : "",
                        leaf || nb ? "" : ", elements unknown");
                if (nb) {
                    print_struct_data(out, f.data, f.len, cnt, ty, nb);
                    break;
                }
                type = leaf;
            }
            print_data(out, f.data, f.len, type, raw);
            break;
        }
        case LOG_F_MEMBERS:
            fprintf(out, "%s group, world ranks:", f.elem ? "remote"
                                                          : "local");
            for (uint64_t i = 0; i + 4 <= f.len && i < 4 * 64; i += 4) {
                int32_t w;
                memcpy(&w, f.data + i, 4);
                fprintf(out, " %d", w);
            }
            if (f.len > 4 * 64)
                fputs(" ...", out);
            break;
        case LOG_F_REQUEST:
        case LOG_F_HANDLE: {
            uint32_t h;
            if (log_field_handle(&f, &h) < 0) {
                fputs("(malformed)", out);
                break;
            }
            const char *ct = f.arg < (unsigned)d->nargs
                                 ? d->args[f.arg].ctype : "";
            const char *name = log_mpi_handle_name(ct, h);
            fprintf(out, "0x%08x", h);
            if (name)
                fprintf(out, " (%s)", name);
            if (strncmp(ct, "MPI_Comm", 8) == 0 && h != EV_COMM_NULL) {
                int side;
                int c = ev_comm_of(x, rank, n, h, &side);
                if (c >= 0)
                    fprintf(out, " = comm #%d", c);
            }
            if (f.kind == LOG_F_REQUEST && f.elem < subj.n) {
                if (subj.msg[f.elem] >= 0) {
                    const struct ev_msg *m = ev_msg_at(x, subj.msg[f.elem]);
                    fprintf(out, ": event %" PRIu64 " %s", m->event,
                            log_func_name(m->fn));
                } else if (subj.coll[f.elem] >= 0) {
                    const struct ev_coll *c =
                        ev_coll_at(x, subj.coll[f.elem]);
                    fprintf(out, ": event %" PRIu64 " %s", c->event,
                            log_func_name(c->fn));
                }
            }
            break;
        }
        case LOG_F_STRING:
            print_cstring(out, f.data, f.len, 256);
            break;
        case LOG_F_SIZE:
            if (f.len == 8) {
                uint64_t v;
                memcpy(&v, f.data, 8);
                fprintf(out, "%" PRIu64, v);
            } else {
                print_hex(out, f.data, f.len, 64);
            }
            break;
        case LOG_F_RAW:
            print_raw(out, d, &f, raw);
            break;
        default:
            fprintf(out, "%" PRIu64 " bytes: ", f.len);
            print_hex(out, f.data, f.len, raw ? 1024 : 64);
            break;
        }
        fputc('\n', out);
    }
    subjects_release(&subj);
    if (rc < 0)
        fprintf(out, "    (malformed fields)\n");

    /* What it matched. */
    struct ev_use u1;
    struct ev_ref r1;
    if (ev_uses(x, rank, n, &u1, 1) > 0 ||
        ev_partners(x, rank, n, &r1, 1, NULL, 0) > 0) {
        fprintf(out, "  matches\n");
        char *buf = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&buf, &len);
        if (mem) {
            ev_print_match(x, mem, rank, n, NULL, 0);
            fclose(mem);
            for (char *line = buf, *nl; line && *line; line = nl + 1) {
                if (!(nl = strchr(line, '\n')))
                    break;
                fprintf(out, "    %.*s\n", (int)(nl - line), line);
            }
            free(buf);
        }
    }
    return 0;
}

/* ---- queues ------------------------------------------------------------- */

int ev_print_queues(struct ev_run *x, FILE *out, int rank, uint64_t n,
                    char *err, size_t errlen)
{
    struct ev_queue q;
    if (ev_pending(x, rank, n, &q, err, errlen) < 0)
        return -1;
    uint64_t now = ev_walltime(x, rank, n);
    fprintf(out, "rank %d before event %" PRIu64 " (%s)\n", rank, n,
            fn_at(x, rank, n));
    fprintf(out, "messages sent to rank %d and not received before event "
            "%" PRIu64 ": %zu\n", rank, n, q.nincoming);
    if (q.nincoming)
        fprintf(out, "  %5s %9s  %-18s %6s %-5s %9s %-7s %s\n", "from",
                "event", "function", "tag", "comm", "bytes", "sent",
                "received by");
    for (size_t i = 0; i < q.nincoming; i++) {
        const struct ev_msg *s = ev_msg_at(x, q.incoming[i]);
        const struct ev_msg *r = s->match >= 0 ? ev_msg_at(x, s->match)
                                               : NULL;
        int64_t bytes = r && r->bytes >= 0 ? r->bytes : s->bytes;
        char comm[16], by[96], b[24];
        comm_str(comm, sizeof comm, s->comm);
        if (bytes >= 0)
            snprintf(b, sizeof b, "%" PRId64, bytes);
        else
            snprintf(b, sizeof b, "?");
        if (!r)
            snprintf(by, sizeof by, "none");
        else if (r->done == EV_NONE)
            snprintf(by, sizeof by, "event %" PRIu64 " %s, never completed",
                     r->event, log_func_name(r->fn));
        else if (r->done != r->event)
            snprintf(by, sizeof by, "event %" PRIu64 " %s (posted event "
                     "%" PRIu64 " %s)", r->done, fn_at(x, rank, r->done),
                     r->event, log_func_name(r->fn));
        else
            snprintf(by, sizeof by, "event %" PRIu64 " %s", r->event,
                     log_func_name(r->fn));
        fprintf(out, "  %5d %9" PRIu64 "  %-18s %6d %-5s %9s %-7s %s\n",
                s->rank, s->event, log_func_name(s->fn), s->tag, comm, b,
                ev_walltime(x, s->rank, s->event) <= now ? "before"
                                                         : "after",
                by);
    }
    fprintf(out, "pending requests of rank %d before event %" PRIu64
            ": %zu\n", rank, n, q.nrequests + q.ncolls);
    if (q.nrequests + q.ncolls)
        fprintf(out, "  %9s  %-18s %6s %6s %-5s %s\n", "event", "function",
                "peer", "tag", "comm", "completed by");
    for (size_t i = 0; i < q.nrequests; i++) {
        const struct ev_msg *m = ev_msg_at(x, q.requests[i]);
        char comm[16], by[80], peer[16], tag[16];
        comm_str(comm, sizeof comm, m->comm);
        if (m->flags & EV_M_PROC_NULL)
            snprintf(peer, sizeof peer, "null");
        else if (m->peer >= 0)
            snprintf(peer, sizeof peer, "%d", m->peer);
        else
            snprintf(peer, sizeof peer, "any");
        if (m->tag >= 0)
            snprintf(tag, sizeof tag, "%d", m->tag);
        else
            snprintf(tag, sizeof tag, "any");
        if (m->done == EV_NONE)
            snprintf(by, sizeof by, "never");
        else
            snprintf(by, sizeof by, "event %" PRIu64 " %s", m->done,
                     fn_at(x, rank, m->done));
        fprintf(out, "  %9" PRIu64 "  %-18s %6s %6s %-5s %s\n", m->event,
                log_func_name(m->fn), peer, tag, comm, by);
    }
    for (size_t i = 0; i < q.ncolls; i++) {
        const struct ev_coll *c = ev_coll_at(x, q.colls[i]);
        char comm[16], by[80];
        comm_str(comm, sizeof comm, c->comm);
        if (c->done == EV_NONE)
            snprintf(by, sizeof by, "never");
        else
            snprintf(by, sizeof by, "event %" PRIu64 " %s", c->done,
                     fn_at(x, rank, c->done));
        fprintf(out, "  %9" PRIu64 "  %-18s %6s %6s %-5s %s\n", c->event,
                log_func_name(c->fn), "-", "-", comm, by);
    }
    ev_queue_release(&q);
    return 0;
}
