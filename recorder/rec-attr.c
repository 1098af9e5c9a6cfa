/*
 * Attribute getters. For a predefined keyval MPI hands out a pointer to its
 * own storage, which the program dereferences: when flag is true, the value
 * it points to is logged too, as a second RAW field of attribute_val
 * (argument 2, elem 1). MPI_WIN_BASE's attribute is the base address
 * itself: nothing more. (MPI defines no predefined datatype keyvals:
 * MPI_Type_get_attr stays generated.) The mirror of replayer/rpl-attr.c.
 */
#include <dlfcn.h>
#include <stdint.h>

#include "drdb_mpi_abi.h"
#include "rec.h"

/* Bytes a predefined communicator / window keyval's value has, 0 for any
 * other keyval. */
static size_t comm_attr_size(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE:
    case MPI_LASTUSEDCODE:
    case MPI_APPNUM:
        return sizeof(int);
    }
    return 0;
}

static size_t win_attr_size(int keyval)
{
    switch (keyval) {
    case MPI_WIN_SIZE:
        return sizeof(MPI_Aint);
    case MPI_WIN_DISP_UNIT:
    case MPI_WIN_CREATE_FLAVOR:
    case MPI_WIN_MODEL:
        return sizeof(int);
    }
    return 0;
}

/* A getter's fields: what the generated wrapper would log (attribute_val's
 * 8 bytes, flag), with the value of VSIZE bytes in between when there is
 * one. */
struct get {
    const void *attribute_val, *value;
    const int *flag;
    size_t vsize;
};

static size_t get_room(struct get *g, int ret)
{
    g->value = NULL;
    if (ret == MPI_SUCCESS && g->flag && *g->flag && g->vsize &&
        g->attribute_val)
        g->value = *(const void *const *)g->attribute_val;
    return (g->attribute_val ? LOG_FIELD_HEAD + 8 : 0) +
           (g->value ? LOG_FIELD_HEAD + g->vsize : 0) + LOG_FIELD_HEAD + 4;
}

static void get_put(struct log_rec *rec, const struct get *g, int ret)
{
    if (g->attribute_val)
        rec_put_raw(rec, 2, 0, g->attribute_val, 8);
    if (g->value)
        rec_put_raw(rec, 2, 1, g->value, g->vsize);
    if (ret == MPI_SUCCESS && g->flag)
        rec_put_raw(rec, 3, 0, g->flag, 4);
}

#define GET_HOOK(NAME, KEYVAL, SIZE)                                         \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        struct get g = {a->attribute_val, NULL, a->flag, SIZE(a->KEYVAL)};   \
        struct log_rec rec;                                                  \
        rec_pmpi_##NAME(c, a);                                               \
        if (rec_frame_##NAME(c, a, &rec, 0, get_room(&g, c->ret))) {         \
            get_put(&rec, &g, c->ret);                                       \
            rec_end(&rec);                                                   \
        }                                                                    \
    }
GET_HOOK(MPI_Comm_get_attr, comm_keyval, comm_attr_size)
GET_HOOK(MPI_Attr_get, keyval, comm_attr_size)
GET_HOOK(MPI_Win_get_attr, win_keyval, win_attr_size)

/*
 * MPICH's Fortran bindings (mpif.h, the mpi module) reach attributes
 * through internal functions, MPII_Comm_get_attr and its kin, with TYPE
 * saying how the value is converted for Fortran (MPIR_ATTR_INT, _AINT:
 * the value itself, not a pointer; a predefined keyval's value too), not
 * through MPI_Comm_get_attr: calls the recorder would not see, and the
 * replay's bindings (replayer/rpl-abi.c) make through the replayed C
 * call. So they are interposed (rec.map), the real ones called, and each
 * logged as that C call, in the C view: a user keyval's value as the
 * pointer C would get, a predefined keyval's behind a pointer (the second
 * field above), which rpl-abi.c converts back as MPICH does.
 */

typedef int fget_fn(int obj, int keyval, void *val, int *flag, int type);
typedef int fset_fn(int obj, int keyval, void *val, int type);

/* One call: MPICH's getter GET or setter SET (the other NULL) on OBJ's
 * KEYVAL, logged as the C call FN; VSIZE: the size of a getter's
 * predefined value (struct get's VALUE). */
static int fortran_attr(int fn, fget_fn *get, fset_fn *set, int obj,
                        int keyval, void *val, int *flag, int type,
                        size_t vsize, const void *ra)
{
    if (!get && !set)
        return MPI_ERR_INTERN;
    if (rec_busy || !rec_live())
        return get ? get(obj, keyval, val, flag, type)
                   : set(obj, keyval, val, type);
    uint64_t t0 = rec_now();
    rec_fly.a[0] = (uint32_t)obj;
    rec_fly.a[1] = (uint64_t)(int64_t)keyval;
    rec_fly.t0 = t0;
    rec_fly.ra = ra;
    rec_fly.fn = fn;
    rec_busy = 1;
    int ret = get ? get(obj, keyval, val, flag, type)
                  : set(obj, keyval, val, type);
    rec_busy = 0;
    rec_fly.fn = 0;
    uint64_t t1 = rec_now();
    union {
        int i;
        MPI_Aint a;
    } v;
    void *cview = get && val ? *(void **)val : NULL;
    if (get && vsize && ret == MPI_SUCCESS && flag && *flag) {
        if (vsize == sizeof v.i)
            v.i = (int)(intptr_t)cview;
        else
            v.a = (MPI_Aint)(intptr_t)cview;
        cview = &v;
    }
    struct get g = {get && val ? &cview : NULL, NULL, flag, vsize};
    struct log_rec rec;
    if (rec_begin_at(&rec, fn, 0, ret, t0, t1,
                     10 + (get ? get_room(&g, ret) : 0), ra)) {
        log_put_arg_handle(&rec, (uint32_t)obj);
        log_put_arg_int(&rec, keyval);
        if (get)
            get_put(&rec, &g, ret);
        rec_end(&rec);
    }
    return ret;
}

#define REAL_MPII(T, name)                                                   \
    static T *real;                                                          \
    if (!real)                                                               \
        real = (T *)dlsym(RTLD_NEXT, #name)

int MPII_Comm_get_attr(MPI_Comm comm, int keyval, void *val, int *flag,
                       int type);
int MPII_Comm_get_attr(MPI_Comm comm, int keyval, void *val, int *flag,
                       int type)
{
    REAL_MPII(fget_fn, MPII_Comm_get_attr);
    return fortran_attr(LOG_FN_MPI_Comm_get_attr, real, NULL, comm, keyval,
                        val, flag, type,
                        comm_attr_size(DRDB_MPI_C_KEYVAL(keyval)),
                        __builtin_return_address(0));
}

int MPII_Type_get_attr(MPI_Datatype t, int keyval, void *val, int *flag,
                       int type);
int MPII_Type_get_attr(MPI_Datatype t, int keyval, void *val, int *flag,
                       int type)
{
    REAL_MPII(fget_fn, MPII_Type_get_attr);
    return fortran_attr(LOG_FN_MPI_Type_get_attr, real, NULL, t, keyval, val,
                        flag, type, 0, __builtin_return_address(0));
}

int MPII_Win_get_attr(MPI_Win win, int keyval, void *val, int *flag,
                      int type);
int MPII_Win_get_attr(MPI_Win win, int keyval, void *val, int *flag,
                      int type)
{
    REAL_MPII(fget_fn, MPII_Win_get_attr);
    return fortran_attr(LOG_FN_MPI_Win_get_attr, real, NULL, win, keyval, val,
                        flag, type, win_attr_size(DRDB_MPI_C_KEYVAL(keyval)),
                        __builtin_return_address(0));
}

int MPII_Comm_set_attr(MPI_Comm comm, int keyval, void *val, int type);
int MPII_Comm_set_attr(MPI_Comm comm, int keyval, void *val, int type)
{
    REAL_MPII(fset_fn, MPII_Comm_set_attr);
    return fortran_attr(LOG_FN_MPI_Comm_set_attr, NULL, real, comm, keyval, val,
                        NULL, type, 0, __builtin_return_address(0));
}

int MPII_Type_set_attr(MPI_Datatype t, int keyval, void *val, int type);
int MPII_Type_set_attr(MPI_Datatype t, int keyval, void *val, int type)
{
    REAL_MPII(fset_fn, MPII_Type_set_attr);
    return fortran_attr(LOG_FN_MPI_Type_set_attr, NULL, real, t, keyval, val,
                        NULL, type, 0, __builtin_return_address(0));
}

int MPII_Win_set_attr(MPI_Win win, int keyval, void *val, int type);
int MPII_Win_set_attr(MPI_Win win, int keyval, void *val, int type)
{
    REAL_MPII(fset_fn, MPII_Win_set_attr);
    return fortran_attr(LOG_FN_MPI_Win_set_attr, NULL, real, win, keyval, val,
                        NULL, type, 0, __builtin_return_address(0));
}
