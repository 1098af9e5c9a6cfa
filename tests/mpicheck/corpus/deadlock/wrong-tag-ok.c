/* corpus: class=deadlock expect=ok np=2 */
/* Twin of wrong-tag-bad: rank 1 receives the request with the request
 * tag, then replies with the reply tag. */
#include <mpi.h>
#include <stdio.h>

#define TAG_REQUEST 1
#define TAG_REPLY 2

int main(int argc, char **argv)
{
    int rank, query = 0, answer = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        query = 21;
        MPI_Send(&query, 1, MPI_INT, 1, TAG_REQUEST, MPI_COMM_WORLD);
        MPI_Recv(&answer, 1, MPI_INT, 1, TAG_REPLY, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        printf("rank 0: answer %d\n", answer);
    } else {
        MPI_Recv(&query, 1, MPI_INT, 0, TAG_REQUEST, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        answer = 2 * query;
        MPI_Send(&answer, 1, MPI_INT, 0, TAG_REPLY, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
