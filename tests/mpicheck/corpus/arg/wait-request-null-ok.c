/* corpus: class=arg expect=ok np=2 */
/* Legal unusual usage: MPI_Wait/MPI_Test on MPI_REQUEST_NULL and MPI_Waitall
 * over an array containing null requests (sec. 3.7.3: they return at once
 * with an empty status). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, flag = 0, x = 1, y = 0;
    MPI_Request r = MPI_REQUEST_NULL, reqs[3];
    MPI_Status sts[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    reqs[0] = MPI_REQUEST_NULL;
    MPI_Isend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &reqs[1]);
    MPI_Irecv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &reqs[2]);
    MPI_Waitall(3, reqs, sts);
    MPI_Finalize();
    return 0;
}
