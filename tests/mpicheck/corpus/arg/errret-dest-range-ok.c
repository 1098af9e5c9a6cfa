/* corpus: class=arg expect=ok np=3 */
/* With MPI_ERRORS_RETURN on MPI_COMM_WORLD, rank 0 sends to MPI_PROC_NULL
 * (a no-op, legal) and all ranks go on with an MPI_Allreduce whose return
 * code is checked (twin of errret-dest-range-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x = 1, sum, rc;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    rc = MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS)
        printf("rank %d: Allreduce failed\n", rank);
    MPI_Finalize();
    return 0;
}
