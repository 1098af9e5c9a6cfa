/*
 * Attributes. Attribute values are the program's (pointers of this
 * process), so they are kept here rather than taken from the log; MPI
 * called the copy and delete callbacks inside Comm_dup, Comm_free,
 * set_attr and delete_attr, and so does the replay. Predefined attributes
 * (MPI_TAG_UB, ...) are the logged values. The program's own window
 * attributes share the communicators' table (MPICH never gives a window
 * and a communicator the same handle value, nor two keyvals of different
 * kinds the same value). The mirror of recorder/rec-attr.c.
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
    int obj; /* a communicator or a window (0: a free slot) */
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

/* Runs the delete callback of attrs[I], which is then free (the callback
 * may set attributes: the table may move). */
static void attr_delete(size_t i)
{
    struct attr a = attrs[i];
    const struct keyval *kv = util_htab_find(&keyvals, a.keyval);
    if (kv && kv->del && kv->del != MPI_COMM_NULL_DELETE_FN)
        kv->del((MPI_Comm)a.obj, a.keyval, a.val, kv->extra);
    attrs[i].obj = 0;
}

static void attr_set(int obj, int k, void *val)
{
    struct attr *a = attr_find(obj, k);
    if (a)
        attr_delete((size_t)(a - attrs));
    a = attr_find(0, 0);
    if (!a) {
        if (util_grow(&attrs, &capattrs, nattrs + 1, sizeof *attrs) < 0)
            rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for attributes");
        a = &attrs[nattrs++];
    }
    *a = (struct attr){obj, k, val};
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

int rpl_MPI_Attr_get(struct args_MPI_Attr_get *a)
{
    return rpl_attr_get(LOG_FN_MPI_Attr_get, a->comm, a->keyval,
                        a->attribute_val, a->flag, NULL);
}

/* MPI_Comm_dup and MPI_Comm_idup copy the attributes through the copy
 * callbacks. */
static void attrs_copy(MPI_Comm from, MPI_Comm to)
{
    for (size_t i = 0; i < nattrs; i++) {
        struct attr a = attrs[i];
        if (a.obj != (int)from || !from)
            continue;
        const struct keyval *kv = util_htab_find(&keyvals, a.keyval);
        if (!kv || !kv->copy || kv->copy == MPI_COMM_NULL_COPY_FN)
            continue;
        void *out = NULL;
        int flag = 0;
        if (kv->copy(from, a.keyval, kv->extra, a.val, &out, &flag) ==
                MPI_SUCCESS && flag)
            attr_set(to, a.keyval, out);
    }
}

void rpl_attrs_drop(int obj)
{
    for (size_t i = 0; i < nattrs; i++)
        if (attrs[i].obj == obj && obj)
            attr_delete(i);
}

int rpl_MPI_Comm_dup(struct args_MPI_Comm_dup *a)
{
    int ret = rpl_replay_MPI_Comm_dup(a);
    if (ret == MPI_SUCCESS)
        attrs_copy(a->comm, *a->newcomm);
    return ret;
}

int rpl_MPI_Comm_idup(struct args_MPI_Comm_idup *a)
{
    int ret = rpl_replay_MPI_Comm_idup(a);
    if (ret == MPI_SUCCESS)
        attrs_copy(a->comm, *a->newcomm);
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
