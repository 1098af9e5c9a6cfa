/* Datatype and window attribute callbacks: copy on MPI_Type_dup, delete
 * on MPI_Type_free, MPI_Type_delete_attr, set_attr overwrite and
 * MPI_Win_free; the program's own attribute values (pointers) come back
 * from the getters; callbacks that call MPI; MPI-1 keyvals
 * (MPI_Keyval_create, MPI_Attr_put). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int me;
static int tk1, tk2, wk;

struct val {
    int n;
    char tag[8];
};

static int type_copy(MPI_Datatype t, int kv, void *extra, void *in,
                     void *out, int *flag)
{
    int sz;
    struct val *v = in, *c = malloc(sizeof *c);
    MPI_Type_size(t, &sz);
    *c = *v;
    c->n += 1000;
    printf("rank %d: type copy %s n=%d size=%d extra=%s\n", me, v->tag, v->n,
           sz, (char *)extra);
    *(void **)out = c;
    *flag = 1;
    (void)kv;
    return MPI_SUCCESS;
}

static int type_del(MPI_Datatype t, int kv, void *val, void *extra)
{
    struct val *v = val;
    int sz;
    MPI_Type_size(t, &sz);
    printf("rank %d: type delete %s n=%d size=%d kv-first=%d\n", me, v->tag,
           v->n, sz, kv == tk1);
    (void)extra;
    return MPI_SUCCESS;
}

static int win_del(MPI_Win w, int kv, void *val, void *extra)
{
    MPI_Group g;
    int gs;
    MPI_Win_get_group(w, &g);
    MPI_Group_size(g, &gs);
    MPI_Group_free(&g);
    printf("rank %d: win delete val=%ld group=%d\n", me, (long)(intptr_t)val, gs);
    (void)kv;
    (void)extra;
    return MPI_SUCCESS;
}

static int old_del(MPI_Comm c, int kv, void *val, void *extra)
{
    int r;
    MPI_Comm_rank(c, &r);
    printf("rank %d: MPI-1 delete val=%ld rank=%d\n", me, (long)(intptr_t)val, r);
    (void)kv;
    (void)extra;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Datatype t, t2;
    MPI_Win win;
    int buf[4], flag, ok;
    struct val v1 = {me, "one"}, v2 = {7, "two"}, *p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    v1.n = me;
    MPI_Type_create_keyval(type_copy, type_del, &tk1, "x1");
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_del, &tk2, "x2");
    MPI_Type_contiguous(3, MPI_INT, &t);
    MPI_Type_set_attr(t, tk1, &v1);
    MPI_Type_set_attr(t, tk2, &v2);
    MPI_Type_get_attr(t, tk1, &p, &flag);
    ok = flag && p == &v1;
    printf("rank %d: get tk1 flag=%d own pointer=%d n=%d\n", me, flag, ok,
           flag ? p->n : -1);
    MPI_Type_dup(t, &t2);
    MPI_Type_get_attr(t2, tk1, &p, &flag);
    printf("rank %d: dup tk1 flag=%d n=%d %s\n", me, flag, p->n, p->tag);
    MPI_Type_get_attr(t2, tk2, &p, &flag);
    printf("rank %d: dup tk2 flag=%d same=%d\n", me, flag, p == &v2);
    MPI_Type_delete_attr(t, tk2);
    MPI_Type_set_attr(t, tk1, &v2);
    MPI_Type_free(&t);
    MPI_Type_free(&t2);
    MPI_Type_free_keyval(&tk1);
    MPI_Type_free_keyval(&tk2);

    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, &wk, NULL);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_set_attr(win, wk, (void *)(intptr_t)(40 + me));
    MPI_Win_get_attr(win, wk, &p, &flag);
    printf("rank %d: win attr flag=%d val=%ld\n", me, flag, (long)(intptr_t)p);
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Win_free_keyval(&wk);

    int ok1;
    MPI_Comm dup;
    MPI_Keyval_create(MPI_NULL_COPY_FN, old_del, &ok1, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Attr_put(dup, ok1, (void *)(intptr_t)5);
    MPI_Attr_put(dup, ok1, (void *)(intptr_t)6);
    MPI_Attr_delete(dup, ok1);
    MPI_Attr_put(dup, ok1, (void *)(intptr_t)7);
    MPI_Comm_free(&dup);
    MPI_Keyval_free(&ok1);
    MPI_Finalize();
    return 0;
}
