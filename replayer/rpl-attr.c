/*
 * Attributes. Attribute values are the program's (pointers of this
 * process), so they are kept here rather than taken from the log:
 * set_attr and delete_attr change the table, a getter reads it (the
 * logged flag checked). Predefined attributes (MPI_TAG_UB, ...) are the
 * logged values. The copy and delete callbacks run where the log's
 * entries say MPI ran them (inside Comm_dup, Type_dup, a free, set_attr,
 * delete_attr, MPI_Finalize: rpl_attr_callback), in that order, on the
 * values here. The program's communicator, datatype and window attributes
 * share one table (MPICH never gives two such objects the same handle
 * value, nor two keyvals of different kinds the same value). The mirror of
 * recorder/rec-attr.c and rec-cb.c.
 */
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
};
static struct util_htab keyvals = UTIL_HTAB_INIT(struct keyval, keyval, 0);
static struct attr *attrs;
static size_t nattrs, capattrs;
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

static void attr_set(int obj, int k, void *val)
{
    struct attr *a = attr_find(obj, k);
    if (!a)
        a = attr_find(0, 0);
    if (!a) {
        if (util_grow(&attrs, &capattrs, nattrs + 1, sizeof *attrs) < 0)
            rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for attributes");
        a = &attrs[nattrs++];
    }
    *a = (struct attr){obj, k, val};
}

void rpl_attr_callback(struct rpl_call *c, const struct log_cb *cb,
                       int64_t newobj)
{
    const struct keyval *kv = util_htab_find(&keyvals, cb->handle);
    struct attr *a = attr_find((int)cb->obj, cb->handle);
    if (cb->what == LOG_CB_COPY && !newobj)
        rpl_fail(c, RPL_EXIT_SETUP, "MPI ran a copy callback (keyval %#x) "
                 "inside a call that makes no new communicator or datatype: "
                 "the replay cannot tell where the copy goes",
                 (unsigned)cb->handle);
    if (!kv || !a || (cb->what == LOG_CB_COPY ? !kv->copy : !kv->del))
        rpl_fail(c, RPL_EXIT_DIVERGED, "replay diverged: MPI ran the %s "
                 "callback of keyval %#x on object %#x, whose attribute the "
                 "replay does not have", cb->what == LOG_CB_COPY ? "copy"
                 : "delete", (unsigned)cb->handle, (unsigned)cb->obj);
    struct attr at = *a;
    void *out = NULL;
    int flag = 0, ret;
    rpl_cb_enter();
    if (cb->what == LOG_CB_COPY)
        ret = kv->copy((MPI_Comm)at.obj, at.keyval, kv->extra, at.val, &out,
                       &flag);
    else
        ret = kv->del((MPI_Comm)at.obj, at.keyval, at.val, kv->extra);
    rpl_cb_leave();
    if (cb->what == LOG_CB_COPY && ret == MPI_SUCCESS && flag && newobj)
        attr_set((int)newobj, at.keyval, out);
    if (cb->what == LOG_CB_DELETE && ret == MPI_SUCCESS &&
        (a = attr_find(at.obj, at.keyval)) && a->val == at.val)
        a->obj = 0;
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

/* The delete callback, if any, ran as the log says. */
static int delete_attr(int ret, int obj, int keyval)
{
    struct attr *a = attr_find(obj, keyval);
    if (ret == MPI_SUCCESS && a)
        a->obj = 0;
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

/* Freeing OBJ: its attributes whose keyval has a delete callback are gone
 * when the log's entries say MPI ran it (MPICH may delete them later: a
 * datatype lives on while another is built on it); the others now. */
void rpl_attrs_drop(int obj)
{
    for (size_t i = 0; i < nattrs; i++) {
        const struct keyval *kv = util_htab_find(&keyvals, attrs[i].keyval);
        if (attrs[i].obj == obj && obj && (!kv || !kv->del))
            attrs[i].obj = 0;
    }
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
