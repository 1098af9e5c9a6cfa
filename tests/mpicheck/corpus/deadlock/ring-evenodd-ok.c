/* corpus: class=deadlock expect=ok np=4 */
/* A ring shift with blocking MPI_Ssend/MPI_Recv ordered by parity: even
 * ranks send then receive, odd ranks receive then send. With an even number
 * of ranks every synchronous send meets a posted receive (MPI 4.0 3.4, 3.5). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, left, right, out, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    out = 10 * rank;
    if (rank % 2 == 0) {
        MPI_Ssend(&out, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ssend(&out, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
    }
    printf("rank %d: got %d from %d\n", rank, in, left);
    MPI_Finalize();
    return 0;
}
