/*
 * type.*: an unsigned char array is storage for any type (C11 6.2.6.1: an
 * object's bytes), here a vector of shorts sent and received through it,
 * as serialization buffers do: no finding. Events of each rank: 0
 * MPI_Init, 1 MPI_Comm_rank, 2 MPI_Type_vector, 3 MPI_Type_commit, 4 the
 * send or receive, 5 MPI_Type_free, 6 MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    unsigned char buf[256] = {0};
    int rank;
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(8, 2, 4, MPI_SHORT, &t);
    MPI_Type_commit(&t);
    if (rank == 0)
        MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(buf, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
