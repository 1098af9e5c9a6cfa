/* corpus: class=deadlock expect=ok np=3 */
/* Rank 0 has nothing to do and calls MPI_Finalize at once, while ranks 1
 * and 2 go on exchanging 50 ping-pong messages among themselves before they
 * finalize. Legal: rank 0 has no pending communication (MPI 4.0 11.2.2). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, ball = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        for (i = 0; i < 50; i++) {
            ball++;
            MPI_Send(&ball, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
            MPI_Recv(&ball, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        printf("rank 1: ball %d\n", ball);
    } else if (rank == 2) {
        for (i = 0; i < 50; i++) {
            MPI_Recv(&ball, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            ball++;
            MPI_Send(&ball, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
