/* corpus: class=order expect=bad np=4 */
/* All ranks start an MPI_Iallreduce and then do other work (a blocking
 * MPI_Bcast) but never wait for the nonblocking collective.  Breaks MPI 4.0
 * sec. 6.12/3.7.3: a nonblocking collective request must be completed.
 * MPICH does not detect it (exits 0). */
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
    MPI_Finalize();
    return 0;
}
