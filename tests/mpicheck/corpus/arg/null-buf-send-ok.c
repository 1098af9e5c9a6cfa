/* corpus: class=arg expect=ok np=2 */
/* Rank 0 sends 4 ints to rank 1 through a pointer to a real array
 * (correct twin of null-buf-send-bad.c). */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, data[4] = {4, 3, 2, 1};
    int *p = data;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(p, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(data, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
