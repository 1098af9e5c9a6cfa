/*
 * Attributes. Attribute values are the program's (pointers of this
 * process), so they are kept here rather than taken from the log; MPI
 * called the copy and delete callbacks inside Comm_dup, Comm_free,
 * Type_dup, Type_free, Win_free, set_attr, delete_attr and MPI_Finalize,
 * and so does the replay, in MPICH's order (below), the calls they make
 * replaying the events the recorder logged inside them (rpl_cb_enter).
 * Predefined attributes (MPI_TAG_UB, ...) are the logged values. The
 * program's own communicator, datatype and window attributes share one
 * table (MPICH never gives two such objects the same handle value, nor
 * two keyvals of different kinds the same value). The mirror of
 * recorder/rec-attr.c and rec-cb.c.
 *
 * MPICH 4.0.2 keeps an object's attributes in a list: a new attribute
 * goes first, a value set again keeps its place; deleting them all
 * (freeing the object) and copying them (a dup, whose copies keep the
 * order) walk the list from the first. MPI_Finalize deletes MPI_COMM_SELF's
 * attributes, then MPI_COMM_WORLD's (MPI-4.0 11.2.4: in the reverse order
 * of their setting). Here each attribute has a rank in its object's list:
 * the higher, the earlier.
 */
#include <stdlib.h>

#include "drdb_mpi_abi.h"
#include "rpl.h"
#include "util.h"

struct keyval {
    int keyval; /* 0: a free slot */
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra;
};
struct attr {
    int obj; /* a communicator, datatype or window (0: a free slot) */
    int keyval;
    void *val;
    uint64_t order; /* the higher, the earlier in the object's list */
};
static struct util_htab keyvals = UTIL_HTAB_INIT(struct keyval, keyval, 0);
static struct attr *attrs;
static size_t nattrs, capattrs;
static uint64_t next_order = 1;
/* Predefined attribute values: MPI returns their address. int-valued ones
 * read the first 4 bytes, MPI_WIN_SIZE all 8 (little-endian). */
static int64_t predefined_vals[16];

static struct attr *attr_find(int obj, int k)
{
    for (size_t i = 0; i < nattrs; i++)
        if (attrs[i].obj == obj && attrs[i].keyval == k)
            return &attrs[i];
    return NULL;
}

/* Runs the delete callback of attrs[I], which is then free (the callback
 * may set attributes: the table may move). */
static void attr_delete(size_t i)
{
    struct attr a = attrs[i];
    const struct keyval *kv = util_htab_find(&keyvals, a.keyval);
    if (kv && kv->del && kv->del != MPI_COMM_NULL_DELETE_FN) {
        /* The attribute is still set while its callback runs. */
        rpl_cb_enter();
        kv->del((MPI_Comm)a.obj, a.keyval, a.val, kv->extra);
        rpl_cb_leave();
        for (i = 0; i < nattrs; i++)
            if (attrs[i].obj == a.obj && attrs[i].keyval == a.keyval &&
                attrs[i].order == a.order)
                break;
        if (i == nattrs)
            return;
    }
    attrs[i].obj = 0;
}

/* Sets attribute K of OBJ to VAL: a new one at ORDER (0: first in the
 * list), an existing one deleted first and kept in its place. */
static void attr_put(int obj, int k, void *val, uint64_t order)
{
    struct attr *a = attr_find(obj, k);
    if (a) {
        order = a->order;
        attr_delete((size_t)(a - attrs));
    }
    if (!order)
        order = next_order++;
    a = attr_find(0, 0);
    if (!a) {
        if (util_grow(&attrs, &capattrs, nattrs + 1, sizeof *attrs) < 0)
            rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for attributes");
        a = &attrs[nattrs++];
    }
    *a = (struct attr){obj, k, val, order};
}

static void attr_set(int obj, int k, void *val)
{
    attr_put(obj, k, val, 0);
}

/* OBJ's attributes in list order (the highest order first), into a new
 * array of *N; NULL when it has none. */
static struct attr *attr_list(int obj, size_t *n)
{
    struct attr *l = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t i = 0; i < nattrs && obj; i++) {
        if (attrs[i].obj != obj)
            continue;
        if (util_grow(&l, &cap, *n + 1, sizeof *l) < 0)
            rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for attributes");
        size_t j = (*n)++;
        for (; j > 0 && l[j - 1].order < attrs[i].order; j--)
            l[j] = l[j - 1];
        l[j] = attrs[i];
    }
    return l;
}

static int keyval_new(int ret, const int *keyval,
                      MPI_Comm_copy_attr_function *copy,
                      MPI_Comm_delete_attr_function *del, void *extra)
{
    struct keyval kv = {*keyval, copy, del, extra};
    if (ret == MPI_SUCCESS && util_htab_put(&keyvals, &kv) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for keyvals");
    return ret;
}

int rpl_MPI_Comm_create_keyval(struct args_MPI_Comm_create_keyval *a)
{
    return keyval_new(rpl_replay_MPI_Comm_create_keyval(a), a->comm_keyval,
                      a->comm_copy_attr_fn, a->comm_delete_attr_fn,
                      a->extra_state);
}

int rpl_MPI_Keyval_create(struct args_MPI_Keyval_create *a)
{
    return keyval_new(rpl_replay_MPI_Keyval_create(a), a->keyval, a->copy_fn,
                      a->delete_fn, a->extra_state);
}

int rpl_MPI_Type_create_keyval(struct args_MPI_Type_create_keyval *a)
{
    return keyval_new(
        rpl_replay_MPI_Type_create_keyval(a), a->type_keyval,
        (MPI_Comm_copy_attr_function *)(void (*)(void))a->type_copy_attr_fn,
        (MPI_Comm_delete_attr_function *)(void (*)(void))
            a->type_delete_attr_fn,
        a->extra_state);
}

int rpl_MPI_Win_create_keyval(struct args_MPI_Win_create_keyval *a)
{
    return keyval_new(
        rpl_replay_MPI_Win_create_keyval(a), a->win_keyval,
        (MPI_Comm_copy_attr_function *)(void (*)(void))a->win_copy_attr_fn,
        (MPI_Comm_delete_attr_function *)(void (*)(void))
            a->win_delete_attr_fn,
        a->extra_state);
}

static int set_attr(int ret, int obj, int keyval, void *val)
{
    if (ret == MPI_SUCCESS)
        attr_set(obj, keyval, val);
    return ret;
}

int rpl_MPI_Comm_set_attr(struct args_MPI_Comm_set_attr *a)
{
    return set_attr(rpl_replay_MPI_Comm_set_attr(a), a->comm, a->comm_keyval,
                    a->attribute_val);
}

int rpl_MPI_Attr_put(struct args_MPI_Attr_put *a)
{
    return set_attr(rpl_replay_MPI_Attr_put(a), a->comm, a->keyval,
                    a->attribute_val);
}

int rpl_MPI_Win_set_attr(struct args_MPI_Win_set_attr *a)
{
    return set_attr(rpl_replay_MPI_Win_set_attr(a), a->win, a->win_keyval,
                    a->attribute_val);
}

int rpl_MPI_Type_set_attr(struct args_MPI_Type_set_attr *a)
{
    return set_attr(rpl_replay_MPI_Type_set_attr(a), a->datatype,
                    a->type_keyval, a->attribute_val);
}

static int delete_attr(int ret, int obj, int keyval)
{
    struct attr *a = attr_find(obj, keyval);
    if (ret == MPI_SUCCESS && a)
        attr_delete((size_t)(a - attrs));
    return ret;
}

int rpl_MPI_Comm_delete_attr(struct args_MPI_Comm_delete_attr *a)
{
    return delete_attr(rpl_replay_MPI_Comm_delete_attr(a), a->comm,
                       a->comm_keyval);
}

int rpl_MPI_Attr_delete(struct args_MPI_Attr_delete *a)
{
    return delete_attr(rpl_replay_MPI_Attr_delete(a), a->comm, a->keyval);
}

int rpl_MPI_Win_delete_attr(struct args_MPI_Win_delete_attr *a)
{
    return delete_attr(rpl_replay_MPI_Win_delete_attr(a), a->win,
                       a->win_keyval);
}

int rpl_MPI_Type_delete_attr(struct args_MPI_Type_delete_attr *a)
{
    return delete_attr(rpl_replay_MPI_Type_delete_attr(a), a->datatype,
                       a->type_keyval);
}

int rpl_attr_get(int fn, int obj, int keyval, void *out, int *flag,
                 void *const *base)
{
    struct rpl_call c;
    struct log_field f;
    const int64_t v[] = {obj, keyval};
    int logged_flag = 0, have_val = 0;
    int64_t val = 0, ptr = 0;
    rpl_begin(&c, fn, v, 2, 0);
    while (rpl_field(&c, &f)) {
        if (f.kind != LOG_F_RAW)
            rpl_out_other(&c, &f);
        else if (f.arg == 3 && f.len == 4)
            logged_flag = (int)rpl_get_i32(f.data);
        else if (f.arg == 2 && f.elem == 1 && f.len <= 8) {
            memcpy(&val, f.data, f.len);
            have_val = 1;
        } else if (f.arg == 2 && f.elem == 0 && f.len == 8) {
            memcpy(&ptr, f.data, 8);
        }
    }
    if (DRDB_MPI_HANDLE_BUILTIN(keyval)) { /* MPICH: a builtin keyval */
        *flag = logged_flag;
        if (logged_flag && !have_val) {
            /* The value is an address (MPI_WIN_BASE): of the memory here
             * rather than the recorded one. */
            if (base)
                ptr = (int64_t)(intptr_t)*base;
            memcpy(out, &ptr, sizeof ptr);
        } else if (logged_flag) {
            int64_t *slot = &predefined_vals[keyval & 15];
            *slot = val;
            memcpy(out, &slot, sizeof slot);
        }
    } else {
        struct attr *a = attr_find(obj, keyval);
        *flag = a != NULL;
        if (a)
            memcpy(out, &a->val, sizeof a->val);
        if (*flag != logged_flag)
            rpl_fail(&c, RPL_EXIT_DIVERGED, "replay diverged: attribute "
                     "%#x is %s here but was %s in the recorded run",
                     (unsigned)keyval, *flag ? "set" : "not set",
                     logged_flag ? "set" : "not set");
    }
    return rpl_end(&c, (MPI_Comm)obj);
}

int rpl_MPI_Comm_get_attr(struct args_MPI_Comm_get_attr *a)
{
    return rpl_attr_get(LOG_FN_MPI_Comm_get_attr, a->comm, a->comm_keyval,
                        a->attribute_val, a->flag, NULL);
}

int rpl_MPI_Type_get_attr(struct args_MPI_Type_get_attr *a)
{
    return rpl_attr_get(LOG_FN_MPI_Type_get_attr, a->datatype,
                        a->type_keyval, a->attribute_val, a->flag, NULL);
}

int rpl_MPI_Attr_get(struct args_MPI_Attr_get *a)
{
    return rpl_attr_get(LOG_FN_MPI_Attr_get, a->comm, a->keyval,
                        a->attribute_val, a->flag, NULL);
}

/* A dup copies FROM's attributes to TO through the copy callbacks, in
 * list order; the copies keep it. */
void rpl_attrs_copy(int from, int to)
{
    size_t n;
    struct attr *l = attr_list(from, &n);
    uint64_t base = next_order;
    next_order += n + 1;
    for (size_t i = 0; i < n; i++) {
        const struct keyval *kv = util_htab_find(&keyvals, l[i].keyval);
        if (!kv || !kv->copy || kv->copy == MPI_COMM_NULL_COPY_FN)
            continue;
        void *out = NULL;
        int flag = 0, ret;
        rpl_cb_enter();
        ret = kv->copy(from, l[i].keyval, kv->extra, l[i].val, &out, &flag);
        rpl_cb_leave();
        if (ret == MPI_SUCCESS && flag)
            attr_put(to, l[i].keyval, out, base + n - i);
    }
    free(l);
}

/* Freeing OBJ deletes its attributes in list order. */
void rpl_attrs_drop(int obj)
{
    size_t n;
    struct attr *l = attr_list(obj, &n);
    for (size_t i = 0; i < n; i++) {
        struct attr *a = attr_find(obj, l[i].keyval);
        if (a && a->order == l[i].order)
            attr_delete((size_t)(a - attrs));
    }
    free(l);
}

/* MPI_Finalize: MPI_COMM_SELF's attributes, then MPI_COMM_WORLD's. */
void rpl_attrs_finalize(void)
{
    rpl_attrs_drop(MPI_COMM_SELF);
    rpl_attrs_drop(MPI_COMM_WORLD);
}

int rpl_MPI_Comm_dup(struct args_MPI_Comm_dup *a)
{
    int ret = rpl_replay_MPI_Comm_dup(a);
    if (ret == MPI_SUCCESS)
        rpl_attrs_copy(a->comm, *a->newcomm);
    return ret;
}

int rpl_MPI_Comm_idup(struct args_MPI_Comm_idup *a)
{
    int ret = rpl_replay_MPI_Comm_idup(a);
    if (ret == MPI_SUCCESS)
        rpl_attrs_copy(a->comm, *a->newcomm);
    return ret;
}

int rpl_MPI_Comm_free(struct args_MPI_Comm_free *a)
{
    MPI_Comm old = *a->comm;
    int ret = rpl_replay_MPI_Comm_free(a);
    if (ret == MPI_SUCCESS)
        rpl_attrs_drop(old);
    return ret;
}

/* MPI_COMM_DUP_FN and friends (mpi.h: MPI_DUP_FN is MPIR_Dup_fn). */
int MPIR_Dup_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out,
                int *flag);
int MPIR_Dup_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out,
                int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    memcpy(out, &in, sizeof in);
    *flag = 1;
    return MPI_SUCCESS;
}
