/* corpus: class=deadlock expect=ok np=2 */
/* Twin of extra-recv-bad: rank 1 posts exactly as many receives as rank 0
 * sends (loop bound fixed), then acknowledges. */
#include <mpi.h>
#include <stdio.h>

#define NMSG 2

int main(int argc, char **argv)
{
    int rank, i, value, sum = 0, ack = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (i = 0; i < NMSG; i++) {
            value = i + 1;
            MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        }
        MPI_Recv(&ack, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 0: ack %d\n", ack);
    } else {
        for (i = 0; i < NMSG; i++) {
            MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += value;
        }
        MPI_Send(&sum, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
