/* race.any-source, planted: ranks 1 and 2 each send rank 0 one message
 * (tag 7), which rank 0 takes with two MPI_Recv(MPI_ANY_SOURCE): either
 * sender's can come first. The first receive (rank 0's event 3: after
 * MPI_Init, MPI_Comm_rank, MPI_Comm_size) could have taken the other
 * sender's message (its event 3 too); the second could not: the first
 * took the only other one. */
#include <stdio.h>

#include "mpicheck-init.h"

int main(int argc, char **argv)
{
    int v = 0;
    MPI_Status st;
    int rank = mpicheck_init(&argc, &argv, 3);
    if (rank == 0) {
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
        printf("rank 0: first from %d\n", st.MPI_SOURCE);
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
    } else {
        v = rank;
        MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
