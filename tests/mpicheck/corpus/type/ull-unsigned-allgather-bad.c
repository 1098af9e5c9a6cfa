/* corpus: class=type expect=bad np=3 */
/* Every rank contributes one unsigned long long to MPI_Allgather, but the
 * send and receive buffers are described as MPI_UNSIGNED.  Breaks MPI 4.0
 * sec. 3.3.1 and 6.7: unsigned long long must be sent as
 * MPI_UNSIGNED_LONG_LONG (sec. 3.2.2); only 4 bytes per rank move and they
 * are packed at a 4-byte stride in all[].
 * MPICH 4.0.2 does not detect it: completes, every rank prints wrong
 * values. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, i;
    unsigned long long mine, all[3] = {0, 0, 0}, want;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = (1ULL << 40) + rank;
    MPI_Allgather(&mine, 1, MPI_UNSIGNED, all, 1, MPI_UNSIGNED, MPI_COMM_WORLD);
    for (i = 0; i < size && i < 3; i++) {
        want = (1ULL << 40) + i;
        if (all[i] != want)
            printf("rank %d: all[%d] = %llu, expected %llu\n", rank, i,
                   all[i], want);
    }
    MPI_Finalize();
    return 0;
}
