/* corpus: class=deadlock expect=ok np=2 */
/* Rank 0 sends a request with MPI_Ssend and waits for the reply; rank 1
 * computes for one second (sleep) before it posts the receive and answers.
 * Rank 0 blocks for a while but there is no deadlock (MPI 4.0 section 3.5). */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, query = 0, answer = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        query = 12;
        MPI_Ssend(&query, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&answer, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 0: answer %d\n", answer);
    } else {
        sleep(1); /* long computation */
        MPI_Recv(&query, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        answer = query * query;
        MPI_Send(&answer, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
