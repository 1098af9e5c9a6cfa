/* corpus: class=coll expect=bad np=3 hang=1 */
/* Six iterations of MPI_Allreduce; in iteration 4 rank 1 skips it, so it
 * calls MPI_Allreduce only five times: all members must make the same
 * sequence of collective calls (MPI 4.0 section 6.14). Hangs under
 * MPICH 4.0.2 (ranks 0 and 2 wait in the sixth MPI_Allreduce). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, local, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 6; i++) {
        local = rank * i;
        if (rank == 1 && i == 4)
            continue; /* nothing to contribute this time */
        MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            printf("iteration %d: total %d\n", i, total);
    }
    MPI_Finalize();
    return 0;
}
