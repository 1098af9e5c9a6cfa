/* The twin of coll-op-bad.c: MPI_SUM everywhere, then the op of the
 * program's own everywhere (its handle is each process's: not compared).
 * coll.* find nothing.
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
    MPI_Allreduce(in, out, 4, MPI_INT, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Reduce(in, out, 4, MPI_INT, mine, 0, MPI_COMM_WORLD);
    MPI_Op_free(&mine);
    MPI_Finalize();
    return 0;
}
