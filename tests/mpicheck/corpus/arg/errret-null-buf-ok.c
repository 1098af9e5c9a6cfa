/* corpus: class=arg expect=ok np=3 */
/* With MPI_ERRORS_RETURN on MPI_COMM_WORLD, all ranks allgather their rank
 * into a 3-int array and meet in a barrier (twin of errret-null-buf-bad.c). */
#include <mpi.h>
#include <stdio.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, buf[3], *all = buf;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    if (all != NULL && all[0] != 0)
        printf("rank %d: all[0] = %d\n", rank, all[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
