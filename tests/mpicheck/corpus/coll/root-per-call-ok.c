/* corpus: class=coll expect=ok np=4 */
/* A loop of MPI_Bcast and MPI_Reduce whose root changes from one call to
 * the next (i % size, then the reverse) but is the same at every rank for
 * each call (MPI 4.0 sections 6.4, 6.9.1). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, i, root, value, sum;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < 2 * size; i++) {
        root = i % size;
        value = (rank == root) ? i * 10 : -1;
        MPI_Bcast(&value, 1, MPI_INT, root, MPI_COMM_WORLD);
        root = size - 1 - root;
        sum = 0;
        MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        if (rank == root)
            printf("iteration %d: root %d sum %d\n", i, root, sum);
    }
    MPI_Finalize();
    return 0;
}
