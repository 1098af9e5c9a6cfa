/*
 * rpl-type-build.c - the datatype engine's core constructors: MPICH's
 * MPIR_Type_* formulas on flattened types (rpl-type-int.h), with the block
 * list builder they share.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rpl-type-int.h"

void rpl__type_destroy(struct rtype *t)
{
    if (!t)
        return;
    if (t->blk != &t->one)
        free((void *)t->blk);
    free(t);
}

/* ---- building block lists -------------------------------------------- */

struct builder {
    struct blk *v;
    int64_t n, cap;
    int err;
};

/* Appends [OFF, OFF + LEN), merging with the previous block when they
 * touch. */
static void b_add(struct builder *b, int64_t off, int64_t len)
{
    struct blk *last;
    int64_t end;

    if (b->err || len == 0)
        return;
    last = b->n ? &b->v[b->n - 1] : NULL;
    if (last && !__builtin_add_overflow(last->off, last->len, &end) &&
        end == off) {
        if (__builtin_add_overflow(last->len, len, &last->len))
            b->err = -EINVAL;
        return;
    }
    if (b->n == b->cap) {
        int64_t ncap = b->cap ? b->cap * 2 : 16;
        struct blk *nv;

        if (b->n >= MAX_BLOCKS) {
            b->err = -ENOMEM;
            return;
        }
        nv = realloc(b->v, (size_t)ncap * sizeof *nv);
        if (!nv) {
            b->err = -ENOMEM;
            return;
        }
        b->v = nv;
        b->cap = ncap;
    }
    b->v[b->n].off = off;
    b->v[b->n].len = len;
    b->n++;
}

/* Appends N copies of T, the first at DISP, each one extent after the
 * previous (MPI's contiguous repetition). */
static void b_add_copies(struct builder *b, const struct rtype *t,
                         int64_t disp, int64_t n)
{
    int ovf = 0;
    int64_t ext = extent_of(t), k, j, base;

    if (b->err || n <= 0 || t->nblk == 0)
        return;
    if (t->nblk == 1 && t->blk[0].len == ext) {
        /* Dense: the copies form a single run. */
        int64_t len = ck_mul(ext, n, &ovf);

        base = ck_add(disp, t->blk[0].off, &ovf);
        if (ovf)
            b->err = -EINVAL;
        else
            b_add(b, base, len);
        return;
    }
    for (k = 0; k < n && !b->err; k++) {
        base = ck_add(disp, ck_mul(k, ext, &ovf), &ovf);
        for (j = 0; j < t->nblk; j++)
            b_add(b, ck_add(base, t->blk[j].off, &ovf), t->blk[j].len);
        if (ovf)
            b->err = -EINVAL;
    }
}

/* Moves the builder's blocks into a new type (bounds left to the
 * caller). Frees the builder. */
static int b_finish(struct builder *b, struct rtype **out)
{
    struct rtype *t;

    if (b->err) {
        free(b->v);
        return b->err;
    }
    t = calloc(1, sizeof *t);
    if (!t) {
        free(b->v);
        return -ENOMEM;
    }
    t->nblk = b->n;
    if (b->n <= 1) {
        if (b->n)
            t->one = b->v[0];
        t->blk = &t->one;
        free(b->v);
    } else {
        struct blk *v = realloc(b->v, (size_t)b->n * sizeof *v);

        t->blk = v ? v : b->v;
    }
    *out = t;
    return 0;
}

/* ---- core constructors (MPICH's MPIR_Type_* on flattened types) ------ */

/* MPICH's empty type: everything 0. */
int rpl__t_zerolen(struct rtype **out)
{
    struct rtype *t = calloc(1, sizeof *t);

    if (!t)
        return -ENOMEM;
    t->blk = &t->one;
    *out = t;
    return 0;
}

/* MPII_DATATYPE_BLOCK_LB_UB: bounds of CNT copies of O at DISP. */
static void block_bounds(int64_t cnt, int64_t disp, const struct rtype *o,
                         int64_t *lb, int64_t *ub, int *ovf)
{
    int64_t ext = extent_of(o);
    int64_t span = ck_mul(ext, cnt - 1, ovf);

    if (o->ub >= o->lb) {
        *lb = ck_add(o->lb, disp, ovf);
        *ub = ck_add(ck_add(o->ub, disp, ovf), span, ovf);
    } else {
        *lb = ck_add(ck_add(o->lb, disp, ovf), span, ovf);
        *ub = ck_add(o->ub, disp, ovf);
    }
}

/* True bounds of T from its bounds, shifted as O's are within O. */
static void set_true(struct rtype *t, const struct rtype *o, int *ovf)
{
    t->true_lb = ck_add(t->lb, o->true_lb - o->lb, ovf);
    t->true_ub = ck_add(t->ub, o->true_ub - o->ub, ovf);
}

/* The end of a constructor built on OLD: true bounds and alignment from
 * OLD, then *OUT, or -EINVAL (and T freed) when a size overflowed. */
static int built_on(struct rtype *t, const struct rtype *old, int ovf,
                    struct rtype **out)
{
    set_true(t, old, &ovf);
    t->align = old->align;
    if (ovf) {
        rpl__type_destroy(t);
        return -EINVAL;
    }
    *out = t;
    return 0;
}

int rpl__t_contig(int64_t count, const struct rtype *old,
                    struct rtype **out)
{
    struct builder b = {0};
    struct rtype *t;
    int ovf = 0, rc;

    if (count < 0)
        return -EINVAL;
    if (count == 0 || old->size == 0)
        return rpl__t_zerolen(out);
    b_add_copies(&b, old, 0, count);
    if ((rc = b_finish(&b, &t)) != 0)
        return rc;
    t->size = ck_mul(count, old->size, &ovf);
    block_bounds(count, 0, old, &t->lb, &t->ub, &ovf);
    return built_on(t, old, ovf, out);
}

/* MPIR_Type_vector with the stride in bytes. */
int rpl__t_hvector(int64_t count, int64_t bl, int64_t stride,
                     const struct rtype *old, struct rtype **out)
{
    struct builder b = {0};
    struct rtype *t;
    int ovf = 0, rc;
    int64_t i, ext = extent_of(old), str, blk;

    if (count < 0 || bl < 0)
        return -EINVAL;
    if (count == 0 || old->size == 0)
        return rpl__t_zerolen(out);
    for (i = 0; i < count && !b.err; i++)
        b_add_copies(&b, old, ck_mul(i, stride, &ovf), bl);
    if ((rc = b_finish(&b, &t)) != 0)
        return rc;
    t->size = ck_mul(ck_mul(count, bl, &ovf), old->size, &ovf);
    /* MPII_DATATYPE_VECTOR_LB_UB; MPICH 4.0.2 applies it even when BL
     * is 0 (the block then "ends" one extent before it starts). */
    str = ck_mul(stride, count - 1, &ovf);
    blk = ck_mul(ext, bl - 1, &ovf);
    if (stride >= 0 && ext >= 0) {
        t->lb = old->lb;
        t->ub = ck_add(ck_add(old->ub, blk, &ovf), str, &ovf);
    } else if (stride < 0 && ext >= 0) {
        t->lb = ck_add(old->lb, str, &ovf);
        t->ub = ck_add(old->ub, blk, &ovf);
    } else if (stride >= 0) {
        t->lb = ck_add(old->lb, blk, &ovf);
        t->ub = ck_add(old->ub, str, &ovf);
    } else {
        t->lb = ck_add(ck_add(old->lb, blk, &ovf), str, &ovf);
        t->ub = old->ub;
    }
    return built_on(t, old, ovf, out);
}

/* indexed / hindexed: displacement I is DISPS[I] * UNIT bytes. Blocks of
 * length 0 take no part in the bounds. */
int rpl__t_indexed(int64_t count, const int64_t *bls, const int64_t *disps,
                     int64_t unit, const struct rtype *old,
                     struct rtype **out)
{
    struct builder b = {0};
    struct rtype *t;
    int ovf = 0, rc, first = 1;
    int64_t i, n = 0;

    if (count < 0 || (count > 0 && (!bls || !disps)))
        return -EINVAL;
    for (i = 0; i < count; i++) {
        if (bls[i] < 0)
            return -EINVAL;
        n = ck_add(n, bls[i], &ovf);
    }
    if (ovf)
        return -EINVAL;
    if (count == 0 || old->size == 0 || n == 0)
        return rpl__t_zerolen(out);
    for (i = 0; i < count && !b.err; i++)
        b_add_copies(&b, old, ck_mul(disps[i], unit, &ovf), bls[i]);
    if ((rc = b_finish(&b, &t)) != 0)
        return rc;
    for (i = 0; i < count; i++) {
        int64_t lb, ub;

        if (bls[i] == 0)
            continue;
        block_bounds(bls[i], ck_mul(disps[i], unit, &ovf), old, &lb, &ub,
                     &ovf);
        if (first || lb < t->lb)
            t->lb = lb;
        if (first || ub > t->ub)
            t->ub = ub;
        first = 0;
    }
    t->size = ck_mul(n, old->size, &ovf);
    return built_on(t, old, ovf, out);
}

/* indexed_block / hindexed_block: every block has BL copies; a BL of 0
 * still contributes bounds, as in MPICH. */
int rpl__t_blockindexed(int64_t count, int64_t bl, const int64_t *disps,
                          int64_t unit, const struct rtype *old,
                          struct rtype **out)
{
    struct builder b = {0};
    struct rtype *t;
    int ovf = 0, rc;
    int64_t i;

    if (count < 0 || bl < 0 || (count > 0 && !disps))
        return -EINVAL;
    if (count == 0 || old->size == 0)
        return rpl__t_zerolen(out);
    for (i = 0; i < count && !b.err; i++)
        b_add_copies(&b, old, ck_mul(disps[i], unit, &ovf), bl);
    if ((rc = b_finish(&b, &t)) != 0)
        return rc;
    for (i = 0; i < count; i++) {
        int64_t lb, ub;

        block_bounds(bl, ck_mul(disps[i], unit, &ovf), old, &lb, &ub, &ovf);
        if (i == 0 || lb < t->lb)
            t->lb = lb;
        if (i == 0 || ub > t->ub)
            t->ub = ub;
    }
    t->size = ck_mul(ck_mul(count, bl, &ovf), old->size, &ovf);
    return built_on(t, old, ovf, out);
}

int rpl__t_struct(int64_t count, const int64_t *bls, const int64_t *disps,
                    const struct rtype *const *types, struct rtype **out)
{
    struct builder b = {0};
    struct rtype *t;
    int ovf = 0, rc, first = 1;
    int64_t i, size = 0, eps;

    for (i = 0; i < count; i++) {
        if (bls[i] < 0)
            return -EINVAL;
        size = ck_add(size, ck_mul(bls[i], types[i]->size, &ovf), &ovf);
    }
    if (ovf)
        return -EINVAL;
    if (size == 0)
        return rpl__t_zerolen(out);
    for (i = 0; i < count && !b.err; i++)
        b_add_copies(&b, types[i], disps[i], bls[i]);
    if ((rc = b_finish(&b, &t)) != 0)
        return rc;
    for (i = 0; i < count; i++) {
        const struct rtype *o = types[i];
        int64_t lb, ub, tlb, tub;

        if (bls[i] == 0)
            continue;
        if (o->align > t->align)
            t->align = o->align;
        block_bounds(bls[i], disps[i], o, &lb, &ub, &ovf);
        tlb = ck_add(lb, o->true_lb - o->lb, &ovf);
        tub = ck_add(ub, o->true_ub - o->ub, &ovf);
        if (first || lb < t->lb)
            t->lb = lb;
        if (first || ub > t->ub)
            t->ub = ub;
        if (first || tlb < t->true_lb)
            t->true_lb = tlb;
        if (first || tub > t->true_ub)
            t->true_ub = tub;
        first = 0;
    }
    t->size = size;
    /* MPICH's epsilon: pad the extent to the alignment (C remainder, so
     * a negative extent is padded towards zero as MPICH does). */
    if (t->align > 0 && (eps = (t->ub - t->lb) % t->align) != 0)
        t->ub = ck_add(t->ub, t->align - eps, &ovf);
    if (ovf) {
        rpl__type_destroy(t);
        return -EINVAL;
    }
    *out = t;
    return 0;
}

/* A copy of OLD's block list with new numbers to be filled in. */
int rpl__t_copy(const struct rtype *old, struct rtype **out)
{
    struct rtype *t = calloc(1, sizeof *t);

    if (!t)
        return -ENOMEM;
    *t = *old;
    if (old->nblk <= 1) {
        t->one = old->nblk ? old->blk[0] : (struct blk){0, 0};
        t->blk = &t->one;
    } else {
        struct blk *v = malloc((size_t)old->nblk * sizeof *v);

        if (!v) {
            free(t);
            return -ENOMEM;
        }
        memcpy(v, old->blk, (size_t)old->nblk * sizeof *v);
        t->blk = v;
    }
    *out = t;
    return 0;
}

int rpl__t_resized(const struct rtype *old, int64_t lb, int64_t extent,
                     struct rtype **out)
{
    int ovf = 0, rc;
    int64_t ub = ck_add(lb, extent, &ovf);

    if (ovf)
        return -EINVAL;
    if ((rc = rpl__t_copy(old, out)) != 0)
        return rc;
    (*out)->lb = lb;
    (*out)->ub = ub;
    return 0;
}

