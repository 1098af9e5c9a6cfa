/* corpus: class=arg expect=bad np=3 */
/* With MPI_ERRORS_RETURN on MPI_COMM_WORLD, all ranks call MPI_Allgather with
 * a NULL receive buffer for 3 ints, then continue with a barrier.  Breaks MPI
 * 4.0 sec. 6.7/3.2.2: a buffer for count > 0 elements must be valid memory.
 * MPICH 4.0.2 returns an error code (ignored); exits 0. */
#include <mpi.h>
#include <stdio.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, *all = NULL;

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
