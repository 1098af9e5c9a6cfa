/* Callbacks inside callbacks: a delete callback that frees another
 * communicator whose attribute has a delete callback too (depth 2), a
 * copy callback that dups (depth 2 copies), and an error handler whose
 * own failing call runs a handler again. */
#include <mpi.h>
#include <stdio.h>

static int me, kv_outer, kv_inner, depth;
static MPI_Comm inner;

static int inner_del(MPI_Comm c, int kv, void *val, void *extra)
{
    int r;
    MPI_Comm_rank(c, &r);
    printf("rank %d: inner delete val=%ld rank=%d\n", me, (long)(intptr_t)val, r);
    (void)kv;
    (void)extra;
    return MPI_SUCCESS;
}

static int outer_del(MPI_Comm c, int kv, void *val, void *extra)
{
    printf("rank %d: outer delete val=%ld, inner %s\n", me,
           (long)(intptr_t)val, inner == MPI_COMM_NULL ? "gone" : "freed");
    if (inner != MPI_COMM_NULL)
        MPI_Comm_free(&inner);
    printf("rank %d: outer delete done\n", me);
    (void)c;
    (void)kv;
    (void)extra;
    return MPI_SUCCESS;
}

static int outer_copy(MPI_Comm c, int kv, void *extra, void *in, void *out,
                      int *flag)
{
    MPI_Comm tmp;
    int sz;
    MPI_Comm_dup(inner, &tmp); /* copies inner's attribute: depth 2 */
    MPI_Comm_size(tmp, &sz);
    MPI_Comm_free(&tmp);
    printf("rank %d: outer copy, tmp size %d\n", me, sz);
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    (void)c;
    (void)kv;
    (void)extra;
    return MPI_SUCCESS;
}

static void handler(MPI_Comm *comm, int *code, ...)
{
    int cls, buf = 0;
    MPI_Error_class(*code, &cls);
    depth++;
    printf("rank %d: handler depth %d class %d\n", me, depth, cls);
    if (depth == 1)
        MPI_Send(&buf, 1, MPI_INT, -7, 0, *comm); /* fails again */
    depth--;
}

int main(int argc, char **argv)
{
    MPI_Comm outer, copy;
    MPI_Errhandler eh;
    int buf = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, inner_del, &kv_inner, NULL);
    MPI_Comm_create_keyval(outer_copy, outer_del, &kv_outer, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &inner);
    MPI_Comm_dup(MPI_COMM_WORLD, &outer);
    MPI_Comm_set_attr(inner, kv_inner, (void *)(intptr_t)(10 + me));
    MPI_Comm_set_attr(outer, kv_outer, (void *)(intptr_t)(20 + me));
    MPI_Comm_dup(outer, &copy);
    MPI_Comm_free(&copy);
    MPI_Comm_free(&outer);
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Send(&buf, 1, MPI_INT, -3, 0, MPI_COMM_WORLD);
    printf("rank %d: after the failed send\n", me);
    MPI_Errhandler_free(&eh);
    MPI_Finalize();
    return 0;
}
