/* corpus: class=order expect=ok np=4 */
/* All ranks start an MPI_Iallreduce, overlap it with a blocking MPI_Bcast and
 * then complete it with MPI_Wait (twin of icoll-never-waited-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, in, out = 0, info = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    in = rank * rank;
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    if (rank == 0)
        info = 99;
    MPI_Bcast(&info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
