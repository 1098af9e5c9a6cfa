/* coll.op planted: MPI_Allreduce with MPI_SUM at rank 0 and MPI_MAX at
 * rank 1; then MPI_Reduce (root 0) with MPI_SUM at rank 0 and an op of
 * the program's own at rank 1. Both complete (wrong results).
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler,
 * 3 MPI_Op_create, 4 MPI_Allreduce, 5 MPI_Reduce, 6 MPI_Op_free,
 * 7 MPI_Finalize.
 */
#include <mpi.h>

static void add(void *in, void *inout, int *len, MPI_Datatype *type)
{
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
    (void)type;
}

int main(int argc, char **argv)
{
    int rank, in[4] = {1, 2, 3, 4}, out[4];
    MPI_Op mine;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Op_create(add, 1, &mine);
    MPI_Allreduce(in, out, 4, MPI_INT, rank ? MPI_MAX : MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Reduce(in, out, 4, MPI_INT, rank ? mine : MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Op_free(&mine);
    MPI_Finalize();
    return 0;
}
