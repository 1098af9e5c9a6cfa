/* coll.signature planted, each collective of 2 ranks completing:
 *   MPI_Bcast: 4 MPI_INT at the root (0), 2 MPI_DOUBLE at rank 1 (the
 *   same 16 bytes, another signature);
 *   MPI_Gather (root 0): the root expects 4 MPI_INT from each, rank 1
 *   sends 2 (8 bytes against 16);
 *   MPI_Allgather: 1 x contiguous(2, MPI_INT) sent and received at rank
 *   0, 2 MPI_FLOAT at rank 1 (a derived type on one side).
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler,
 * 3 MPI_Type_contiguous, 4 MPI_Type_commit, 5 MPI_Bcast, 6 MPI_Gather,
 * 7 MPI_Allgather, 8 MPI_Type_free, 9 MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[8] = {1, 2, 3, 4}, all[8];
    double d[2];
    float f[2] = {1, 2}, fall[4];
    MPI_Datatype two;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_commit(&two);
    if (rank == 0)
        MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Bcast(d, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gather(buf, rank ? 2 : 4, MPI_INT, all, 4, MPI_INT, 0,
               MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Allgather(buf, 1, two, all, 1, two, MPI_COMM_WORLD);
    else
        MPI_Allgather(f, 2, MPI_FLOAT, fall, 2, MPI_FLOAT, MPI_COMM_WORLD);
    MPI_Type_free(&two);
    MPI_Finalize();
    return 0;
}
