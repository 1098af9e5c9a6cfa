/*
 * rpl-type.c - the replay stub's datatype engine (see rpl-type.h).
 *
 * Every type is a flat list of byte blocks in type-map order plus the
 * numbers MPI reports. The numbers follow MPICH 4.0.2's own formulas
 * (typerep_dataloop_create.c, type_create.c), quirks included:
 *   - a constructor whose count is 0 or whose old type has size 0 yields
 *     MPICH's "zerolen" type: size, bounds and true bounds all 0;
 *   - blocks of length 0 still move the bounds of vector, blockindexed
 *     and hvector types (MPICH applies its block formula with count 0);
 *     indexed and struct skip them;
 *   - struct rounds its extent up to the largest alignment among the
 *     types of its non-empty blocks (MPICH's "epsilon"), except when all
 *     members have the same type: MPICH makes that an hindexed, without
 *     padding; a struct of size 0 is zerolen;
 *   - subarray and darray are built from the same intermediate types as
 *     MPICH builds them, so their bounds come out the same.
 * Pair types (MPI_DOUBLE_INT, ...) are static; builtins are synthesized
 * from the handle. Registered types live in a hash table keyed by handle
 * value (util/util.h).
 *
 * Data moves block by block, all bytes of each block. Two deliberate
 * differences from MPICH's own MPI_Unpack: a short message is written up
 * to its last byte (MPICH stops at the last whole basic element), and an
 * x87 long double is copied with its 6 padding bytes (MPICH's
 * non-contiguous path copies the 10 significant bytes only).
 */
#include "rpl-type.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drdb_mpi_abi.h"
#include "util.h"

/* One contiguous run of bytes at OFF from the element's origin. */
struct blk {
    int64_t off, len;
};

struct rtype {
    int64_t size;
    int64_t lb, ub, true_lb, true_ub;
    int64_t align;          /* MPICH's alignsize: struct padding */
    int64_t nblk;
    const struct blk *blk;  /* owned unless it points at `one` or static */
    struct blk one;         /* storage for single-block types */
};

/* Refuse to flatten types with more blocks than this (16 bytes each):
 * -ENOMEM rather than gigabytes of block list. */
#define MAX_BLOCKS ((int64_t)1 << 26)

/* ---- checked arithmetic ---------------------------------------------- */

/* The constructors compute with checked operations: a type whose numbers
 * overflow int64 is rejected (-EINVAL) rather than miscomputed. */
static int64_t ck_add(int64_t a, int64_t b, int *ovf)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        *ovf = 1;
    return r;
}

static int64_t ck_mul(int64_t a, int64_t b, int *ovf)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        *ovf = 1;
    return r;
}

/* ---- predefined types ------------------------------------------------ */

/* Builtin handles with MPICH's alignment for each (measured against
 * MPICH 4.0.2: e.g. MPI_COMPLEX aligns like float, MPI_REAL16 and
 * MPI_COMPLEX32 like char) and the class of MPICH's internal type it
 * maps to (types of one class count as the same type in a struct). The
 * size is in bits 8-15 of the handle. */
enum {
    C_8 = 1, C_16, C_32, C_64, C_WCHAR, C_FLT, C_DBL, C_LD, C_2INT,
    C_CFLT, C_CDBL, C_CLD, C_REAL16, C_CPLX32, C_FLT16,
};

static const struct {
    MPI_Datatype h;
    unsigned char align, cls;
} builtins[] = {
    {MPI_CHAR, 1, C_8}, {MPI_SIGNED_CHAR, 1, C_8},
    {MPI_UNSIGNED_CHAR, 1, C_8}, {MPI_BYTE, 1, C_8},
    {MPI_WCHAR, 4, C_WCHAR}, {MPI_SHORT, 2, C_16},
    {MPI_UNSIGNED_SHORT, 2, C_16}, {MPI_INT, 4, C_32},
    {MPI_UNSIGNED, 4, C_32}, {MPI_LONG, 8, C_64},
    {MPI_UNSIGNED_LONG, 8, C_64}, {MPI_FLOAT, 4, C_FLT},
    {MPI_DOUBLE, 8, C_DBL}, {MPI_LONG_DOUBLE, 16, C_LD},
    {MPI_LONG_LONG_INT, 8, C_64}, {MPI_UNSIGNED_LONG_LONG, 8, C_64},
    {MPI_PACKED, 1, C_8}, {MPI_2INT, 4, C_2INT},
    {MPI_COMPLEX, 4, C_CFLT}, {MPI_DOUBLE_COMPLEX, 8, C_CDBL},
    {MPI_LOGICAL, 4, C_32}, {MPI_REAL, 4, C_FLT},
    {MPI_DOUBLE_PRECISION, 8, C_DBL}, {MPI_INTEGER, 4, C_32},
    {MPI_2INTEGER, 4, C_2INT}, {MPI_2REAL, 4, C_CFLT},
    {MPI_2DOUBLE_PRECISION, 8, C_CDBL}, {MPI_CHARACTER, 1, C_8},
    {MPI_REAL4, 4, C_FLT}, {MPI_REAL8, 8, C_DBL},
    {MPI_REAL16, 1, C_REAL16}, {MPI_COMPLEX8, 4, C_CFLT},
    {MPI_COMPLEX16, 8, C_CDBL}, {MPI_COMPLEX32, 1, C_CPLX32},
    {MPI_INTEGER1, 1, C_8}, {MPI_INTEGER2, 2, C_16},
    {MPI_INTEGER4, 4, C_32}, {MPI_INTEGER8, 8, C_64},
    {MPI_INT8_T, 1, C_8}, {MPI_INT16_T, 2, C_16},
    {MPI_INT32_T, 4, C_32}, {MPI_INT64_T, 8, C_64},
    {MPI_UINT8_T, 1, C_8}, {MPI_UINT16_T, 2, C_16},
    {MPI_UINT32_T, 4, C_32}, {MPI_UINT64_T, 8, C_64},
    {MPI_C_BOOL, 1, C_8}, {MPI_C_FLOAT_COMPLEX, 4, C_CFLT},
    {MPI_C_DOUBLE_COMPLEX, 8, C_CDBL}, {MPI_C_LONG_DOUBLE_COMPLEX, 16, C_CLD},
    {MPI_AINT, 8, C_64}, {MPI_OFFSET, 8, C_64}, {MPI_COUNT, 8, C_64},
    {MPI_CXX_BOOL, 1, C_8}, {MPI_CXX_FLOAT_COMPLEX, 4, C_CFLT},
    {MPI_CXX_DOUBLE_COMPLEX, 8, C_CDBL},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, 16, C_CLD},
#ifdef MPIX_C_FLOAT16
    {MPIX_C_FLOAT16, 1, C_FLT16},
#endif
};

/* Pair types: {value at 0, int after it}, padded to the value's
 * alignment. MPI_SHORT_INT is {short at 0, int at 4}: two blocks, and
 * its true extent (8) equals its extent. */
static const struct blk blk_float_int[] = {{0, 8}};
static const struct blk blk_double_int[] = {{0, 12}};
static const struct blk blk_short_int[] = {{0, 2}, {4, 4}};
static const struct blk blk_ldouble_int[] = {{0, 20}};

static const struct rtype pair_types[] = {
    /* size  lb ub  tlb tub  align nblk blk */
    {8, 0, 8, 0, 8, 4, 1, blk_float_int, {0, 0}},     /* MPI_FLOAT_INT */
    {12, 0, 16, 0, 12, 8, 1, blk_double_int, {0, 0}}, /* MPI_DOUBLE_INT */
    {12, 0, 16, 0, 12, 8, 1, blk_double_int, {0, 0}}, /* MPI_LONG_INT */
    {6, 0, 8, 0, 8, 4, 2, blk_short_int, {0, 0}},     /* MPI_SHORT_INT */
    {20, 0, 32, 0, 20, 16, 1, blk_ldouble_int, {0, 0}},
    /* MPI_LONG_DOUBLE_INT */
};

static const struct rtype *pair_type(MPI_Datatype h)
{
    switch (h) {
    case MPI_FLOAT_INT: return &pair_types[0];
    case MPI_DOUBLE_INT: return &pair_types[1];
    case MPI_LONG_INT: return &pair_types[2];
    case MPI_SHORT_INT: return &pair_types[3];
    case MPI_LONG_DOUBLE_INT: return &pair_types[4];
    default: return NULL;
    }
}

/* Index of builtin H in builtins[], or -1 if H is not a known builtin. */
static int builtin_index(MPI_Datatype h)
{
    int i;

    if (((unsigned)h & DRDB_MPI_HANDLE_TAG_MASK) != DRDB_MPI_BUILTIN_TYPE_TAG)
        return -1;
    for (i = 0; i < (int)(sizeof builtins / sizeof builtins[0]); i++)
        if (builtins[i].h == h)
            return i;
    return -1;
}

/* Alignment of builtin H, or 0 if H is not a known builtin. */
static int builtin_align(MPI_Datatype h)
{
    int i = builtin_index(h);

    return i < 0 ? 0 : builtins[i].align;
}

/* What MPICH compares to tell whether struct members have one type:
 * the handle, or for a builtin its internal type's class. */
static int64_t type_identity(MPI_Datatype h)
{
    int i = builtin_index(h);

    return i < 0 ? (int64_t)(unsigned)h + 256 : builtins[i].cls;
}

/* Handles no constructor may register under. */
static int is_predefined(MPI_Datatype h)
{
    return ((unsigned)h & DRDB_MPI_HANDLE_TAG_MASK) ==
               DRDB_MPI_BUILTIN_TYPE_TAG ||
           pair_type(h) || h == MPI_DATATYPE_NULL;
}

/* ---- registry --------------------------------------------------------- */

struct slot {
    MPI_Datatype key; /* MPI_DATATYPE_NULL: empty slot */
    struct rtype *t;
};

static struct util_htab reg =
    UTIL_HTAB_INIT(struct slot, key, MPI_DATATYPE_NULL);

static struct rtype *reg_get(MPI_Datatype h)
{
    struct slot *s = util_htab_find(&reg, h);
    return s ? s->t : NULL;
}

static void type_destroy(struct rtype *t)
{
    if (!t)
        return;
    if (t->blk != &t->one)
        free((void *)t->blk);
    free(t);
}

/* Registers T under H, replacing (and freeing) any previous type. Takes
 * ownership of T, even on failure. */
static int reg_put(MPI_Datatype h, struct rtype *t)
{
    struct slot *s = util_htab_find(&reg, h), n = {h, t};
    if (s) {
        type_destroy(s->t);
        s->t = t;
        return 0;
    }
    if (util_htab_put(&reg, &n) < 0) {
        type_destroy(t);
        return -ENOMEM;
    }
    return 0;
}

static int reg_del(MPI_Datatype h)
{
    struct slot *s = util_htab_find(&reg, h);
    if (!s)
        return -EINVAL;
    type_destroy(s->t);
    util_htab_remove(&reg, s);
    return 0;
}

/* The type for handle H: a registered type, a pair type, or a builtin
 * synthesized into *TMP. NULL for unknown handles. */
static const struct rtype *lookup(MPI_Datatype h, struct rtype *tmp)
{
    const struct rtype *t;
    int align;

    if (h == MPI_DATATYPE_NULL)
        return NULL;
    if ((align = builtin_align(h)) != 0) {
        int64_t size = ((unsigned)h >> 8) & 0xff;

        memset(tmp, 0, sizeof *tmp);
        tmp->size = tmp->ub = tmp->true_ub = size;
        tmp->align = align;
        tmp->nblk = 1;
        tmp->one.len = size;
        tmp->blk = &tmp->one;
        return tmp;
    }
    if ((t = pair_type(h)) != NULL)
        return t;
    return reg_get(h);
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

static int64_t extent_of(const struct rtype *t)
{
    return t->ub - t->lb;
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
static int t_zerolen(struct rtype **out)
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
        type_destroy(t);
        return -EINVAL;
    }
    *out = t;
    return 0;
}

static int t_contig(int64_t count, const struct rtype *old,
                    struct rtype **out)
{
    struct builder b = {0};
    struct rtype *t;
    int ovf = 0, rc;

    if (count < 0)
        return -EINVAL;
    if (count == 0 || old->size == 0)
        return t_zerolen(out);
    b_add_copies(&b, old, 0, count);
    if ((rc = b_finish(&b, &t)) != 0)
        return rc;
    t->size = ck_mul(count, old->size, &ovf);
    block_bounds(count, 0, old, &t->lb, &t->ub, &ovf);
    return built_on(t, old, ovf, out);
}

/* MPIR_Type_vector with the stride in bytes. */
static int t_hvector(int64_t count, int64_t bl, int64_t stride,
                     const struct rtype *old, struct rtype **out)
{
    struct builder b = {0};
    struct rtype *t;
    int ovf = 0, rc;
    int64_t i, ext = extent_of(old), str, blk;

    if (count < 0 || bl < 0)
        return -EINVAL;
    if (count == 0 || old->size == 0)
        return t_zerolen(out);
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
static int t_indexed(int64_t count, const int64_t *bls, const int64_t *disps,
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
        return t_zerolen(out);
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
static int t_blockindexed(int64_t count, int64_t bl, const int64_t *disps,
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
        return t_zerolen(out);
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

static int t_struct(int64_t count, const int64_t *bls, const int64_t *disps,
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
        return t_zerolen(out);
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
        type_destroy(t);
        return -EINVAL;
    }
    *out = t;
    return 0;
}

/* A copy of OLD's block list with new numbers to be filled in. */
static int t_copy(const struct rtype *old, struct rtype **out)
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

static int t_resized(const struct rtype *old, int64_t lb, int64_t extent,
                     struct rtype **out)
{
    int ovf = 0, rc;
    int64_t ub = ck_add(lb, extent, &ovf);

    if (ovf)
        return -EINVAL;
    if ((rc = t_copy(old, out)) != 0)
        return rc;
    (*out)->lb = lb;
    (*out)->ub = ub;
    return 0;
}

/* ---- subarray and darray (built as MPICH builds them) ----------------- */

/* Finishes subarray/darray: TMP placed at byte DISP, resized to
 * [0, EXTENT). Consumes TMP. */
static int place_and_resize(struct rtype *tmp, int64_t disp, int64_t extent,
                            struct rtype **out)
{
    struct rtype *t2;
    int rc = t_blockindexed(1, 1, &disp, 1, tmp, &t2);

    type_destroy(tmp);
    if (rc)
        return rc;
    rc = t_resized(t2, 0, extent, out);
    type_destroy(t2);
    return rc;
}

static int t_subarray(int ndims, const int64_t *sizes, const int64_t *subs,
                      const int64_t *starts, int order,
                      const struct rtype *old, struct rtype **out)
{
    struct rtype *tmp, *t2 = NULL;
    int64_t ext = extent_of(old), size, disp, total;
    int i, rc, ovf = 0;

    if (ndims <= 0 || !sizes || !subs || !starts ||
        (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN))
        return -EINVAL;
    for (i = 0; i < ndims; i++)
        if (sizes[i] <= 0 || subs[i] < 0 || starts[i] < 0 ||
            subs[i] > sizes[i] - starts[i])
            return -EINVAL;
    if (ndims == 1) {
        rc = t_contig(subs[0], old, &tmp);
    } else if (order == MPI_ORDER_FORTRAN) {
        rc = t_hvector(subs[1], subs[0], ck_mul(sizes[0], ext, &ovf), old,
                       &tmp);
        size = ck_mul(sizes[0], ext, &ovf);
        for (i = 2; i < ndims && !rc; i++) {
            size = ck_mul(size, sizes[i - 1], &ovf);
            rc = t_hvector(subs[i], 1, size, tmp, &t2);
            type_destroy(tmp);
            tmp = t2;
        }
    } else {
        rc = t_hvector(subs[ndims - 2], subs[ndims - 1],
                       ck_mul(sizes[ndims - 1], ext, &ovf), old, &tmp);
        size = ck_mul(sizes[ndims - 1], ext, &ovf);
        for (i = ndims - 3; i >= 0 && !rc; i--) {
            size = ck_mul(size, sizes[i + 1], &ovf);
            rc = t_hvector(subs[i], 1, size, tmp, &t2);
            type_destroy(tmp);
            tmp = t2;
        }
    }
    if (rc)
        return rc;
    /* Start offset (in elements, first index fastest for Fortran) and
     * the full array's extent. */
    size = 1;
    if (order == MPI_ORDER_FORTRAN) {
        disp = starts[0];
        for (i = 1; i < ndims; i++) {
            size = ck_mul(size, sizes[i - 1], &ovf);
            disp = ck_add(disp, ck_mul(size, starts[i], &ovf), &ovf);
        }
    } else {
        disp = starts[ndims - 1];
        for (i = ndims - 2; i >= 0; i--) {
            size = ck_mul(size, sizes[i + 1], &ovf);
            disp = ck_add(disp, ck_mul(size, starts[i], &ovf), &ovf);
        }
    }
    total = ext;
    for (i = 0; i < ndims; i++)
        total = ck_mul(total, sizes[i], &ovf);
    disp = ck_mul(disp, ext, &ovf);
    if (ovf) {
        type_destroy(tmp);
        return -EINVAL;
    }
    return place_and_resize(tmp, disp, total, out);
}

/* Product of GSIZES over the dimensions that vary faster than DIM. */
static int64_t faster_dims(const int64_t *gsizes, int dim, int ndims,
                           int order, int *ovf)
{
    int64_t p = 1;
    int i;

    if (order == MPI_ORDER_FORTRAN)
        for (i = 0; i < dim; i++)
            p = ck_mul(p, gsizes[i], ovf);
    else
        for (i = ndims - 1; i > dim; i--)
            p = ck_mul(p, gsizes[i], ovf);
    return p;
}

/* Resizes *T (consumed) to [0, gsize * extent(OLD)): MPICH gives each
 * dimension's type the extent of a full row of that dimension. */
static int resize_dim(struct rtype **t, int64_t gsize,
                      const struct rtype *old)
{
    struct rtype *t2;
    int ovf = 0, rc;
    int64_t ext = ck_mul(gsize, extent_of(old), &ovf);

    if (ovf) {
        type_destroy(*t);
        return -EINVAL;
    }
    rc = t_resized(*t, 0, ext, &t2);
    type_destroy(*t);
    *t = rc ? NULL : t2;
    return rc;
}

/* MPIR_Type_block: dimension DIM, NPROCS processes, coordinate RANK. */
static int dim_block(const int64_t *gsizes, int dim, int ndims, int nprocs,
                     int rank, int darg, int order, int64_t orig_ext,
                     const struct rtype *old, struct rtype **out,
                     int64_t *st_offset)
{
    int64_t gsize = gsizes[dim], blksize, mysize, stride;
    int ovf = 0, rc;

    if (darg == MPI_DISTRIBUTE_DFLT_DARG) {
        blksize = (gsize + nprocs - 1) / nprocs;
    } else {
        blksize = darg;
        if (blksize <= 0 || blksize * nprocs < gsize)
            return -EINVAL;
    }
    mysize = gsize - blksize * rank;
    if (mysize > blksize)
        mysize = blksize;
    if (mysize < 0)
        mysize = 0;
    if ((order == MPI_ORDER_FORTRAN && dim == 0) ||
        (order == MPI_ORDER_C && dim == ndims - 1)) {
        rc = t_contig(mysize, old, out);
    } else {
        stride = ck_mul(orig_ext, faster_dims(gsizes, dim, ndims, order,
                                              &ovf), &ovf);
        if (ovf)
            return -EINVAL;
        rc = t_hvector(mysize, 1, stride, old, out);
    }
    if (rc)
        return rc;
    *st_offset = mysize ? blksize * rank : 0;
    return resize_dim(out, gsize, old);
}

/* MPIR_Type_cyclic: blocks of DARG, dealt round-robin. */
static int dim_cyclic(const int64_t *gsizes, int dim, int ndims, int nprocs,
                      int rank, int darg, int order, int64_t orig_ext,
                      const struct rtype *old, struct rtype **out,
                      int64_t *st_offset)
{
    int64_t blksize, st_index, end_index, local, rem, count, stride;
    struct rtype *t, *t2;
    int ovf = 0, rc;

    blksize = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    if (blksize <= 0)
        return -EINVAL;
    st_index = (int64_t)rank * blksize;
    end_index = gsizes[dim] - 1;
    if (end_index < st_index) {
        local = 0;
    } else {
        int64_t span = end_index - st_index + 1, per = nprocs * blksize;

        local = span / per * blksize;
        rem = span % per;
        local += rem < blksize ? rem : blksize;
    }
    count = local / blksize;
    rem = local % blksize;
    stride = ck_mul(ck_mul(nprocs, blksize, &ovf),
                    ck_mul(orig_ext, faster_dims(gsizes, dim, ndims, order,
                                                 &ovf), &ovf), &ovf);
    if (ovf)
        return -EINVAL;
    if ((rc = t_hvector(count, blksize, stride, old, &t)) != 0)
        return rc;
    if (rem) {
        /* The last, short block: struct {vector, REM x old}. */
        int64_t bls[2] = {1, rem}, disps[2] = {0, 0};
        const struct rtype *types[2] = {t, old};

        disps[1] = ck_mul(count, stride, &ovf);
        rc = ovf ? -EINVAL : t_struct(2, bls, disps, types, &t2);
        type_destroy(t);
        if (rc)
            return rc;
        t = t2;
    }
    if ((order == MPI_ORDER_FORTRAN && dim == 0) ||
        (order == MPI_ORDER_C && dim == ndims - 1)) {
        /* The first dimension carries this process's offset itself. */
        int64_t disp = ck_mul(st_index, orig_ext, &ovf);
        int64_t ext = ck_mul(orig_ext, gsizes[dim], &ovf);

        if (ovf) {
            type_destroy(t);
            return -EINVAL;
        }
        rc = place_and_resize(t, disp, ext, &t2);
        if (rc)
            return rc;
        t = t2;
        *st_offset = 0;
    } else {
        *st_offset = rank * blksize;
    }
    if (local == 0)
        *st_offset = 0;
    *out = t;
    return resize_dim(out, gsizes[dim], old);
}

static int t_darray(int size, int rank, int ndims, const int64_t *gsizes,
                    const int *distribs, const int *dargs, const int *psizes,
                    int order, const struct rtype *old, struct rtype **out)
{
    int64_t st[64], orig_ext = extent_of(old), disp, tmp_size, total;
    int coords[64], procs, tmp_rank, i, k, rc = 0, ovf = 0;
    struct rtype *cur = NULL, *t;

    if (size <= 0 || rank < 0 || rank >= size || ndims <= 0 || ndims > 64 ||
        !gsizes || !distribs || !dargs || !psizes ||
        (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN))
        return -EINVAL;
    procs = 1;
    for (i = 0; i < ndims; i++) {
        if (gsizes[i] <= 0 || psizes[i] <= 0 ||
            (dargs[i] <= 0 && dargs[i] != MPI_DISTRIBUTE_DFLT_DARG))
            return -EINVAL;
        if (distribs[i] != MPI_DISTRIBUTE_BLOCK &&
            distribs[i] != MPI_DISTRIBUTE_CYCLIC &&
            distribs[i] != MPI_DISTRIBUTE_NONE)
            return -EINVAL;
        if (distribs[i] == MPI_DISTRIBUTE_NONE && psizes[i] != 1)
            return -EINVAL;
        if (psizes[i] > size / procs)
            return -EINVAL;
        procs *= psizes[i];
    }
    if (procs != size)
        return -EINVAL;
    /* Row-major position in the process grid. */
    procs = size;
    tmp_rank = rank;
    for (i = 0; i < ndims; i++) {
        procs /= psizes[i];
        coords[i] = tmp_rank / procs;
        tmp_rank %= procs;
    }
    for (k = 0; k < ndims; k++) {
        const struct rtype *prev = cur ? cur : old;

        i = order == MPI_ORDER_FORTRAN ? k : ndims - 1 - k;
        switch (distribs[i]) {
        case MPI_DISTRIBUTE_BLOCK:
            rc = dim_block(gsizes, i, ndims, psizes[i], coords[i], dargs[i],
                           order, orig_ext, prev, &t, &st[i]);
            break;
        case MPI_DISTRIBUTE_CYCLIC:
            rc = dim_cyclic(gsizes, i, ndims, psizes[i], coords[i],
                            dargs[i], order, orig_ext, prev, &t, &st[i]);
            break;
        default: /* NONE: a block distribution over one process */
            rc = dim_block(gsizes, i, ndims, 1, 0, MPI_DISTRIBUTE_DFLT_DARG,
                           order, orig_ext, prev, &t, &st[i]);
            break;
        }
        type_destroy(cur);
        cur = NULL;
        if (rc)
            return rc;
        cur = t;
    }
    tmp_size = 1;
    if (order == MPI_ORDER_FORTRAN) {
        disp = st[0];
        for (i = 1; i < ndims; i++) {
            tmp_size = ck_mul(tmp_size, gsizes[i - 1], &ovf);
            disp = ck_add(disp, ck_mul(tmp_size, st[i], &ovf), &ovf);
        }
    } else {
        disp = st[ndims - 1];
        for (i = ndims - 2; i >= 0; i--) {
            tmp_size = ck_mul(tmp_size, gsizes[i + 1], &ovf);
            disp = ck_add(disp, ck_mul(tmp_size, st[i], &ovf), &ovf);
        }
    }
    disp = ck_mul(disp, orig_ext, &ovf);
    total = orig_ext;
    for (i = 0; i < ndims; i++)
        total = ck_mul(total, gsizes[i], &ovf);
    if (ovf) {
        type_destroy(cur);
        return -EINVAL;
    }
    return place_and_resize(cur, disp, total, out);
}

/* ---- public API ---------------------------------------------------------- */

/* Registers the result of a constructor under NEW_ (RC: its status). */
static int finish(int rc, struct rtype *t, MPI_Datatype new_)
{
    if (rc)
        return rc;
    return reg_put(new_, t);
}

/* Resolves OLD and checks that NEW_ may be registered. */
static const struct rtype *prepare(MPI_Datatype old, MPI_Datatype new_,
                                   struct rtype *tmp)
{
    if (is_predefined(new_))
        return NULL;
    return lookup(old, tmp);
}

int rpl_type_get(MPI_Datatype type, struct rpl_type_info *info)
{
    struct rtype tmp;
    const struct rtype *t = lookup(type, &tmp);

    if (!t || !info)
        return -EINVAL;
    info->size = t->size;
    info->lb = t->lb;
    info->extent = t->ub - t->lb;
    info->true_lb = t->true_lb;
    info->true_extent = t->true_ub - t->true_lb;
    info->nblocks = t->nblk;
    return 0;
}

int rpl_type_contiguous(int64_t count, MPI_Datatype old, MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(old, new_, &tmp);
    int rc;

    if (!o)
        return -EINVAL;
    rc = t_contig(count, o, &t);
    return finish(rc, t, new_);
}

int rpl_type_vector(int64_t count, int64_t blocklen, int64_t stride,
                    MPI_Datatype old, MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(old, new_, &tmp);
    int64_t bytes;
    int rc;

    if (!o || __builtin_mul_overflow(stride, extent_of(o), &bytes))
        return -EINVAL;
    rc = t_hvector(count, blocklen, bytes, o, &t);
    return finish(rc, t, new_);
}

int rpl_type_hvector(int64_t count, int64_t blocklen, int64_t stride_bytes,
                     MPI_Datatype old, MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(old, new_, &tmp);
    int rc;

    if (!o)
        return -EINVAL;
    rc = t_hvector(count, blocklen, stride_bytes, o, &t);
    return finish(rc, t, new_);
}

int rpl_type_indexed(int64_t count, const int64_t *blocklens,
                     const int64_t *displs, MPI_Datatype old,
                     MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(old, new_, &tmp);
    int rc;

    if (!o)
        return -EINVAL;
    rc = t_indexed(count, blocklens, displs, extent_of(o), o, &t);
    return finish(rc, t, new_);
}

int rpl_type_hindexed(int64_t count, const int64_t *blocklens,
                      const int64_t *displs_bytes, MPI_Datatype old,
                      MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(old, new_, &tmp);
    int rc;

    if (!o)
        return -EINVAL;
    rc = t_indexed(count, blocklens, displs_bytes, 1, o, &t);
    return finish(rc, t, new_);
}

int rpl_type_indexed_block(int64_t count, int64_t blocklen,
                           const int64_t *displs, MPI_Datatype old,
                           MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(old, new_, &tmp);
    int rc;

    if (!o)
        return -EINVAL;
    rc = t_blockindexed(count, blocklen, displs, extent_of(o), o, &t);
    return finish(rc, t, new_);
}

int rpl_type_hindexed_block(int64_t count, int64_t blocklen,
                            const int64_t *displs_bytes, MPI_Datatype old,
                            MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(old, new_, &tmp);
    int rc;

    if (!o)
        return -EINVAL;
    rc = t_blockindexed(count, blocklen, displs_bytes, 1, o, &t);
    return finish(rc, t, new_);
}

int rpl_type_struct(int64_t count, const int64_t *blocklens,
                    const int64_t *displs_bytes, const MPI_Datatype *types,
                    MPI_Datatype new_)
{
    const struct rtype **tv;
    struct rtype *tmp, *t = NULL;
    int64_t i;
    int rc, same;

    if (count < 0 || is_predefined(new_) ||
        (count > 0 && (!blocklens || !displs_bytes || !types)))
        return -EINVAL;
    if (count == 0) {
        rc = t_zerolen(&t);
        return finish(rc, t, new_);
    }
    if ((uint64_t)count > SIZE_MAX / (sizeof *tv + sizeof *tmp))
        return -EINVAL;
    tv = malloc((size_t)count * sizeof *tv);
    tmp = malloc((size_t)count * sizeof *tmp);
    if (!tv || !tmp) {
        free(tv);
        free(tmp);
        return -ENOMEM;
    }
    rc = 0;
    same = 1;
    for (i = 0; i < count && !rc; i++) {
        if (!(tv[i] = lookup(types[i], &tmp[i])))
            rc = -EINVAL;
        same &= type_identity(types[i]) == type_identity(types[0]);
    }
    /* MPICH turns a struct of one type (by handle; builtins by internal
     * type: MPI_LONG is MPI_INT64_T) into an hindexed: no padding. */
    if (!rc && same)
        rc = t_indexed(count, blocklens, displs_bytes, 1, tv[0], &t);
    else if (!rc)
        rc = t_struct(count, blocklens, displs_bytes, tv, &t);
    free(tv);
    free(tmp);
    return finish(rc, t, new_);
}

int rpl_type_subarray(int ndims, const int64_t *sizes, const int64_t *subsizes,
                      const int64_t *starts, int order, MPI_Datatype old,
                      MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(old, new_, &tmp);
    int rc;

    if (!o)
        return -EINVAL;
    rc = t_subarray(ndims, sizes, subsizes, starts, order, o, &t);
    return finish(rc, t, new_);
}

int rpl_type_darray(int size, int rank, int ndims, const int64_t *gsizes,
                    const int *distribs, const int *dargs, const int *psizes,
                    int order, MPI_Datatype old, MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(old, new_, &tmp);
    int rc;

    if (!o)
        return -EINVAL;
    rc = t_darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order,
                  o, &t);
    return finish(rc, t, new_);
}

int rpl_type_resized(MPI_Datatype old, int64_t lb, int64_t extent,
                     MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(old, new_, &tmp);
    int rc;

    if (!o)
        return -EINVAL;
    rc = t_resized(o, lb, extent, &t);
    return finish(rc, t, new_);
}

int rpl_type_dup(MPI_Datatype old, MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(old, new_, &tmp);
    int rc;

    if (!o)
        return -EINVAL;
    rc = t_copy(o, &t);
    return finish(rc, t, new_);
}

int rpl_type_bytes(int64_t size, MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(MPI_BYTE, new_, &tmp);
    int rc;

    if (!o || size < 0)
        return -EINVAL;
    rc = t_contig(size, o, &t);
    /* MPICH builds these as contiguous(1, MPI_INTEGERn / MPI_REAL /
     * MPI_DOUBLE_PRECISION / ...): align like the natural type of that
     * size, up to 8. (MPI_COMPLEX, 8 bytes, really aligns to 4.) */
    if (!rc && size > 0)
        for (t->align = 1; t->align < 8 && size % (t->align * 2) == 0;)
            t->align *= 2;
    return finish(rc, t, new_);
}

int rpl_type_free(MPI_Datatype type)
{
    if (is_predefined(type))
        return type == MPI_DATATYPE_NULL ? -EINVAL : 0;
    return reg_del(type);
}

/* Bytes in COUNT elements of T, capped at BYTES (-1 if invalid). */
static int64_t data_bytes(const struct rtype *t, int64_t count,
                          int64_t bytes)
{
    int64_t total;

    if (count < 0 || bytes < 0)
        return -1;
    if (__builtin_mul_overflow(count, t->size, &total) || total > bytes)
        total = bytes;
    return total;
}

/* Copies TOTAL packed bytes between PACKED and the elements at BUF
 * (UNPACK: packed -> buffer). */
static void copy_blocks(const struct rtype *t, char *buf, char *packed,
                        int64_t total, int unpack)
{
    int64_t ext = extent_of(t), left = total, i, j;

    if (t->nblk == 1 && t->blk[0].len == ext) {
        /* Contiguous elements: one copy. */
        char *p = buf + t->blk[0].off;

        if (unpack)
            memcpy(p, packed, (size_t)total);
        else
            memcpy(packed, p, (size_t)total);
        return;
    }
    for (i = 0; left > 0; i++) {
        char *base = buf + i * ext;

        for (j = 0; j < t->nblk && left > 0; j++) {
            int64_t n = t->blk[j].len < left ? t->blk[j].len : left;

            if (unpack)
                memcpy(base + t->blk[j].off, packed, (size_t)n);
            else
                memcpy(packed, base + t->blk[j].off, (size_t)n);
            packed += n;
            left -= n;
        }
    }
}

int64_t rpl_type_unpack(const void *src, int64_t bytes, void *dst,
                        int64_t count, MPI_Datatype type)
{
    struct rtype tmp;
    const struct rtype *t = lookup(type, &tmp);
    int64_t total;

    if (!t || (total = data_bytes(t, count, bytes)) < 0)
        return -EINVAL;
    if (total == 0)
        return 0;
    if (!src || !dst)
        return -EINVAL;
    copy_blocks(t, dst, (char *)src, total, 1);
    return total;
}

int64_t rpl_type_pack(const void *src, int64_t count, MPI_Datatype type,
                      void *dst, int64_t room)
{
    struct rtype tmp;
    const struct rtype *t = lookup(type, &tmp);
    int64_t total;

    if (!t || count < 0 || room < 0)
        return -EINVAL;
    if (__builtin_mul_overflow(count, t->size, &total) || total > room)
        return -ENOSPC;
    if (total == 0)
        return 0;
    if (!src || !dst)
        return -EINVAL;
    copy_blocks(t, (char *)src, dst, total, 0);
    return total;
}
