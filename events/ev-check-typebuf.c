/*
 * ev-check-typebuf.c - the type.* checks (ev-check.h; docs/check.md,
 * "Datatypes against the buffer's C type"): the MPI datatype passed with
 * a message buffer against the C type of the variable the buffer lies in,
 * from the program's DWARF (ev-dwvar.h).
 *
 *   type.buffer    a basic type of the datatype's type map lies on a
 *                  variable's scalar of another kind or size (MPI_INT on
 *                  a long, MPI_DOUBLE on an int), on a struct's padding or
 *                  across a scalar; a derived datatype whose extent is not
 *                  the size of the structs of the array it is used over
 *                  (MPI 4.0 3.3.1: "the type of each variable in the
 *                  send buffer ... matches the type specified for that
 *                  entry by the send operation"; 5.1.2, 5.1.7 type maps);
 *   type.overflow  a buffer whose count x datatype reaches past the
 *                  variable's end (3.2.2, 3.2.4: the buffer "consists of
 *                  count consecutive entries"): an error when MPI read or
 *                  wrote there, a warning when a receive only could have.
 *
 * The recorder logs, with the first call from each call site of the
 * program, the call's buffer addresses and the calling frame's CFA
 * (LOG_F_FRAME): the checks look at those records only, one per site and
 * rank, so they cost a pass over the records' headers. A buffer on the
 * heap, a variable the DWARF does not place, a union, a v-collective's or
 * a non-root's buffer, a datatype whose type map the log does not give
 * (indexed, subarray, darray...): nothing is said.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "ev-dwvar.h"
#include "ev-int.h"
#include "ev-typemap.h"
#include "log-abi.h"

#define MAX_ELEMS 16   /* elements of a buffer looked at (first ones) */
#define MAX_SITES 8    /* ranks named by one finding */

/* A finding kept until every rank is seen: the same message from the same
 * site of several ranks is one finding. */
struct kept {
    const char *check;
    int severity;
    uint64_t site;
    char msg[EV_CHECK_MSG_LEN];
    struct ev_check_site s[MAX_SITES];
    int ns, nranks;
};

struct tb {
    struct ev_check_ctx *c;
    int which;               /* 0 type.buffer, 1 type.overflow */
    struct ev_dwvar_cache *dw;
    struct ev__ctors ctors;  /* the rank's constructors */
    struct kept *k;
    size_t nk, capk;
    int oom;
};

/* Whether basic entry E may lie on scalar S (3.3.1's type matching, by
 * kind and size: signedness and a C type's spelling not told apart). */
static int compatible(const struct ev__tment *e, const struct ev_dwscalar *s)
{
    if (e->kind == 'b' || s->kind == EV_DW_UNKNOWN ||
        s->kind == EV_DW_OUTSIDE || s->kind == EV_DW_BYTES)
        return 1;
    if (s->kind == EV_DW_PAD || s->into != 0)
        return 0;
    int same = s->size == (uint64_t)e->size;
    switch (e->kind) {
    case 'i':
    case 'u':
        return same && (s->kind == EV_DW_SIGNED || s->kind == EV_DW_UNSIGNED ||
                        s->kind == EV_DW_CHAR || s->kind == EV_DW_BOOL ||
                        s->kind == EV_DW_POINTER);
    case 'c':
        return same && s->kind != EV_DW_FLOAT && s->kind != EV_DW_COMPLEX &&
               s->kind != EV_DW_POINTER;
    case 'l':
        return same && (s->kind == EV_DW_BOOL || s->kind == EV_DW_SIGNED ||
                        s->kind == EV_DW_UNSIGNED || s->kind == EV_DW_CHAR);
    case 'f':
        return same && s->kind == EV_DW_FLOAT;
    case 'z': /* a complex, or its two halves in an array of floats */
        return (same && s->kind == EV_DW_COMPLEX) ||
               (s->kind == EV_DW_FLOAT && 2 * s->size == (uint64_t)e->size);
    }
    return 1;
}

static const char *kind_words(char k)
{
    switch (k) {
    case 'i':
    case 'u':
        return "integer";
    case 'f':
        return "floating-point";
    case 'z':
        return "complex";
    case 'c':
        return "character";
    case 'l':
        return "logical";
    }
    return "value";
}

/* "a" or "an" before WORD. */
static const char *article(const char *word)
{
    return strchr("aeiouAEIOU", word[0]) && word[0] ? "an" : "a";
}

static void keep(struct tb *t, const char *check, int severity, int r,
                 uint64_t event, uint64_t site, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
static void keep(struct tb *t, const char *check, int severity, int r,
                 uint64_t event, uint64_t site, const char *fmt, ...)
{
    char msg[EV_CHECK_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < t->nk; i++) {
        struct kept *k = &t->k[i];
        if (k->site == site && k->check == check && !strcmp(k->msg, msg)) {
            if (k->ns < MAX_SITES)
                k->s[k->ns++] =
                    (struct ev_check_site){r, event, "called here"};
            k->nranks++;
            if (severity < k->severity)
                k->severity = severity;
            return;
        }
    }
    if (util_grow(&t->k, &t->capk, t->nk + 1, sizeof *t->k) < 0) {
        t->oom = 1;
        return;
    }
    struct kept *k = &t->k[t->nk++];
    memset(k, 0, sizeof *k);
    k->check = check;
    k->severity = severity;
    k->site = site;
    snprintf(k->msg, sizeof k->msg, "%s", msg);
    k->s[0] = (struct ev_check_site){r, event, "called here"};
    k->ns = k->nranks = 1;
}

/* The datatype H's name: a builtin's, else its handle and constructor. */
static void type_words(struct tb *t, int r, uint64_t at, uint32_t h,
                       char *buf, size_t len)
{
    const struct log_mpi_type *b = log_mpi_type_of(h);
    const char *pn = log_mpi_handle_name("MPI_Datatype", h);
    if (b || pn) {
        snprintf(buf, len, "%s", b ? b->name : pn);
        return;
    }
    const struct ev__ctor *c = ev__ctor_of(&t->ctors, h, at);
    if (c)
        snprintf(buf, len, "datatype 0x%08" PRIx32 " (made by %s at "
                 "event %" PRIu64 ")", h,
                 log_func_name(ev_fn(t->c->x, r, c->event)), c->event);
    else
        snprintf(buf, len, "datatype 0x%08" PRIx32, h);
}

/* The bytes a blocking receive's record says arrived into argument ARG,
 * -1 unknown. */
static int64_t received(const struct log_event *ev, int arg)
{
    struct log_field f;
    size_t cur = 0;
    while (log_event_field(ev, &cur, &f) == 1)
        if (f.kind == LOG_F_DATA && f.arg == (unsigned)arg)
            return (int64_t)f.len;
    return -1;
}

static void one_buffer(struct tb *t, int r, uint64_t e,
                       const struct log_event *ev, uint64_t site,
                       Dwfl_Module *mod, uint64_t bias, uint64_t cfa,
                       const struct log_bufaddr *b)
{
    const struct log_func_desc *d = ev->desc;
    const char *an = d->args[b->arg].name;
    uint32_t h = ev__data_type(ev, (unsigned)b->arg);
    struct ev_dwvar v;
    if (!b->known || !h || b->addr == 0 || b->addr >= LOG_BUFADDR_ESC ||
        ev_dwvar_at(&t->dw, mod, bias, site - 1, cfa, b->addr, &v) != 1)
        return;
    char tn[160], where[320];
    type_words(t, r, e, h, tn, sizeof tn);
    snprintf(where, sizeof where, "`%.60s` (%.60s%s%.160s)", v.name, v.type,
             v.decl[0] ? ", declared at " : "", v.decl);
    uint64_t base = b->addr - v.addr;
    int64_t count = -1;
    int whole = ev__data_count(ev, (unsigned)b->arg, &count); /* the span is count x it */
    if (t->which == 1) {
        int64_t from = (int64_t)base + b->lb;
        uint64_t end = (uint64_t)from + b->span;
        if (b->span == 0 || from < 0 || end <= v.size)
            return;
        int sev = EV_CHECK_ERROR;
        if (!strstr(d->args[b->arg].ctype, "const") &&
            (d->kind == LOG_K_RECV || d->kind == LOG_K_MRECV ||
                       d->kind == LOG_K_SENDRECV)) {
            /* A receive writes only what arrived: past the end if the
             * whole count arrived, or a builtin type's bytes did (a
             * nonblocking receive's: not known here). */
            int64_t got = d->bufs_if_pending ? received(ev, b->arg) : -1;
            struct ev__tmap m;
            ev__tmap_build(t->c->x, &t->ctors, r, e, h, &m);
            int64_t packed = 0;
            for (size_t i = 0; i < m.n; i++)
                packed += m.e[i].size;
            int all = !m.bad && whole && got >= 0 && got >= count * packed;
            ev__tmap_release(&m);
            if (!all && (got < 0 || !log_mpi_type_of(h) ||
                         (uint64_t)from + (uint64_t)got <= v.size))
                sev = EV_CHECK_WARNING;
        }
        char amount[200], at[64] = "its start";
        if (whole)
            snprintf(amount, sizeof amount, "%" PRId64 " x %s", count, tn);
        else
            snprintf(amount, sizeof amount, "its %s elements", tn);
        if (from)
            snprintf(at, sizeof at, "its byte %" PRId64, from);
        keep(t, "type.overflow", sev, r, e, site,
             "%s's %s is %s, %" PRIu64 " bytes, but %s %s %" PRIu64
             " bytes from %s: %" PRIu64 " past its end", d->name, an, where,
             v.size, amount,
             sev == EV_CHECK_ERROR ? "span" : "can take", b->span, at,
             end - v.size);
        return;
    }
    struct ev__tmap m;
    ev__tmap_build(t->c->x, &t->ctors, r, e, h, &m);
    if (m.bad || !m.n) {
        ev__tmap_release(&m);
        return;
    }
    int64_t ext = m.ub - m.lb;
    /* The extent as MPI had it: from the span it gave the recorder. */
    if (whole && count > 1 && b->span > (uint64_t)(m.tub - m.tlb) &&
        (b->span - (uint64_t)(m.tub - m.tlb)) % (uint64_t)(count - 1) == 0) {
        ext = (int64_t)((b->span - (uint64_t)(m.tub - m.tlb)) /
                        (uint64_t)(count - 1));
        m.sure = 1;
    }
    int64_t n = whole ? count : 1;
    if (!m.sure && n > 1)
        n = 1;
    if (n > MAX_ELEMS)
        n = MAX_ELEMS;
    for (int64_t k = 0; k < n; k++) {
        for (size_t i = 0; i < m.n; i++) {
            int64_t off = (int64_t)base + k * ext + m.e[i].disp;
            struct ev_dwscalar s;
            if (off < 0)
                continue;
            ev_dwvar_scalar(&v, (uint64_t)off, &s);
            if (compatible(&m.e[i], &s))
                continue;
            const struct log_mpi_type *bt = log_mpi_type_of(m.e[i].handle);
            char what[400], on[400];
            char el[64] = "";
            if (k > 0)
                snprintf(el, sizeof el, " (in element %" PRId64 " of %" PRId64
                         ")", k + 1, count);
            if (m.n == 1 && k == 0)
                snprintf(what, sizeof what, "%s (%s, %d byte%s) lies on", tn,
                         kind_words(m.e[i].kind), m.e[i].size,
                         m.e[i].size == 1 ? "" : "s");
            else if (!bt || m.e[i].handle == h)
                snprintf(what, sizeof what, "%s puts %s %s of %d byte%s at "
                         "byte %" PRId64 " of it%s, on", tn,
                         article(kind_words(m.e[i].kind)),
                         kind_words(m.e[i].kind), m.e[i].size,
                         m.e[i].size == 1 ? "" : "s", off, el);
            else
                snprintf(what, sizeof what, "%s puts %s (%s, %d byte%s) at "
                         "byte %" PRId64 " of it%s, on", tn, bt->name,
                         kind_words(m.e[i].kind), m.e[i].size,
                         m.e[i].size == 1 ? "" : "s", off, el);
            if (s.kind == EV_DW_PAD)
                snprintf(on, sizeof on, "the padding %s %.60s%.128s",
                         s.into ? "after" : "in", v.name, s.path);
            else
                snprintf(on, sizeof on, "%s%.60s%.128s, %s %.64s (%" PRIu64
                         " byte%s)", s.into ? "the middle of " : "", v.name,
                         s.path, article(s.name), s.name, s.size,
                         s.size == 1 ? "" : "s");
            keep(t, "type.buffer", EV_CHECK_ERROR, r, e, site,
                 "%s's %s is %s, but %s %s", d->name, an, where, what, on);
            ev__tmap_release(&m);
            return;
        }
    }
    /* Elements of an array of structs a datatype of another extent. */
    char sn[128];
    uint64_t esz = ev_dwvar_struct_elem(&v, base, sn, sizeof sn);
    if (whole && count > 1 && m.sure && esz && ext != (int64_t)esz &&
        m.tub - m.tlb <= (int64_t)esz && !log_mpi_type_of(h))
        keep(t, "type.buffer", EV_CHECK_ERROR, r, e, site,
             "%s's %s is %s, but %s has extent %" PRId64 " bytes where %s "
             "is %" PRIu64 ": elements 2 to %" PRId64 " of the %" PRId64
             " lie across the structs (MPI_Type_create_resized to "
             "sizeof)", d->name, an, where, tn, ext, sn, esz, count, count);
    ev__tmap_release(&m);
}

/* Rank R: its constructors, then each site's first record. */
static int walk(struct tb *t, int r)
{
    struct ev_run *x = t->c->x;
    uint64_t n = x->ranks[r].log.nevents;
    t->ctors.n = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (t->c->interrupted && *t->c->interrupted)
            return 0;
        unsigned fl = ev_rec_flags(x, r, i);
        const struct log_func_desc *d = log_func_by_id(ev_fn(x, r, i));
        if (!d)
            continue;
        int ctor = d->kind == LOG_K_TYPE_CTOR;
        int probe = d->nbufs > 0 && (fl & LOG_REC_SITE) &&
                    (fl & LOG_REC_BUFS) && !(fl & LOG_REC_RET);
        if (!ctor && !probe)
            continue;
        struct log_event ev;
        if (ev_event(x, r, i, &ev, NULL, 0) < 0)
            break;
        if (ctor) {
            struct log_field f;
            uint32_t h;
            int nt = d->slot[LOG_S_NEWTYPE];
            if (nt >= 0 && ev.ret == 0 &&
                log_event_find(&ev, (unsigned)nt, LOG_F_HANDLE, &f) &&
                log_field_handle(&f, &h) == 0) {
                if (ev__ctors_add(&t->ctors, h, i) < 0)
                    return -1;
            }
            continue;
        }
        uint64_t cfa, site, bias;
        uint32_t obj;
        Dwfl_Module *mod;
        if (log_event_frame(&ev, &cfa) != 1 ||
            !log_event_site(&ev, &obj, &site) || site == 0 ||
            !(mod = ev__srcline_module(x, r, obj, &bias)))
            continue;
        for (int b = 0; b < d->nbufs; b++) {
            struct log_bufaddr ba;
            if (log_event_bufaddr(&ev, b, &ba) == 1)
                one_buffer(t, r, i, &ev, site, mod, bias, cfa, &ba);
        }
    }
    return t->oom ? -1 : 0;
}

static int run(struct ev_check_ctx *c, char *err, size_t errlen, int which)
{
    struct tb t = {.c = c, .which = which};
    int rc = 0;
    for (int i = 0; rc == 0 && i < c->x->nlogged; i++) {
        int r = c->x->logged[i];
        if (c->x->ranks[r].present)
            rc = walk(&t, r);
    }
    for (size_t i = 0; rc == 0 && i < t.nk; i++) {
        struct kept *k = &t.k[i];
        struct ev_check_finding f = {k->check, k->severity, "", k->s, k->ns};
        if (k->nranks > 1)
            snprintf(f.message, sizeof f.message, "%.400s (on %d ranks)",
                     k->msg, k->nranks);
        else
            snprintf(f.message, sizeof f.message, "%s", k->msg);
        c->emit(c->ud, &f);
    }
    ev_dwvar_cache_free(t.dw);
    free(t.ctors.v);
    free(t.k);
    if (rc < 0)
        snprintf(err, errlen, "out of memory");
    return rc;
}

static int run_buffer(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, err, errlen, 0);
}

static int run_overflow(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, err, errlen, 1);
}

const struct ev_check_def ev_check_typebuf_defs[] = {
    {"type.buffer", EV_CHECK_ERROR,
     "a datatype that does not match the C type of the variable its buffer "
     "lies in (MPI_INT over a long, a struct's displacements off its "
     "members, an extent other than the struct's size)",
     run_buffer},
    {"type.overflow", EV_CHECK_ERROR,
     "a buffer whose count x datatype reaches past the end of the variable "
     "it lies in (a receive that only could have: a warning)",
     run_overflow},
    {NULL, 0, NULL, NULL},
};
