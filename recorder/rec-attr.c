/*
 * Attribute getters. For a predefined keyval MPI hands out a pointer to its
 * own storage, which the program dereferences: when flag is true, the value
 * it points to is logged too, as a second RAW field of attribute_val
 * (argument 2, elem 1). MPI_WIN_BASE's attribute is the base address
 * itself: nothing more. (MPI defines no predefined datatype keyvals:
 * MPI_Type_get_attr stays generated.) The mirror of replayer/rpl-attr.c.
 */
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
