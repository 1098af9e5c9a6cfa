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
#include "rpl-type-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drdb_mpi_abi.h"
#include "util.h"

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
    int refs;         /* handles to it beyond the first (get_contents) */
    int wraps;        /* layers of contiguous(1, .) MPI made (file views) */
    int freed;        /* the program freed every handle: unknown, but kept
                       * until MPI reuses the value, for the
                       * MPI_Type_get_contents of a type built from it */
    struct rtype *t;
};

static struct util_htab reg =
    UTIL_HTAB_INIT(struct slot, key, MPI_DATATYPE_NULL);

static struct rtype *reg_get(MPI_Datatype h)
{
    struct slot *s = util_htab_find(&reg, h);
    return s && !s->freed ? s->t : NULL;
}

/* Registers T under H, replacing (and freeing) any previous type. Takes
 * ownership of T, even on failure. */
static int reg_put(MPI_Datatype h, struct rtype *t)
{
    struct slot *s = util_htab_find(&reg, h), n = {h, 0, 0, 0, t};
    if (s) {
        rpl__type_destroy(s->t);
        *s = n;
        return 0;
    }
    if (util_htab_put(&reg, &n) < 0) {
        rpl__type_destroy(t);
        return -ENOMEM;
    }
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
    if (h == MPI_LB || h == MPI_UB) {
        /* The markers, as another constructor's old type: no data, no
         * extent (a struct takes them apart: rpl_type_struct). */
        memset(tmp, 0, sizeof *tmp);
        tmp->blk = &tmp->one;
        return tmp;
    }
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

/* ---- public API ---------------------------------------------------------- */

/* Registers the result of a constructor under NEW_ (RC: its status). */
static int finish(int rc, struct rtype *t, MPI_Datatype new_)
{
    if (rc)
        return rc;
    return reg_put(new_, t);
}

/* Builds a type with CALL, on O (the resolved OLD), and registers it
 * under NEW_: the body of a constructor on one old type. */
#define BUILD_ON(OLD, NEW_, CALL)                                            \
    do {                                                                     \
        struct rtype tmp, *t = NULL;                                         \
        const struct rtype *o = prepare(OLD, NEW_, &tmp);                    \
        if (!o)                                                              \
            return -EINVAL;                                                  \
        int rc_ = CALL; /* sets t */                                         \
        return finish(rc_, t, NEW_);                                         \
    } while (0)

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
    BUILD_ON(old, new_,
             rpl__t_contig(count, o, &t));
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
    rc = rpl__t_hvector(count, blocklen, bytes, o, &t);
    return finish(rc, t, new_);
}

int rpl_type_hvector(int64_t count, int64_t blocklen, int64_t stride_bytes,
                     MPI_Datatype old, MPI_Datatype new_)
{
    BUILD_ON(old, new_,
             rpl__t_hvector(count, blocklen, stride_bytes, o, &t));
}

int rpl_type_indexed(int64_t count, const int64_t *blocklens,
                     const int64_t *displs, MPI_Datatype old,
                     MPI_Datatype new_)
{
    BUILD_ON(old, new_,
             rpl__t_indexed(count, blocklens, displs, extent_of(o), o, &t));
}

int rpl_type_hindexed(int64_t count, const int64_t *blocklens,
                      const int64_t *displs_bytes, MPI_Datatype old,
                      MPI_Datatype new_)
{
    BUILD_ON(old, new_,
             rpl__t_indexed(count, blocklens, displs_bytes, 1, o, &t));
}

int rpl_type_indexed_block(int64_t count, int64_t blocklen,
                           const int64_t *displs, MPI_Datatype old,
                           MPI_Datatype new_)
{
    BUILD_ON(old, new_,
             rpl__t_blockindexed(count, blocklen, displs, extent_of(o), o, &t));
}

int rpl_type_hindexed_block(int64_t count, int64_t blocklen,
                            const int64_t *displs_bytes, MPI_Datatype old,
                            MPI_Datatype new_)
{
    BUILD_ON(old, new_,
             rpl__t_blockindexed(count, blocklen, displs_bytes, 1, o, &t));
}

/* The struct of the members that are real types (no markers): COUNT may
 * be 0. Not registered. */
static int struct_of(int64_t count, const int64_t *blocklens,
                     const int64_t *displs_bytes, const MPI_Datatype *types,
                     struct rtype **out)
{
    const struct rtype **tv;
    struct rtype *tmp;
    int64_t i;
    int rc, same;

    if (count == 0)
        return rpl__t_zerolen(out);
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
        rc = rpl__t_indexed(count, blocklens, displs_bytes, 1, tv[0], out);
    else if (!rc)
        rc = rpl__t_struct(count, blocklens, displs_bytes, tv, out);
    free(tv);
    free(tmp);
    return rc;
}

/*
 * The MPI-1 markers MPI_LB and MPI_UB (still in MPICH 4.0.2) set the
 * bounds: MPICH builds the struct of the other members, then resizes it
 * to the lowest MPI_LB displacement (when there is one; else the struct's
 * lb) and the highest MPI_UB displacement (else the struct's ub), whatever
 * the markers' block lengths, 0 included. So a struct of markers alone
 * has size 0 and the markers' extent, and the struct's padding is kept
 * only when no MPI_UB sets the end (measured against MPICH 4.0.2). A type
 * holding markers passes on its bounds, not the markers: MPICH 4 has no
 * "sticky" bounds any more.
 */
int rpl_type_struct(int64_t count, const int64_t *blocklens,
                    const int64_t *displs_bytes, const MPI_Datatype *types,
                    MPI_Datatype new_)
{
    struct rtype *inner = NULL, *t = NULL;
    int64_t i, n = 0, lb = 0, ub = 0, *bl = NULL, *d = NULL;
    MPI_Datatype *ty = NULL;
    int rc, has_lb = 0, has_ub = 0;

    if (count < 0 || is_predefined(new_) ||
        (count > 0 && (!blocklens || !displs_bytes || !types)))
        return -EINVAL;
    for (i = 0; i < count; i++) {
        if (types[i] == MPI_LB && (!has_lb || displs_bytes[i] < lb))
            lb = displs_bytes[i], has_lb = 1;
        else if (types[i] == MPI_UB && (!has_ub || displs_bytes[i] > ub))
            ub = displs_bytes[i], has_ub = 1;
    }
    if (!has_lb && !has_ub) {
        rc = struct_of(count, blocklens, displs_bytes, types, &t);
        return finish(rc, t, new_);
    }
    if ((uint64_t)count > SIZE_MAX / (2 * sizeof(int64_t) + sizeof *ty))
        return -EINVAL;
    bl = malloc((size_t)count * sizeof *bl + 1);
    d = malloc((size_t)count * sizeof *d + 1);
    ty = malloc((size_t)count * sizeof *ty + 1);
    rc = !bl || !d || !ty ? -ENOMEM : 0;
    for (i = 0; !rc && i < count; i++)
        if (types[i] != MPI_LB && types[i] != MPI_UB) {
            bl[n] = blocklens[i];
            d[n] = displs_bytes[i];
            ty[n++] = types[i];
        }
    if (!rc)
        rc = struct_of(n, bl, d, ty, &inner);
    free(bl);
    free(d);
    free(ty);
    if (!rc) {
        int64_t l = has_lb ? lb : inner->lb, u = has_ub ? ub : inner->ub;
        int64_t ext;
        rc = __builtin_sub_overflow(u, l, &ext)
                 ? -EINVAL
                 : rpl__t_resized(inner, l, ext, &t);
    }
    if (inner)
        rpl__type_destroy(inner);
    return finish(rc, t, new_);
}

int rpl_type_subarray(int ndims, const int64_t *sizes, const int64_t *subsizes,
                      const int64_t *starts, int order, MPI_Datatype old,
                      MPI_Datatype new_)
{
    BUILD_ON(old, new_,
             rpl__t_subarray(ndims, sizes, subsizes, starts, order, o, &t));
}

int rpl_type_darray(int size, int rank, int ndims, const int64_t *gsizes,
                    const int *distribs, const int *dargs, const int *psizes,
                    int order, MPI_Datatype old, MPI_Datatype new_)
{
    BUILD_ON(old, new_,
             rpl__t_darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order,
                      o, &t));
}

int rpl_type_resized(MPI_Datatype old, int64_t lb, int64_t extent,
                     MPI_Datatype new_)
{
    BUILD_ON(old, new_,
             rpl__t_resized(o, lb, extent, &t));
}

int rpl_type_dup(MPI_Datatype old, MPI_Datatype new_)
{
    BUILD_ON(old, new_,
             rpl__t_copy(o, &t));
}

int rpl_type_bytes(int64_t size, MPI_Datatype new_)
{
    struct rtype tmp, *t = NULL;
    const struct rtype *o = prepare(MPI_BYTE, new_, &tmp);
    int rc;

    if (!o || size < 0)
        return -EINVAL;
    rc = rpl__t_contig(size, o, &t);
    /* MPICH builds these as contiguous(1, MPI_INTEGERn / MPI_REAL /
     * MPI_DOUBLE_PRECISION / ...): align like the natural type of that
     * size, up to 8. (MPI_COMPLEX, 8 bytes, really aligns to 4.) */
    if (!rc && size > 0)
        for (t->align = 1; t->align < 8 && size % (t->align * 2) == 0;)
            t->align *= 2;
    return finish(rc, t, new_);
}

int rpl_type_keep(MPI_Datatype type, struct rtype **out)
{
    struct rtype tmp;
    const struct rtype *t = lookup(type, &tmp);

    *out = NULL;
    return t ? rpl__t_copy(t, out) : -EINVAL;
}

int rpl_type_from_kept(const struct rtype *kept, MPI_Datatype new_,
                       int wraps)
{
    struct rtype *t = NULL;
    int rc;

    if (is_predefined(new_))
        return new_ == MPI_DATATYPE_NULL ? -EINVAL : 0;
    if (!kept)
        return -EINVAL;
    rc = rpl__t_copy(kept, &t); /* before finish reads t */
    if ((rc = finish(rc, t, new_)) == 0)
        ((struct slot *)util_htab_find(&reg, new_))->wraps = wraps;
    return rc;
}

int rpl_type_unwrap(MPI_Datatype outer, MPI_Datatype inner)
{
    struct slot *s = util_htab_find(&reg, outer);
    struct rtype tmp;

    if (!s || s->freed || s->wraps <= 0 || lookup(inner, &tmp))
        return 0;
    int rc = rpl_type_from_kept(s->t, inner, s->wraps - 1);
    return rc < 0 ? rc : 1;
}

void rpl_type_drop_kept(struct rtype *kept)
{
    rpl__type_destroy(kept);
}

int rpl_type_free(MPI_Datatype type)
{
    if (is_predefined(type))
        return type == MPI_DATATYPE_NULL ? -EINVAL : 0;
    struct slot *s = util_htab_find(&reg, type);
    if (s && s->refs > 0 && !s->freed) {
        s->refs--;
        return 0;
    }
    if (!s)
        return -EINVAL;
    rpl__type_destroy(s->t);
    util_htab_remove(&reg, s);
    return 0;
}

int rpl_type_release(MPI_Datatype type)
{
    if (is_predefined(type))
        return type == MPI_DATATYPE_NULL ? -EINVAL : 0;
    struct slot *s = util_htab_find(&reg, type);
    if (!s || s->freed)
        return -EINVAL;
    if (s->refs > 0)
        s->refs--;
    else
        s->freed = 1;
    return 0;
}

void rpl_type_ref(MPI_Datatype type)
{
    struct slot *s = is_predefined(type) ? NULL : util_htab_find(&reg, type);
    if (s && s->freed)
        s->freed = 0; /* a type built from it holds it: one handle again */
    else if (s)
        s->refs++;
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
 * (UNPACK: packed -> buffer). BUF may be MPI_BOTTOM (0): the type's
 * displacements are then addresses, so it is an integer here (no
 * arithmetic on a null pointer). */
static void copy_blocks(const struct rtype *t, uintptr_t buf, char *packed,
                        int64_t total, int unpack)
{
    int64_t ext = extent_of(t), left = total, i, j;

    if (t->nblk == 1 && t->blk[0].len == ext) {
        /* Contiguous elements: one copy. */
        char *p = (char *)(buf + (uintptr_t)t->blk[0].off);

        if (unpack)
            memcpy(p, packed, (size_t)total);
        else
            memcpy(packed, p, (size_t)total);
        return;
    }
    for (i = 0; left > 0; i++) {
        uintptr_t base = buf + (uintptr_t)(i * ext);

        for (j = 0; j < t->nblk && left > 0; j++) {
            int64_t n = t->blk[j].len < left ? t->blk[j].len : left;
            char *p = (char *)(base + (uintptr_t)t->blk[j].off);

            if (unpack)
                memcpy(p, packed, (size_t)n);
            else
                memcpy(packed, p, (size_t)n);
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
    if (!src)
        return -EINVAL;
    copy_blocks(t, (uintptr_t)dst, (char *)src, total, 1);
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
    if (!dst)
        return -EINVAL;
    copy_blocks(t, (uintptr_t)src, dst, total, 0);
    return total;
}
