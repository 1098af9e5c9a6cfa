/* corpus: class=arg expect=ok np=2 */
/* Rank 1 sends two ints to rank 0 (correct twin of inplace-send-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x[2] = {0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        x[0] = 3;
        x[1] = 4;
    }
    if (rank == 1)
        MPI_Send(x, 2, MPI_INT, 0, 0, MPI_COMM_WORLD);
    else if (rank == 0)
        MPI_Recv(x, 2, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0 && x[1] != 4)
        printf("rank 0: got %d\n", x[1]);
    MPI_Finalize();
    return 0;
}
