/* corpus: class=arg expect=bad np=3 */
/* All ranks call MPI_Bcast with MPI_IN_PLACE as the buffer.  Breaks MPI 4.0
 * sec. 6.4: MPI_Bcast has no in-place option (MPI_IN_PLACE is only allowed
 * where sec. 6 lists it).
 * MPICH 4.0.2 crashes (SIGSEGV), no MPI error. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, v = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        v = 11;
    MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (v != 11)
        printf("rank %d: got %d\n", rank, v);
    MPI_Finalize();
    return 0;
}
