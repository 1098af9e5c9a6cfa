/*
 * rpl-type-darray.c - subarray and darray types, built from the same
 * intermediate types as MPICH builds them, so their bounds come out the
 * same (rpl-type-int.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "rpl-type-int.h"

/* ---- subarray and darray (built as MPICH builds them) ----------------- */

/* Finishes subarray/darray: TMP placed at byte DISP, resized to
 * [0, EXTENT). Consumes TMP. */
static int place_and_resize(struct rtype *tmp, int64_t disp, int64_t extent,
                            struct rtype **out)
{
    struct rtype *t2;
    int rc = rpl__t_blockindexed(1, 1, &disp, 1, tmp, &t2);

    rpl__type_destroy(tmp);
    if (rc)
        return rc;
    rc = rpl__t_resized(t2, 0, extent, out);
    rpl__type_destroy(t2);
    return rc;
}

int rpl__t_subarray(int ndims, const int64_t *sizes, const int64_t *subs,
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
        rc = rpl__t_contig(subs[0], old, &tmp);
    } else if (order == MPI_ORDER_FORTRAN) {
        rc = rpl__t_hvector(subs[1], subs[0], ck_mul(sizes[0], ext, &ovf), old,
                       &tmp);
        size = ck_mul(sizes[0], ext, &ovf);
        for (i = 2; i < ndims && !rc; i++) {
            size = ck_mul(size, sizes[i - 1], &ovf);
            rc = rpl__t_hvector(subs[i], 1, size, tmp, &t2);
            rpl__type_destroy(tmp);
            tmp = t2;
        }
    } else {
        rc = rpl__t_hvector(subs[ndims - 2], subs[ndims - 1],
                       ck_mul(sizes[ndims - 1], ext, &ovf), old, &tmp);
        size = ck_mul(sizes[ndims - 1], ext, &ovf);
        for (i = ndims - 3; i >= 0 && !rc; i--) {
            size = ck_mul(size, sizes[i + 1], &ovf);
            rc = rpl__t_hvector(subs[i], 1, size, tmp, &t2);
            rpl__type_destroy(tmp);
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
        rpl__type_destroy(tmp);
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
        rpl__type_destroy(*t);
        return -EINVAL;
    }
    rc = rpl__t_resized(*t, 0, ext, &t2);
    rpl__type_destroy(*t);
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
        rc = rpl__t_contig(mysize, old, out);
    } else {
        stride = ck_mul(orig_ext, faster_dims(gsizes, dim, ndims, order,
                                              &ovf), &ovf);
        if (ovf)
            return -EINVAL;
        rc = rpl__t_hvector(mysize, 1, stride, old, out);
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
    if ((rc = rpl__t_hvector(count, blksize, stride, old, &t)) != 0)
        return rc;
    if (rem) {
        /* The last, short block: struct {vector, REM x old}. */
        int64_t bls[2] = {1, rem}, disps[2] = {0, 0};
        const struct rtype *types[2] = {t, old};

        disps[1] = ck_mul(count, stride, &ovf);
        rc = ovf ? -EINVAL : rpl__t_struct(2, bls, disps, types, &t2);
        rpl__type_destroy(t);
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
            rpl__type_destroy(t);
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

int rpl__t_darray(int size, int rank, int ndims, const int64_t *gsizes,
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
        rpl__type_destroy(cur);
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
        rpl__type_destroy(cur);
        return -EINVAL;
    }
    return place_and_resize(cur, disp, total, out);
}

