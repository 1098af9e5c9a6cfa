/* corpus: class=coll expect=bad np=3 hang=1 */
/* Ranks 0 and 2 call MPI_Comm_dup(MPI_COMM_WORLD) but rank 1 does not and
 * goes straight to an MPI_Bcast on MPI_COMM_WORLD: MPI_Comm_dup is
 * collective over the parent (MPI 4.0 sections 7.4.2, 6.14). Hangs
 * under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Comm lib = MPI_COMM_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 1)
        MPI_Comm_dup(MPI_COMM_WORLD, &lib);
    if (rank == 0)
        value = 5;
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d: value %d\n", rank, value);
    if (lib != MPI_COMM_NULL)
        MPI_Comm_free(&lib);
    MPI_Finalize();
    return 0;
}
