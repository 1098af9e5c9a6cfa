/*
 * The type signatures of a run's datatypes, their comparison, and calls
 * written with their arguments (ev-check-types.h), for the p2p.* and
 * coll.* checks.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check-types.h"
#include "ev-int.h"
#include "log-abi.h"

/* A struct's signature is expanded into runs up to this many; past it the
 * signature is unknown (a check skips it rather than guess). */
#define MAX_RUNS 4096

/* One signature in the pool. */
struct psig {
    int state, fn;
    size_t off;  /* into runs */
    int nruns;
    int64_t rep;
};

/* A handle bound at an event to a signature. */
struct bind {
    uint32_t handle;
    uint64_t event;
    int32_t sig;
};

struct ev__types {
    struct ev__run *runs;
    size_t nruns, capruns;
    struct psig *sigs;
    size_t nsigs, capsigs;
    struct bind **b;  /* per rank, sorted by (handle, event) */
    size_t *nb;
    int nranks;
    int oom;
};

/* The predefined pair types MPICH makes as structs (MINLOC/MAXLOC). */
static const struct {
    uint32_t h;
    struct ev__run r[2];
} pairs[] = {
    {DRDB_MPI_FLOAT_INT, {{EV__MPI_FLOAT, 1}, {EV__MPI_INT, 1}}},
    {DRDB_MPI_DOUBLE_INT, {{EV__MPI_DOUBLE, 1}, {EV__MPI_INT, 1}}},
    {DRDB_MPI_LONG_INT, {{EV__MPI_LONG, 1}, {EV__MPI_INT, 1}}},
    {DRDB_MPI_SHORT_INT, {{EV__MPI_SHORT, 1}, {EV__MPI_INT, 1}}},
    {DRDB_MPI_LONG_DOUBLE_INT, {{EV__MPI_LONG_DOUBLE, 1}, {EV__MPI_INT, 1}}},
};

/* A new signature of NRUNS runs (copied from R, may be NULL: zeroed);
 * adjacent runs of one type merged. Its index, or -1. */
static int32_t sig_add(struct ev__types *t, int state, int fn,
                       const struct ev__run *r, int nruns, int64_t rep)
{
    if (util_grow(&t->sigs, &t->capsigs, t->nsigs + 1, sizeof *t->sigs) < 0 ||
        util_grow(&t->runs, &t->capruns, t->nruns + (size_t)nruns + 1,
                  sizeof *t->runs) < 0) {
        t->oom = 1;
        return -1;
    }
    struct psig *s = &t->sigs[t->nsigs];
    s->state = state;
    s->fn = fn;
    s->off = t->nruns;
    s->nruns = 0;
    for (int i = 0; i < nruns; i++) {
        if (r[i].n == 0)
            continue;
        struct ev__run *last = s->nruns ? &t->runs[t->nruns - 1] : NULL;
        if (last && last->type == r[i].type && last->n > 0 && r[i].n > 0)
            last->n += r[i].n;
        else
            t->runs[t->nruns++] = r[i], s->nruns++;
    }
    /* One run repeated is one longer run. */
    if (s->nruns == 1 && state == EV__SIG_OK && rep > 1) {
        t->runs[s->off].n *= rep;
        rep = 1;
    }
    s->rep = s->nruns ? rep : 1;
    return (int32_t)t->nsigs++;
}

static void fill(const struct ev__types *t, int32_t i, struct ev__sig *s)
{
    const struct psig *p = &t->sigs[i];
    s->state = p->state;
    s->runs = t->runs + p->off;
    s->nruns = p->nruns;
    s->rep = p->rep;
    s->fn = p->fn;
    s->size = -1;
    if (p->state == EV__SIG_OK) {
        int64_t sz = 0;
        for (int k = 0; k < p->nruns; k++)
            sz += s->runs[k].n * log_mpi_type_size(s->runs[k].type);
        s->size = sz * p->rep;
    }
}

/* A builtin type, predefined pair or marker H as a signature in *S (its
 * own storage): 1, or 0 when H is not predefined. */
static int predefined(uint32_t h, struct ev__sig *s)
{
    s->state = EV__SIG_OK;
    s->rep = 1;
    s->fn = 0;
    s->runs = s->own;
    s->nruns = 0;
    s->size = 0;
    if (h == DRDB_MPI_LB || h == DRDB_MPI_UB)
        return 1; /* no data */
    if (log_mpi_type_size(h) > 0) {
        s->own[0] = (struct ev__run){h, 1};
        s->nruns = 1;
        s->size = log_mpi_type_size(h);
        return 1;
    }
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i].h == h) {
            s->own[0] = pairs[i].r[0];
            s->own[1] = pairs[i].r[1];
            s->nruns = 2;
            s->size = log_mpi_type_size(pairs[i].r[0].type) + 4;
            return 1;
        }
    return 0;
}

static void unknown(struct ev__sig *s)
{
    s->state = EV__SIG_UNKNOWN;
    s->runs = s->own;
    s->nruns = 0;
    s->rep = 1;
    s->size = -1;
    s->fn = 0;
}

/* The signature handle H has while rank R's log is being read: from the
 * handle map M of the pass. */
static void sig_now(const struct ev__types *t, struct util_htab *m,
                    uint32_t h, struct ev__sig *s)
{
    if (predefined(h, s))
        return;
    int32_t *v = ev__hmap_get(m, h);
    if (v) {
        fill(t, *v, s);
        return;
    }
    unknown(s);
}

/* OLD repeated K times (K < 0: an unknown number of times). */
static int32_t sig_times(struct ev__types *t, const struct ev__sig *old,
                         int64_t k, int fn)
{
    if (old->state == EV__SIG_UNKNOWN)
        return sig_add(t, EV__SIG_UNKNOWN, fn, NULL, 0, 1);
    if (k < 0 || old->state == EV__SIG_UNIFORM) {
        uint32_t leaf = ev__sig_leaf(old);
        if (!old->nruns)
            return sig_add(t, EV__SIG_OK, fn, NULL, 0, 1);
        struct ev__run r = {leaf, -1};
        return leaf ? sig_add(t, EV__SIG_UNIFORM, fn, &r, 1, 1)
                    : sig_add(t, EV__SIG_UNKNOWN, fn, NULL, 0, 1);
    }
    /* Copy the runs first: OLD may point into the pool sig_add grows. */
    struct ev__run tmp[64], *r = old->nruns <= 64 ? tmp
                                     : malloc((size_t)old->nruns * sizeof *r);
    if (!r) {
        t->oom = 1;
        return -1;
    }
    memcpy(r, old->runs, (size_t)old->nruns * sizeof *r);
    int32_t i = sig_add(t, EV__SIG_OK, fn, r, old->nruns, old->rep * k);
    if (r != tmp)
        free(r);
    return i;
}

/* A struct: CNT[i] elements of each member type TY[i] in a row. */
static int32_t sig_struct(struct ev__types *t, struct util_htab *m,
                          const int64_t *cnt, const uint32_t *ty, int64_t nb,
                          int fn)
{
    struct ev__run *out = malloc(MAX_RUNS * sizeof *out);
    int n = 0, state = EV__SIG_OK;
    uint32_t leaf = 0;
    int mixed = 0;
    if (!out) {
        t->oom = 1;
        return -1;
    }
    for (int64_t i = 0; i < nb && state != EV__SIG_UNKNOWN; i++) {
        struct ev__sig s;
        sig_now(t, m, ty[i], &s);
        if (s.state == EV__SIG_UNKNOWN || cnt[i] < 0) {
            state = EV__SIG_UNKNOWN;
            break;
        }
        if (!cnt[i] || !s.nruns)
            continue;
        uint32_t l = ev__sig_leaf(&s);
        if (!l || (leaf && l != leaf))
            mixed = 1;
        leaf = leaf ? leaf : l;
        if (s.state == EV__SIG_UNIFORM) {
            state = EV__SIG_UNIFORM;
            continue;
        }
        if (state != EV__SIG_OK)
            continue;
        if (s.nruns == 1) {
            if (n == MAX_RUNS) {
                state = EV__SIG_UNKNOWN;
                break;
            }
            out[n++] = (struct ev__run){s.runs[0].type, s.runs[0].n * cnt[i]};
            continue;
        }
        for (int64_t k = 0; k < s.rep * cnt[i] && state == EV__SIG_OK; k++)
            for (int j = 0; j < s.nruns; j++) {
                if (n == MAX_RUNS) {
                    state = EV__SIG_UNKNOWN;
                    break;
                }
                out[n++] = s.runs[j];
            }
    }
    int32_t r;
    if (state == EV__SIG_UNIFORM && !mixed && leaf) {
        struct ev__run u = {leaf, -1};
        r = sig_add(t, EV__SIG_UNIFORM, fn, &u, 1, 1);
    } else if (state != EV__SIG_OK) {
        r = sig_add(t, EV__SIG_UNKNOWN, fn, NULL, 0, 1);
    } else {
        r = sig_add(t, EV__SIG_OK, fn, out, n, 1);
    }
    free(out);
    return r;
}

int64_t ev__struct_arrays(const struct log_event *ev, int64_t **cnt,
                          int64_t **disp, uint32_t **ty)
{
    const struct log_func_desc *d = ev->desc;
    int64_t count = d->slot[LOG_S_COUNT] >= 0
                        ? log_event_arg(ev, d->slot[LOG_S_COUNT]) : -1;
    struct log_field f, bl = {0}, dis = {0}, tys = {0};
    size_t cur = 0;
    *cnt = *disp = NULL;
    *ty = NULL;
    while (log_event_next_stored(ev, &cur, &f) == 1) {
        const struct log_arg_desc *a =
            f.arg < (unsigned)d->nargs ? &d->args[f.arg] : NULL;
        if (f.kind != LOG_F_RAW || !a || !a->logged)
            continue;
        if (strstr(a->ctype, "MPI_Datatype"))
            tys = f;
        else if (strstr(a->name, "displacements"))
            dis = f;
        else if (strstr(a->name, "blocklengths"))
            bl = f;
    }
    if (count == 0)
        return 0;
    if (count < 0 || count > (1 << 24) || !bl.len ||
        tys.len != (uint64_t)count * 4 || bl.len % (uint64_t)count ||
        (dis.len && dis.len != (uint64_t)count * 8))
        return -1;
    size_t esz = bl.len / (uint64_t)count; /* int or MPI_Count */
    if (esz != 4 && esz != 8)
        return -1;
    *cnt = malloc((size_t)count * sizeof **cnt);
    *ty = malloc((size_t)count * sizeof **ty);
    if (dis.len)
        *disp = malloc((size_t)count * sizeof **disp);
    if (!*cnt || !*ty || (dis.len && !*disp)) {
        free(*cnt);
        free(*ty);
        free(*disp);
        *cnt = *disp = NULL;
        *ty = NULL;
        return -1;
    }
    for (int64_t i = 0; i < count; i++) {
        int32_t c4;
        if (esz == 8) {
            memcpy(&(*cnt)[i], bl.data + 8 * i, 8);
        } else {
            memcpy(&c4, bl.data + 4 * i, 4);
            (*cnt)[i] = c4;
        }
        memcpy(&(*ty)[i], tys.data + 4 * i, 4);
        if (*disp)
            memcpy(&(*disp)[i], dis.data + 8 * i, 8);
    }
    return count;
}

/* The signature constructor EV makes (its kind is LOG_K_TYPE_CTOR). */
static int32_t sig_ctor(struct ev__types *t, struct util_htab *m,
                        const struct log_event *ev)
{
    const struct log_func_desc *d = ev->desc;
    int fn = ev->fn;
    int64_t count = d->slot[LOG_S_COUNT] >= 0
                        ? log_event_arg(ev, d->slot[LOG_S_COUNT]) : -1;
    struct ev__sig old;
    if (d->slot[LOG_S_OLDTYPE] < 0) {
        /* A struct (logged layout), or an f90 type (not modelled). */
        int64_t *cnt, *disp;
        uint32_t *ty;
        int64_t nb = ev__struct_arrays(ev, &cnt, &disp, &ty);
        int32_t i = nb < 0 ? sig_add(t, EV__SIG_UNKNOWN, fn, NULL, 0, 1)
                           : sig_struct(t, m, cnt, ty, nb, fn);
        free(cnt);
        free(disp);
        free(ty);
        return i;
    }
    sig_now(t, m, (uint32_t)log_event_arg(ev, d->slot[LOG_S_OLDTYPE]), &old);
    /* By the by-value arguments: contiguous(count), vector and hvector
     * (count x blocklength), the block forms (count x blocklength);
     * resized and dup keep the signature; the forms with arrays of block
     * lengths or sizes the log lacks (indexed, hindexed, subarray,
     * darray) an unknown number of times. */
    int64_t blocklen = 1;
    int has_arrays = 0;
    for (int i = 0; i < d->nargs; i++) {
        if (!strcmp(d->args[i].name, "blocklength")) {
            blocklen = log_event_arg(ev, i);
        }
        if (strstr(d->args[i].ctype, "[]") &&
            (strstr(d->args[i].name, "blocklengths") ||
             strstr(d->args[i].name, "sizes")))
            has_arrays = 1;
    }
    if (has_arrays)
        return sig_times(t, &old, -1, fn);
    if (count < 0)
        return sig_times(t, &old, 1, fn); /* resized, dup */
    return sig_times(t, &old, count * blocklen, fn);
}

static int cmp_bind(const void *a, const void *b)
{
    const struct bind *x = a, *y = b;
    if (x->handle != y->handle)
        return x->handle < y->handle ? -1 : 1;
    return x->event < y->event ? -1 : x->event > y->event;
}

/* Reads rank R's constructors (CTOR: by function id, whether it is one
 * that returns a new type). */
static void read_rank(struct ev_run *x, struct ev__types *t, int r,
                      const unsigned char *ctor, int maxfn)
{
    struct util_htab m = EV__HMAP_INIT;
    size_t cap = 0;
    uint64_t nev = x->ranks[r].log.nevents;
    for (uint64_t n = 0; n < nev && !t->oom; n++) {
        int fn = ev_fn(x, r, n);
        if (fn <= 0 || fn > maxfn || !ctor[fn])
            continue;
        const struct log_func_desc *d = log_func_by_id(fn);
        struct log_event ev;
        struct log_field f;
        uint32_t h;
        char err[128];
        if (ev_event(x, r, n, &ev, err, sizeof err) < 0 || ev.ret != 0 ||
            !log_event_find(&ev, (unsigned)d->slot[LOG_S_NEWTYPE],
                            LOG_F_HANDLE, &f) ||
            log_field_handle(&f, &h) != 0)
            continue;
        int32_t si = sig_ctor(t, &m, &ev);
        if (si < 0 ||
            util_grow(&t->b[r], &cap, t->nb[r] + 1, sizeof *t->b[r]) < 0 ||
            ev__hmap_put(&m, h, si) < 0) {
            t->oom = 1;
            break;
        }
        t->b[r][t->nb[r]++] = (struct bind){h, n, si};
    }
    util_htab_release(&m);
    if (t->nb[r])
        qsort(t->b[r], t->nb[r], sizeof *t->b[r], cmp_bind);
}

struct ev__types *ev__types_build(struct ev_run *x)
{
    struct ev__types *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->nranks = x->world_size;
    t->b = calloc((size_t)x->world_size + 1, sizeof *t->b);
    t->nb = calloc((size_t)x->world_size + 1, sizeof *t->nb);
    if (!t->b || !t->nb)
        t->oom = 1;
    int maxfn = 0;
    for (int i = 0; i < log_funcs_count; i++)
        maxfn = log_funcs[i].id > maxfn ? log_funcs[i].id : maxfn;
    unsigned char *ctor = calloc((size_t)maxfn + 1, 1);
    if (!ctor)
        t->oom = 1;
    for (int i = 0; ctor && i < log_funcs_count; i++)
        ctor[log_funcs[i].id] = log_funcs[i].kind == LOG_K_TYPE_CTOR &&
                                log_funcs[i].slot[LOG_S_NEWTYPE] >= 0;
    for (int r = 0; r < x->world_size && !t->oom; r++)
        if (x->ranks[r].present)
            read_rank(x, t, r, ctor, maxfn);
    free(ctor);
    if (t->oom) {
        ev__types_free(t);
        return NULL;
    }
    return t;
}

void ev__types_free(struct ev__types *t)
{
    if (!t)
        return;
    for (int r = 0; t->b && r < t->nranks; r++)
        free(t->b[r]);
    free(t->b);
    free(t->nb);
    free(t->runs);
    free(t->sigs);
    free(t);
}

/* The binding of rank RANK's handle H at event N, or NULL. */
static const struct bind *bind_at(const struct ev__types *t, int rank,
                                  uint64_t n, uint32_t h)
{
    if (rank < 0 || rank >= t->nranks)
        return NULL;
    const struct bind *b = t->b[rank];
    size_t lo = 0, hi = t->nb[rank];
    struct bind key = {h, n, 0};
    while (lo < hi) { /* the first binding after (h, n) */
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_bind(&b[mid], &key) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo && b[lo - 1].handle == h ? &b[lo - 1] : NULL;
}

void ev__type_sig(const struct ev__types *t, int rank, uint64_t n,
                  uint32_t h, struct ev__sig *s)
{
    if (predefined(h, s))
        return;
    const struct bind *b = bind_at(t, rank, n, h);
    if (b) {
        fill(t, b->sig, s);
        return;
    }
    unknown(s);
}

void ev__type_name(const struct ev__types *t, int rank, uint64_t n,
                   uint32_t h, char *buf, size_t len)
{
    const char *name = log_mpi_handle_name("MPI_Datatype", h);
    if (name) {
        snprintf(buf, len, "%s", name);
        return;
    }
    const struct bind *b = bind_at(t, rank, n, h);
    if (b)
        snprintf(buf, len, "datatype 0x%08x (%s)", h,
                 log_func_name(t->sigs[b->sig].fn));
    else
        snprintf(buf, len, "datatype 0x%08x", h);
}

int ev__sig_has_packed(const struct ev__sig *s)
{
    for (int i = 0; i < s->nruns; i++)
        if (s->runs[i].type == EV__MPI_PACKED)
            return 1;
    return 0;
}

uint32_t ev__sig_leaf(const struct ev__sig *s)
{
    if (s->state == EV__SIG_UNKNOWN || !s->nruns)
        return 0;
    for (int i = 1; i < s->nruns; i++)
        if (s->runs[i].type != s->runs[0].type)
            return 0;
    return s->runs[0].type;
}

int64_t ev__sig_bytes(const struct ev__sig *s, int64_t count)
{
    return s->state == EV__SIG_OK && count >= 0 ? s->size * count : -1;
}

/* Whether basic types A and B match: the same, or one C type in this ABI
 * (one kind and size: MPI_INT, MPI_INT32_T, MPI_INTEGER). MPI_BYTE and
 * MPI_PACKED match only themselves here. */
static int basic_match(uint32_t a, uint32_t b)
{
    if (a == b)
        return 1;
    const struct log_mpi_type *x = log_mpi_type_of(a), *y = log_mpi_type_of(b);
    return x && y && x->kind == y->kind && x->size == y->size &&
           x->kind != 'b';
}

/* A position in COUNT elements of a signature. */
struct pos {
    const struct ev__sig *s;
    int64_t reps;   /* element repetitions left (count x rep); -1: endless */
    int j;          /* the run */
    int64_t left;   /* of the run; -1: endless */
};

static void pos_init(struct pos *p, const struct ev__sig *s, int64_t count)
{
    p->s = s;
    p->j = 0;
    if (s->state == EV__SIG_UNIFORM) {
        p->reps = count > 0 ? -1 : 0;
        p->left = -1;
        return;
    }
    p->reps = s->nruns ? count * s->rep : 0;
    p->left = p->reps ? s->runs[0].n : 0;
}

/* Moves past K elements of the current run. */
static void pos_advance(struct pos *p, int64_t k)
{
    if (p->left < 0)
        return;
    p->left -= k;
    if (p->left)
        return;
    if (++p->j == p->s->nruns) {
        p->j = 0;
        p->reps--;
    }
    p->left = p->reps ? p->s->runs[p->j].n : 0;
}

static int pos_at_start(const struct pos *p)
{
    return p->left >= 0 && p->j == 0 && p->left == p->s->runs[0].n;
}

int ev__sig_compare(const struct ev__sig *a, int64_t count_a,
                    const struct ev__sig *b, int64_t count_b, int64_t bytes,
                    struct ev__sigdiff *d)
{
    memset(d, 0, sizeof *d);
    if (a->state == EV__SIG_UNKNOWN || b->state == EV__SIG_UNKNOWN)
        return -1;
    struct pos pa, pb;
    pos_init(&pa, a, count_a);
    pos_init(&pb, b, count_b);
    int64_t off = 0;
    for (long steps = 0; steps < (1L << 22); steps++) {
        if ((bytes >= 0 && off >= bytes) || !pa.reps || !pb.reps)
            return 0;
        uint32_t ta = a->runs[pa.j].type, tb = b->runs[pb.j].type;
        if (!basic_match(ta, tb)) {
            d->differ = 1;
            d->offset = off;
            d->ta = ta;
            d->tb = tb;
            return 0;
        }
        int64_t size = log_mpi_type_size(ta);
        int64_t k = pa.left < 0 ? pb.left : pb.left < 0 ? pa.left
                    : pa.left < pb.left ? pa.left : pb.left;
        if (bytes >= 0 && size > 0) {
            int64_t room = (bytes - off + size - 1) / size;
            if (k < 0 || room < k)
                k = room;
        }
        if (k < 0)
            return 0; /* both endless, bytes unbounded */
        pos_advance(&pa, k);
        pos_advance(&pb, k);
        off += k * size;
        /* Both at the start of an element again: what follows repeats
         * what was compared. */
        if (pos_at_start(&pa) && pos_at_start(&pb))
            return 0;
    }
    return 0;
}

/* ---- a call with its arguments ------------------------------------------ */

static void add(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    if (*at >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (k > 0)
        *at += (size_t)k;
}

/* One by-value argument, named where MPI names it. */
static void arg_str(struct ev_run *x, const struct ev__types *t, int rank,
                    uint64_t n, const struct log_arg_desc *a, int64_t v,
                    char *buf, size_t len)
{
    uint32_t h = (uint32_t)v;
    const char *name = a->enc == LOG_ENC_HANDLE
                           ? log_mpi_handle_name(a->ctype, h) : NULL;
    if (!strcmp(a->ctype, "MPI_Datatype")) {
        ev__type_name(t, rank, n, h, buf, len);
    } else if (!strcmp(a->ctype, "MPI_Comm")) {
        int side, c = name ? 0 : ev_comm_of(x, rank, n, h, &side);
        if (name)
            snprintf(buf, len, "%s", name);
        else if (c >= 0)
            snprintf(buf, len, "comm #%d (0x%08x)", c, h);
        else
            snprintf(buf, len, "comm 0x%08x", h);
    } else if (a->enc == LOG_ENC_HANDLE) {
        if (name)
            snprintf(buf, len, "%s", name);
        else
            snprintf(buf, len, "%s 0x%08x",
                     !strcmp(a->ctype, "MPI_Op") ? "op" : a->name, h);
    } else if (!strcmp(a->name, "dest")) {
        if (v == EV_PROC_NULL)
            snprintf(buf, len, "to MPI_PROC_NULL");
        else
            snprintf(buf, len, "to %" PRId64, v);
    } else if (!strcmp(a->name, "source")) {
        if (v == EV_ANY_SOURCE)
            snprintf(buf, len, "from MPI_ANY_SOURCE");
        else if (v == EV_PROC_NULL)
            snprintf(buf, len, "from MPI_PROC_NULL");
        else
            snprintf(buf, len, "from %" PRId64, v);
    } else if (strstr(a->name, "tag") && v == EV_ANY_TAG) {
        snprintf(buf, len, "MPI_ANY_TAG");
    } else if (!strcmp(a->name, "root") && v == DRDB_MPI_ROOT) {
        snprintf(buf, len, "root MPI_ROOT");
    } else if (!strcmp(a->name, "root") && v == EV_PROC_NULL) {
        snprintf(buf, len, "root MPI_PROC_NULL");
    } else {
        snprintf(buf, len, "%s %" PRId64, a->name, v);
    }
}

void ev__call_str(struct ev_run *x, const struct ev__types *t, int rank,
                  uint64_t n, char *buf, size_t len)
{
    struct log_event ev;
    char err[128];
    size_t at = 0;
    buf[0] = '\0';
    if (ev_event(x, rank, n, &ev, err, sizeof err) < 0 || !ev.desc) {
        int fn = ev_fn(x, rank, n);
        snprintf(buf, len, "%s(?)", fn < 0 ? "?" : log_func_name(fn));
        return;
    }
    add(buf, len, &at, "%s(", ev.desc->name);
    int first = 1;
    for (int i = 0; i < ev.desc->nargs; i++) {
        const struct log_arg_desc *a = &ev.desc->args[i];
        if (a->vpos < 0 || !strcmp(a->ctype, "MPI_Info"))
            continue;
        char one[96];
        arg_str(x, t, rank, n, a, log_event_arg(&ev, i), one, sizeof one);
        add(buf, len, &at, "%s%s", first ? "" : ", ", one);
        first = 0;
    }
    add(buf, len, &at, ")");
}
