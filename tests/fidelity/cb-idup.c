#include <mpi.h>
#include <stdio.h>
static int me;
static int copy_fn(MPI_Comm comm, int kv, void *extra, void *in, void *out, int *flag)
{
    int r;
    MPI_Comm_rank(comm, &r);
    printf("rank %d: copy in idup, rank %d\n", me, r);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
int main(int argc, char **argv)
{
    int kv, flag;
    void *v;
    MPI_Comm d;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &kv, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kv, (void *)(intptr_t)(me + 5));
    MPI_Comm_idup(MPI_COMM_WORLD, &d, &req);
    printf("rank %d: idup started\n", me);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Comm_get_attr(d, kv, &v, &flag);
    printf("rank %d: flag %d val %ld\n", me, flag, (long)(intptr_t)v);
    MPI_Comm_free(&d);
    MPI_Finalize();
    return 0;
}
