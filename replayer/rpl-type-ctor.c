/*
 * The datatype constructors (the spec's type-ctor kind): each replays its
 * event, which gives the new type's handle, then teaches the datatype
 * engine (rpl-type.h) the type the program built, so data can be written
 * into buffers of it. MPI_Type_free forgets it (once every handle
 * MPI_Type_get_contents returned to it is freed too).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rpl.h"

/* N values of an int / MPI_Aint / MPI_Count array as int64_t (the small
 * buffer or malloc'd: release with i64_free). */
struct i64s {
    int64_t small[32];
    int64_t *v;
};

static int64_t *i64(struct i64s *s, const void *arr, size_t esize, int64_t n)
{
    s->v = n <= 32 ? s->small : malloc((size_t)n * sizeof(int64_t));
    if (!s->v)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory");
    for (int64_t i = 0; i < n; i++)
        s->v[i] = esize == 8 ? ((const int64_t *)arr)[i]
                             : ((const int *)arr)[i];
    return s->v;
}

static void i64_free(struct i64s *s)
{
    if (s->v != s->small)
        free(s->v);
}

/* Registers the type a constructor returned, or stops the replay. */
static int learned(int ret, int rc, MPI_Datatype t)
{
    if (ret == MPI_SUCCESS && rc < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP,
                 "cannot rebuild datatype %#x (%s)", (unsigned)t,
                 strerror(-rc));
    return ret;
}

/* A constructor: its event replayed, then RC_EXPR (the engine's status,
 * an expression of a) registers the type the program built. Written once
 * for a constructor and its large-count twin (RPL_TWINS_NAME: rpl_hooks.h;
 * ARR reads either's arrays). */
#define TYPE_CTOR(NAME, RC_EXPR)                                             \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret != MPI_SUCCESS)                                              \
            return ret;                                                      \
        return learned(ret, RC_EXPR, *a->newtype);                           \
    }
/* An array argument and the size of its elements (int, MPI_Aint or
 * MPI_Count: the engine takes them as int64). */
#define ARR(x) (x), sizeof *(x)

/* The engine's calls with arrays converted. */
typedef int indexed_fn(int64_t count, const int64_t *blocklens,
                       const int64_t *displs, MPI_Datatype old,
                       MPI_Datatype new_);
typedef int block_fn(int64_t count, int64_t blocklen, const int64_t *displs,
                     MPI_Datatype old, MPI_Datatype new_);

static int indexed(indexed_fn *engine, int64_t count, const void *bl,
                   size_t bsz, const void *d, size_t dsz, MPI_Datatype old,
                   MPI_Datatype new_)
{
    struct i64s b, ds;
    int rc = engine(count, i64(&b, bl, bsz, count), i64(&ds, d, dsz, count),
                    old, new_);
    i64_free(&b);
    i64_free(&ds);
    return rc;
}

static int block(block_fn *engine, int64_t count, int64_t blocklen,
                 const void *d, size_t dsz, MPI_Datatype old,
                 MPI_Datatype new_)
{
    struct i64s ds;
    int rc = engine(count, blocklen, i64(&ds, d, dsz, count), old, new_);
    i64_free(&ds);
    return rc;
}

static int structure(int64_t count, const void *bl, size_t bsz,
                     const void *d, size_t dsz, const MPI_Datatype *types,
                     MPI_Datatype new_)
{
    struct i64s b, ds;
    int rc = rpl_type_struct(count, i64(&b, bl, bsz, count),
                             i64(&ds, d, dsz, count), types, new_);
    i64_free(&b);
    i64_free(&ds);
    return rc;
}

static int subarray(int ndims, const void *sizes, const void *subsizes,
                    const void *starts, size_t esz, int order,
                    MPI_Datatype old, MPI_Datatype new_)
{
    struct i64s z, u, s;
    int rc = rpl_type_subarray(ndims, i64(&z, sizes, esz, ndims),
                               i64(&u, subsizes, esz, ndims),
                               i64(&s, starts, esz, ndims), order, old, new_);
    i64_free(&z);
    i64_free(&u);
    i64_free(&s);
    return rc;
}

static int darray(int size, int rank, int ndims, const void *gsizes,
                  size_t gsz, const int *distribs, const int *dargs,
                  const int *psizes, int order, MPI_Datatype old,
                  MPI_Datatype new_)
{
    struct i64s g;
    int rc = rpl_type_darray(size, rank, ndims, i64(&g, gsizes, gsz, ndims),
                             distribs, dargs, psizes, order, old, new_);
    i64_free(&g);
    return rc;
}

#define CONTIGUOUS rpl_type_contiguous(a->count, a->oldtype, *a->newtype)
RPL_TWINS_MPI_Type_contiguous(TYPE_CTOR, CONTIGUOUS)
#define VECTOR                                                               \
    rpl_type_vector(a->count, a->blocklength, a->stride, a->oldtype,         \
                    *a->newtype)
RPL_TWINS_MPI_Type_vector(TYPE_CTOR, VECTOR)
#define HVECTOR                                                              \
    rpl_type_hvector(a->count, a->blocklength, a->stride, a->oldtype,        \
                     *a->newtype)
RPL_TWINS_MPI_Type_create_hvector(TYPE_CTOR, HVECTOR)
TYPE_CTOR(MPI_Type_hvector, HVECTOR)
#define RESIZED rpl_type_resized(a->oldtype, a->lb, a->extent, *a->newtype)
RPL_TWINS_MPI_Type_create_resized(TYPE_CTOR, RESIZED)
TYPE_CTOR(MPI_Type_dup, rpl_type_dup(a->oldtype, *a->newtype))

/* f90 and match_size types: contiguous bytes of the size MPI chose. */
static int64_t f90_real_size(int p, int r)
{
    if ((p == MPI_UNDEFINED || p <= 6) && (r == MPI_UNDEFINED || r <= 37))
        return 4;
    if ((p == MPI_UNDEFINED || p <= 15) && (r == MPI_UNDEFINED || r <= 307))
        return 8;
    return 16;
}

static int64_t f90_int_size(int r)
{
    return r <= 2 ? 1 : r <= 4 ? 2 : r <= 9 ? 4 : r <= 18 ? 8 : 16;
}

TYPE_CTOR(MPI_Type_create_f90_integer,
          rpl_type_bytes(f90_int_size(a->r), *a->newtype))
TYPE_CTOR(MPI_Type_create_f90_real,
          rpl_type_bytes(f90_real_size(a->p, a->r), *a->newtype))
TYPE_CTOR(MPI_Type_create_f90_complex,
          rpl_type_bytes(2 * f90_real_size(a->p, a->r), *a->newtype))

int rpl_MPI_Type_match_size(struct args_MPI_Type_match_size *a)
{
    int ret = rpl_replay_MPI_Type_match_size(a);
    struct rpl_type_info ti;
    if (ret == MPI_SUCCESS && rpl_type_get(*a->datatype, &ti) < 0)
        learned(ret, rpl_type_bytes(a->size, *a->datatype), *a->datatype);
    return ret;
}

/* Indexed: per block a length and a displacement (in elements of oldtype,
 * or in bytes for the h- forms). */
#define INDEXED(ENGINE)                                                      \
    indexed(ENGINE, a->count, ARR(a->array_of_blocklengths),                 \
            ARR(a->array_of_displacements), a->oldtype, *a->newtype)
RPL_TWINS_MPI_Type_indexed(TYPE_CTOR, INDEXED(rpl_type_indexed))
RPL_TWINS_MPI_Type_create_hindexed(TYPE_CTOR, INDEXED(rpl_type_hindexed))
TYPE_CTOR(MPI_Type_hindexed, INDEXED(rpl_type_hindexed))
#define BLOCK(ENGINE)                                                        \
    block(ENGINE, a->count, a->blocklength, ARR(a->array_of_displacements),  \
          a->oldtype, *a->newtype)
RPL_TWINS_MPI_Type_create_indexed_block(TYPE_CTOR,
                                        BLOCK(rpl_type_indexed_block))
RPL_TWINS_MPI_Type_create_hindexed_block(TYPE_CTOR,
                                         BLOCK(rpl_type_hindexed_block))
#define STRUCT                                                               \
    structure(a->count, ARR(a->array_of_blocklengths),                       \
              ARR(a->array_of_displacements), a->array_of_types,             \
              *a->newtype)
RPL_TWINS_MPI_Type_create_struct(TYPE_CTOR, STRUCT)
TYPE_CTOR(MPI_Type_struct, STRUCT)
#define SUBARRAY                                                             \
    subarray(a->ndims, a->array_of_sizes, a->array_of_subsizes,              \
             a->array_of_starts, sizeof *a->array_of_sizes, a->order,        \
             a->oldtype, *a->newtype)
RPL_TWINS_MPI_Type_create_subarray(TYPE_CTOR, SUBARRAY)
#define DARRAY                                                               \
    darray(a->size, a->rank, a->ndims, ARR(a->array_of_gsizes),              \
           a->array_of_distribs, a->array_of_dargs, a->array_of_psizes,      \
           a->order, a->oldtype, *a->newtype)
RPL_TWINS_MPI_Type_create_darray(TYPE_CTOR, DARRAY)

int rpl_MPI_Type_free(struct args_MPI_Type_free *a)
{
    MPI_Datatype old = *a->datatype;
    rpl_req_keep_type(old);
    int ret = rpl_replay_MPI_Type_free(a);
    if (ret == MPI_SUCCESS) {
        rpl_attrs_drop((int)old);
        rpl_type_release(old);
    }
    return ret;
}

/* The derived types MPI_Type_get_contents returns are the program's own
 * handles, each referenced once more (MPICH): the program frees them. Of a
 * type MPI built around another (MPI_File_get_view's), the handle of the
 * type it wraps, which MPI built too: the engine learns it. */
static int contents(int ret, MPI_Datatype type, int64_t n,
                    const MPI_Datatype *types)
{
    for (int64_t i = 0; ret == MPI_SUCCESS && types && i < n; i++) {
        /* A wrapping type (contiguous of one) has one old type. */
        int rc = i == 0 ? rpl_type_unwrap(type, types[i]) : 0;
        if (rc == 0)
            rpl_type_ref(types[i]);
        learned(ret, rc, types[i]);
    }
    return ret;
}

#define GET_CONTENTS(NAME)                                                   \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        return contents(rpl_replay_##NAME(a), a->datatype,                   \
                        a->max_datatypes, a->array_of_datatypes);            \
    }
RPL_TWINS_MPI_Type_get_contents(GET_CONTENTS)
