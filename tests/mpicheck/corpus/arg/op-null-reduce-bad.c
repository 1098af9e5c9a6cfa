/* corpus: class=arg expect=bad np=3 */
/* All ranks reduce an int to root 1 with op MPI_OP_NULL.
 * Breaks MPI 4.0 sec. 6.9.1/6.9.2: op must be a valid (predefined or
 * user-defined) reduction operation handle.
 * MPICH 4.0.2 aborts: Invalid MPI_Op. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, in, out = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    in = rank + 1;
    MPI_Reduce(&in, &out, 1, MPI_INT, MPI_OP_NULL, 1, MPI_COMM_WORLD);
    if (rank == 1 && out <= 0)
        printf("rank 1: got %d\n", out);
    MPI_Finalize();
    return 0;
}
