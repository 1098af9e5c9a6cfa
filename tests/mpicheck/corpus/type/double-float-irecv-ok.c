/* corpus: class=type expect=ok np=2 */
/* Twin of double-float-irecv-bad: rank 0 sends 4 doubles; rank 1 receives
 * them into a double array with MPI_Irecv(MPI_DOUBLE) + MPI_Wait (MPI 4.0
 * sec. 3.3.1, 3.7). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i;
    double d[4] = {0.5, 1.5, 2.5, 3.5}, r[4] = {0, 0, 0, 0};
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(d, 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(r, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (i = 0; i < 4; i++)
            if (r[i] != d[i])
                printf("rank 1: r[%d] = %g, expected %g\n", i, r[i], d[i]);
    }
    MPI_Finalize();
    return 0;
}
