/* A user reduction operator (MPI_Op_create) that calls MPI itself: MPI
 * runs it inside MPI_Allreduce, MPI_Reduce, MPI_Reduce_local and MPI_Scan;
 * its calls are the program's, logged as nested in the reduction, and the
 * replay runs the operator there, its calls replayed from inside it. */
#include <mpi.h>
#include <stdio.h>

static void maxloc_ish(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int sz;
    MPI_Aint lb, ext;
    MPI_Type_size(*dt, &sz);
    MPI_Type_get_extent(*dt, &lb, &ext);
    int *a = in, *b = inout, n = *len * (int)(ext / (MPI_Aint)sizeof(int));
    for (int i = 0; i < n; i++)
        b[i] = (a[i] > b[i] ? a[i] : b[i]) + (sz == 8);
}

int main(int argc, char **argv)
{
    int me, size, v[2], r[2], s[2];
    MPI_Op op;
    MPI_Datatype pair;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(maxloc_ish, 1, &op);
    v[0] = me * 3 % size;
    v[1] = 10 - me;
    MPI_Allreduce(v, r, 1, pair, op, MPI_COMM_WORLD);
    printf("rank %d: allreduce %d %d\n", me, r[0], r[1]);
    MPI_Reduce(v, r, 2, MPI_INT, op, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("rank %d: reduce %d %d\n", me, r[0], r[1]);
    MPI_Scan(v, s, 1, pair, op, MPI_COMM_WORLD);
    printf("rank %d: scan %d %d\n", me, s[0], s[1]);
    r[0] = 5;
    r[1] = 5;
    MPI_Reduce_local(v, r, 1, pair, op);
    printf("rank %d: local %d %d\n", me, r[0], r[1]);
    MPI_Op_free(&op);
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
