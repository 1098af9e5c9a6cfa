/*
 * The datatype constructors (the spec's type-ctor kind): each replays its
 * event, which gives the new type's handle, then teaches the datatype
 * engine (rpl-type.h) the type the program built, so data can be written
 * into buffers of it. MPI_Type_free forgets it.
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

/* A constructor whose engine call ENGINE takes no arrays. */
#define TYPE_SIMPLE(NAME, ENGINE)                                            \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret != MPI_SUCCESS)                                              \
            return ret;                                                      \
        return learned(ret, ENGINE, *a->newtype);                            \
    }

#define CONTIGUOUS rpl_type_contiguous(a->count, a->oldtype, *a->newtype)
TYPE_SIMPLE(MPI_Type_contiguous, CONTIGUOUS)
TYPE_SIMPLE(MPI_Type_contiguous_c, CONTIGUOUS)
#define VECTOR                                                               \
    rpl_type_vector(a->count, a->blocklength, a->stride, a->oldtype,         \
                    *a->newtype)
TYPE_SIMPLE(MPI_Type_vector, VECTOR)
TYPE_SIMPLE(MPI_Type_vector_c, VECTOR)
#define HVECTOR                                                              \
    rpl_type_hvector(a->count, a->blocklength, a->stride, a->oldtype,        \
                     *a->newtype)
TYPE_SIMPLE(MPI_Type_create_hvector, HVECTOR)
TYPE_SIMPLE(MPI_Type_hvector, HVECTOR)
TYPE_SIMPLE(MPI_Type_create_hvector_c, HVECTOR)
#define RESIZED rpl_type_resized(a->oldtype, a->lb, a->extent, *a->newtype)
TYPE_SIMPLE(MPI_Type_create_resized, RESIZED)
TYPE_SIMPLE(MPI_Type_create_resized_c, RESIZED)
TYPE_SIMPLE(MPI_Type_dup, rpl_type_dup(a->oldtype, *a->newtype))

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

TYPE_SIMPLE(MPI_Type_create_f90_integer,
            rpl_type_bytes(f90_int_size(a->r), *a->newtype))
TYPE_SIMPLE(MPI_Type_create_f90_real,
            rpl_type_bytes(f90_real_size(a->p, a->r), *a->newtype))
TYPE_SIMPLE(MPI_Type_create_f90_complex,
            rpl_type_bytes(2 * f90_real_size(a->p, a->r), *a->newtype))

int rpl_MPI_Type_match_size(struct args_MPI_Type_match_size *a)
{
    int ret = rpl_replay_MPI_Type_match_size(a);
    struct rpl_type_info ti;
    if (ret == MPI_SUCCESS && rpl_type_get(*a->datatype, &ti) < 0)
        learned(ret, rpl_type_bytes(a->size, *a->datatype), *a->datatype);
    return ret;
}

/* Indexed: per block a length and a displacement (ENGINE: in elements of
 * oldtype or in bytes). */
#define TYPE_INDEXED(NAME, ENGINE)                                           \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret != MPI_SUCCESS)                                              \
            return ret;                                                      \
        struct i64s b, d;                                                    \
        int rc = ENGINE(a->count,                                            \
                        i64(&b, a->array_of_blocklengths,                    \
                            sizeof *a->array_of_blocklengths, a->count),     \
                        i64(&d, a->array_of_displacements,                   \
                            sizeof *a->array_of_displacements, a->count),    \
                        a->oldtype, *a->newtype);                            \
        i64_free(&b);                                                        \
        i64_free(&d);                                                        \
        return learned(ret, rc, *a->newtype);                                \
    }
TYPE_INDEXED(MPI_Type_indexed, rpl_type_indexed)
TYPE_INDEXED(MPI_Type_indexed_c, rpl_type_indexed)
TYPE_INDEXED(MPI_Type_create_hindexed, rpl_type_hindexed)
TYPE_INDEXED(MPI_Type_hindexed, rpl_type_hindexed)
TYPE_INDEXED(MPI_Type_create_hindexed_c, rpl_type_hindexed)

#define TYPE_BLOCK(NAME, ENGINE)                                             \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret != MPI_SUCCESS)                                              \
            return ret;                                                      \
        struct i64s d;                                                       \
        int rc = ENGINE(a->count, a->blocklength,                            \
                        i64(&d, a->array_of_displacements,                   \
                            sizeof *a->array_of_displacements, a->count),    \
                        a->oldtype, *a->newtype);                            \
        i64_free(&d);                                                        \
        return learned(ret, rc, *a->newtype);                                \
    }
TYPE_BLOCK(MPI_Type_create_indexed_block, rpl_type_indexed_block)
TYPE_BLOCK(MPI_Type_create_indexed_block_c, rpl_type_indexed_block)
TYPE_BLOCK(MPI_Type_create_hindexed_block, rpl_type_hindexed_block)
TYPE_BLOCK(MPI_Type_create_hindexed_block_c, rpl_type_hindexed_block)

#define TYPE_STRUCT(NAME)                                                    \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret != MPI_SUCCESS)                                              \
            return ret;                                                      \
        struct i64s b, d;                                                    \
        int rc = rpl_type_struct(                                            \
            a->count,                                                        \
            i64(&b, a->array_of_blocklengths,                                \
                sizeof *a->array_of_blocklengths, a->count),                 \
            i64(&d, a->array_of_displacements,                               \
                sizeof *a->array_of_displacements, a->count),                \
            a->array_of_types, *a->newtype);                                 \
        i64_free(&b);                                                        \
        i64_free(&d);                                                        \
        return learned(ret, rc, *a->newtype);                                \
    }
TYPE_STRUCT(MPI_Type_create_struct)
TYPE_STRUCT(MPI_Type_struct)
TYPE_STRUCT(MPI_Type_create_struct_c)

#define TYPE_SUBARRAY(NAME)                                                  \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret != MPI_SUCCESS)                                              \
            return ret;                                                      \
        struct i64s z, u, s;                                                 \
        size_t es = sizeof *a->array_of_sizes;                               \
        int rc = rpl_type_subarray(                                          \
            a->ndims, i64(&z, a->array_of_sizes, es, a->ndims),              \
            i64(&u, a->array_of_subsizes, es, a->ndims),                     \
            i64(&s, a->array_of_starts, es, a->ndims), a->order, a->oldtype, \
            *a->newtype);                                                    \
        i64_free(&z);                                                        \
        i64_free(&u);                                                        \
        i64_free(&s);                                                        \
        return learned(ret, rc, *a->newtype);                                \
    }
TYPE_SUBARRAY(MPI_Type_create_subarray)
TYPE_SUBARRAY(MPI_Type_create_subarray_c)

#define TYPE_DARRAY(NAME)                                                    \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        if (ret != MPI_SUCCESS)                                              \
            return ret;                                                      \
        struct i64s g;                                                       \
        int rc = rpl_type_darray(                                            \
            a->size, a->rank, a->ndims,                                      \
            i64(&g, a->array_of_gsizes, sizeof *a->array_of_gsizes,          \
                a->ndims),                                                   \
            a->array_of_distribs, a->array_of_dargs, a->array_of_psizes,     \
            a->order, a->oldtype, *a->newtype);                              \
        i64_free(&g);                                                        \
        return learned(ret, rc, *a->newtype);                                \
    }
TYPE_DARRAY(MPI_Type_create_darray)
TYPE_DARRAY(MPI_Type_create_darray_c)

int rpl_MPI_Type_free(struct args_MPI_Type_free *a)
{
    MPI_Datatype old = *a->datatype;
    int ret = rpl_replay_MPI_Type_free(a);
    if (ret == MPI_SUCCESS)
        rpl_type_free(old);
    return ret;
}
