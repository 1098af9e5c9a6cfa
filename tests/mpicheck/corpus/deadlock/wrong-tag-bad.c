/* corpus: class=deadlock expect=bad np=2 hang=1 */
/* Rank 0 sends a request with tag 1 and waits for a reply; rank 1 receives
 * the request with tag 2 (the reply tag), so no message matches its
 * MPI_Recv (MPI 4.0 section 3.2.4) and both block. Hangs under MPICH 4.0.2. */
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
        MPI_Recv(&query, 1, MPI_INT, 0, TAG_REPLY, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        answer = 2 * query;
        MPI_Send(&answer, 1, MPI_INT, 0, TAG_REPLY, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
