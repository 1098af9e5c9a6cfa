/*
 * Type maps from the logged constructors (ev-typemap.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ev-int.h"
#include "ev-typemap.h"
#include "log-abi.h"

#define MAX_ENTS 4096 /* entries of a type map, past which it is not known */

static int add(struct ev__tmap *m, int64_t disp, char kind, int size,
               uint32_t h)
{
    if (m->n >= MAX_ENTS ||
        util_grow(&m->e, &m->cap, m->n + 1, sizeof *m->e) < 0) {
        m->bad = 1;
        return -1;
    }
    m->e[m->n++] = (struct ev__tment){disp, kind, size, h};
    if (m->n == 1 || disp < m->tlb)
        m->tlb = disp;
    if (m->n == 1 || disp + size > m->tub)
        m->tub = disp + size;
    return 0;
}

/* The predefined pair types MPICH makes as structs (MINLOC/MAXLOC). */
static const struct {
    uint32_t h;
    char k0;
    int s0;
    int64_t d1;
    int64_t extent;
} pairs[] = {
    {DRDB_MPI_FLOAT_INT, 'f', 4, 4, 8},
    {DRDB_MPI_DOUBLE_INT, 'f', 8, 8, 16},
    {DRDB_MPI_LONG_INT, 'i', 8, 8, 16},
    {DRDB_MPI_SHORT_INT, 'i', 2, 4, 8},
    {DRDB_MPI_LONG_DOUBLE_INT, 'f', 16, 16, 32},
};

static void build(struct ev_run *x, const struct ev__ctors *cs, int r,
                  uint64_t at, uint32_t h, struct ev__tmap *m, int depth);

/* M (empty) is OLD's map COUNT x BL times, block i at i x STRIDE bytes,
 * its elements OLD's extent apart. */
static void repeat(const struct ev__tmap *old, int64_t count, int64_t bl,
                   int64_t stride, struct ev__tmap *m)
{
    int64_t ext = old->ub - old->lb;
    if (count < 0 || bl < 0 || old->bad ||
        (uint64_t)count * (uint64_t)bl * old->n > MAX_ENTS) {
        m->bad = 1;
        return;
    }
    for (int64_t i = 0; i < count && !m->bad; i++)
        for (int64_t j = 0; j < bl && !m->bad; j++)
            for (size_t k = 0; k < old->n && !m->bad; k++)
                add(m, i * stride + j * ext + old->e[k].disp, old->e[k].kind,
                    old->e[k].size, old->e[k].handle);
    if (count > 0 && bl > 0) {
        int64_t last = (count - 1) * stride + (bl - 1) * ext;
        m->lb = old->lb + (stride < 0 ? last : 0);
        m->ub = old->ub + (stride < 0 ? 0 : last);
    }
    m->sure = old->sure && stride >= 0;
}

/* The constructor that made handle H of rank R last before event AT, into
 * M. */
static void build_derived(struct ev_run *x, const struct ev__ctors *cs,
                          int r, uint64_t at, uint32_t h,
                          struct ev__tmap *m, int depth)
{
    const struct ev__ctor *c = ev__ctor_of(cs, h, at);
    struct log_event ev;
    if (!c || ev_event(x, r, c->event, &ev, NULL, 0) < 0) {
        m->bad = 1;
        return;
    }
    const struct log_func_desc *d = ev.desc;
    int old = d->slot[LOG_S_OLDTYPE], cnt = d->slot[LOG_S_COUNT];
    struct ev__tmap o = {0};
    if (old >= 0) {
        build(x, cs, r, c->event, (uint32_t)log_event_arg(&ev, old), &o,
              depth + 1);
        if (o.bad) {
            free(o.e);
            m->bad = 1;
            return;
        }
    }
    /* The constructor by the shape of its arguments (the spec's): arrays
     * (struct, or the indexed forms: not modelled), a stride (vector,
     * hvector: in bytes when its classic form's stride is an MPI_Aint),
     * lb and extent (resized), a count alone (contiguous), nothing more
     * (dup). */
    int64_t count = cnt >= 0 ? log_event_arg(&ev, cnt) : -1;
    int64_t bl = ev__arg_named(&ev, "blocklength", 1);
    int st = ev__arg_index(d, "stride"), lb = ev__arg_index(d, "lb"),
        ext = ev__arg_index(d, "extent"), arrays = 0;
    const struct log_func_desc *cl = log_func_by_id(d->classic);
    int64_t stride = st >= 0 ? log_event_arg(&ev, st) : 0;
    int bytes = st >= 0 && cl && st < cl->nargs &&
                !strcmp(cl->args[st].ctype, "MPI_Aint");
    for (int i = 0; i < d->nargs; i++)
        if (strstr(d->args[i].ctype, "[]"))
            arrays = 1;
    int64_t oext = o.ub - o.lb;
    if (old >= 0 && arrays) {
        m->bad = 1; /* indexed, hindexed, subarray, darray */
    } else if (old >= 0 && st >= 0) {
        repeat(&o, count, bl, bytes ? stride : stride * oext, m);
    } else if (old >= 0 && lb >= 0 && ext >= 0) {
        *m = o;
        m->lb = log_event_arg(&ev, lb);
        m->ub = m->lb + log_event_arg(&ev, ext);
        m->sure = 1;
        return;
    } else if (old >= 0 && count >= 0) {
        repeat(&o, count, 1, oext, m);
    } else if (old >= 0) {
        *m = o;
        return;
    } else if (arrays) {
        int64_t *bls, *disp;
        uint32_t *ty;
        int64_t nb = ev__struct_arrays(&ev, &bls, &disp, &ty);
        int align = 1;
        if (nb < 0 || !disp)
            m->bad = 1;
        for (int64_t i = 0; i < nb && !m->bad; i++) {
            if (ty[i] == DRDB_MPI_LB || ty[i] == DRDB_MPI_UB) {
                m->bad = 1; /* MPI-1 markers: not modelled */
                break;
            }
            struct ev__tmap b = {0};
            build(x, cs, r, c->event, ty[i], &b, depth + 1);
            struct ev__tmap blk = {0};
            repeat(&b, 1, bls[i], 0, &blk);
            for (size_t k = 0; k < blk.n && !blk.bad; k++) {
                add(m, disp[i] + blk.e[k].disp, blk.e[k].kind,
                    blk.e[k].size, blk.e[k].handle);
                int a = blk.e[k].size > 8 ? 16 : blk.e[k].size;
                if (a > align)
                    align = a;
            }
            if (blk.bad || b.bad)
                m->bad = 1;
            if (!m->bad && blk.n) {
                if (i == 0 || disp[i] + blk.lb < m->lb)
                    m->lb = disp[i] + blk.lb;
                if (i == 0 || disp[i] + blk.ub > m->ub)
                    m->ub = disp[i] + blk.ub;
            }
            free(b.e);
            free(blk.e);
        }
        /* MPICH pads the extent to the members' alignment (5.1.6's
         * epsilon): an estimate, used only when the log gives no other. */
        int64_t span = m->ub - m->lb;
        if (span % align)
            m->ub += align - span % align;
        m->sure = 0;
        free(bls);
        free(disp);
        free(ty);
    } else {
        m->bad = 1; /* an f90 type */
    }
    free(o.e);
}

/* Handle H's type map as rank R had it at event AT. */
static void build(struct ev_run *x, const struct ev__ctors *cs, int r,
                  uint64_t at, uint32_t h, struct ev__tmap *m, int depth)
{
    memset(m, 0, sizeof *m);
    if (depth > 16) {
        m->bad = 1;
        return;
    }
    const struct log_mpi_type *b = log_mpi_type_of(h);
    if (b && b->kind == 'p') {
        add(m, 0, 'i', b->size / 2, h);
        add(m, b->size / 2, 'i', b->size / 2, h);
    } else if (b) {
        add(m, 0, b->kind, b->size, h);
    } else {
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
            if (pairs[i].h == h) {
                add(m, 0, pairs[i].k0, pairs[i].s0, h);
                add(m, pairs[i].d1, 'i', 4, h);
                m->lb = 0;
                m->ub = pairs[i].extent;
                m->sure = 1;
                return;
            }
        build_derived(x, cs, r, at, h, m, depth);
        return;
    }
    m->lb = 0;
    m->ub = b->size;
    m->sure = 1;
}


int ev__ctors_add(struct ev__ctors *c, uint32_t h, uint64_t event)
{
    if (util_grow(&c->v, &c->cap, c->n + 1, sizeof *c->v) < 0)
        return -1;
    c->v[c->n++] = (struct ev__ctor){h, event};
    return 0;
}

int ev__ctors_scan(struct ev_run *x, int r, struct ev__ctors *c)
{
    uint64_t n = x->ranks[r].present ? x->ranks[r].log.nevents : 0;
    for (uint64_t i = 0; i < n; i++) {
        const struct log_func_desc *d = log_func_by_id(ev_fn(x, r, i));
        struct log_event ev;
        struct log_field f;
        uint32_t h;
        if (!d || d->kind != LOG_K_TYPE_CTOR || d->slot[LOG_S_NEWTYPE] < 0 ||
            ev_event(x, r, i, &ev, NULL, 0) < 0 || ev.ret != 0 ||
            !log_event_find(&ev, (unsigned)d->slot[LOG_S_NEWTYPE],
                            LOG_F_HANDLE, &f) ||
            log_field_handle(&f, &h) != 0)
            continue;
        if (ev__ctors_add(c, h, i) < 0)
            return -1;
    }
    return 0;
}

const struct ev__ctor *ev__ctor_of(const struct ev__ctors *c, uint32_t h,
                                   uint64_t at)
{
    for (size_t i = c->n; i-- > 0;)
        if (c->v[i].handle == h && c->v[i].event < at)
            return &c->v[i];
    return NULL;
}

void ev__tmap_build(struct ev_run *x, const struct ev__ctors *c, int r,
                    uint64_t at, uint32_t h, struct ev__tmap *m)
{
    build(x, c, r, at, h, m, 0);
}

void ev__tmap_release(struct ev__tmap *m)
{
    free(m->e);
    m->e = NULL;
    m->n = m->cap = 0;
}
