/* corpus: class=coll expect=ok np=3 */
/* Twin of ibcast-bcast-bad: every rank uses MPI_Ibcast + MPI_Wait; the
 * blocking and nonblocking calls are never mixed for one operation. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0, 0, 0, 0};
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        buf[0] = 1; buf[1] = 2; buf[2] = 3; buf[3] = 4;
        MPI_Ibcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Ibcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    printf("rank %d: %d %d %d %d\n", rank, buf[0], buf[1], buf[2], buf[3]);
    MPI_Finalize();
    return 0;
}
