/* corpus: class=type expect=bad np=3 */
/* Rank 0 broadcasts an array of 4 ints, described as 2 MPI_DOUBLE (the
 * same number of bytes).  Breaks MPI 4.0 sec. 3.3.1 (and 6.4): the buffer
 * holds ints, so the datatype must be MPI_INT; type matching is by type,
 * not by size.
 * MPICH 4.0.2 does not detect it: completes silently and, since the bytes
 * are copied unchanged, every rank even ends up with the right values. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, v[4] = {0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        for (i = 0; i < 4; i++)
            v[i] = 100 + i;
    MPI_Bcast(v, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = 0; i < 4; i++)
        if (v[i] != 100 + i)
            printf("rank %d: v[%d] = %d, expected %d\n", rank, i, v[i], 100 + i);
    MPI_Finalize();
    return 0;
}
