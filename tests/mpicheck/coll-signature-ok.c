/* The twin of coll-signature-bad.c: MPI_Bcast of 4 MPI_INT at the root and
 * 1 x contiguous(4, MPI_INT) at rank 1 (the same signature); MPI_Gather of
 * 4 MPI_INT from each; MPI_Allgather in place (sendcount 0,
 * MPI_DATATYPE_NULL: ignored); MPI_Allreduce of 2 MPI_INT everywhere.
 * coll.* find nothing.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[8] = {1, 2, 3, 4}, all[8] = {0};
    MPI_Datatype four;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(4, MPI_INT, &four);
    MPI_Type_commit(&four);
    if (rank == 0)
        MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Bcast(buf, 1, four, 0, MPI_COMM_WORLD);
    MPI_Gather(buf, 4, MPI_INT, all, 4, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 4, MPI_INT,
                  MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, buf, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Type_free(&four);
    MPI_Finalize();
    return 0;
}
