/*
 * rpl-type-int.h - what the datatype engine's files share (rpl-type.h is
 * the engine's API): a type flattened into blocks, checked arithmetic, and
 * the constructors on flattened types (rpl-type-build.c: MPICH's core
 * constructors; rpl-type-darray.c: subarray and darray, built as MPICH
 * builds them), which rpl-type.c registers under the program's handles.
 */
#ifndef DRDB_RPL_TYPE_INT_H
#define DRDB_RPL_TYPE_INT_H

#include <stdint.h>

#include "rpl-type.h"

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
static inline int64_t ck_add(int64_t a, int64_t b, int *ovf)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        *ovf = 1;
    return r;
}

static inline int64_t ck_mul(int64_t a, int64_t b, int *ovf)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        *ovf = 1;
    return r;
}


static inline int64_t extent_of(const struct rtype *t)
{
    return t->ub - t->lb;
}

/* Frees T (its blocks too). */
void rpl__type_destroy(struct rtype *t);

/* The constructors on flattened types: 0 and *OUT (a new type), or
 * -EINVAL (bad arguments, overflow) / -ENOMEM. OLD is not consumed. */
int rpl__t_zerolen(struct rtype **out);
int rpl__t_contig(int64_t count, const struct rtype *old, struct rtype **out);
int rpl__t_hvector(int64_t count, int64_t bl, int64_t stride,
                   const struct rtype *old, struct rtype **out);
int rpl__t_indexed(int64_t count, const int64_t *bls, const int64_t *disps,
                   int64_t unit, const struct rtype *old, struct rtype **out);
int rpl__t_blockindexed(int64_t count, int64_t bl, const int64_t *disps,
                        int64_t unit, const struct rtype *old,
                        struct rtype **out);
int rpl__t_struct(int64_t count, const int64_t *bls, const int64_t *disps,
                  const struct rtype *const *types, struct rtype **out);
int rpl__t_copy(const struct rtype *old, struct rtype **out);
int rpl__t_resized(const struct rtype *old, int64_t lb, int64_t extent,
                   struct rtype **out);
int rpl__t_subarray(int ndims, const int64_t *sizes, const int64_t *subs,
                    const int64_t *starts, int order, const struct rtype *old,
                    struct rtype **out);
int rpl__t_darray(int size, int rank, int ndims, const int64_t *gsizes,
                  const int *distribs, const int *dargs, const int *psizes,
                  int order, const struct rtype *old, struct rtype **out);

#endif
