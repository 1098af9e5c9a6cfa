/*
 * diverge - a small job that the replay tests record as it is ("same") and
 * then replay with another MODE, to make the replay diverge on purpose.
 *
 *   mpiexec -n 2 ./diverge MODE
 *
 * Rank 0 sends four messages of 8 ints (tag 5) to rank 1, then every rank
 * calls MPI_Barrier and MPI_Finalize. By MODE, rank 0:
 *   same     does just that
 *   count    sends the third message with 7 ints (an argument changes)
 *   data     sends the third message with other contents (seen when the
 *            run was recorded with --send-data)
 *   extra    calls MPI_Comm_rank once more after the sends (an extra call)
 *   missing  exits after the sends, without the barrier or MPI_Finalize
 * and rank 1:
 *   anysource  receives the third message from MPI_ANY_SOURCE (the log
 *            has source 0)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "same";
    int rank, buf[8] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 4; i++) {
        if (rank == 0) {
            int n = strcmp(mode, "count") == 0 && i == 2 ? 7 : 8;
            for (int k = 0; k < 8; k++)
                buf[k] = i * 10 + k + (strcmp(mode, "data") == 0 && i == 2);
            MPI_Send(buf, n, MPI_INT, 1, 5, MPI_COMM_WORLD);
        } else if (rank == 1) {
            int from = strcmp(mode, "anysource") == 0 && i == 2
                           ? MPI_ANY_SOURCE : 0;
            MPI_Recv(buf, 8, MPI_INT, from, 5, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            printf("rank 1: message %d: %d..%d\n", i, buf[0], buf[7]);
        }
    }
    if (rank == 0 && strcmp(mode, "extra") == 0)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && strcmp(mode, "missing") == 0)
        exit(0);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
