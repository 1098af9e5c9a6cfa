/* corpus: class=type expect=ok np=3 */
/* Twin of ull-unsigned-allgather-bad: every rank contributes one unsigned
 * long long to MPI_Allgather, as MPI_UNSIGNED_LONG_LONG (MPI 4.0 sec.
 * 3.2.2, 3.3.1, 6.7). */
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
    MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all, 1,
                  MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    for (i = 0; i < size && i < 3; i++) {
        want = (1ULL << 40) + i;
        if (all[i] != want)
            printf("rank %d: all[%d] = %llu, expected %llu\n", rank, i,
                   all[i], want);
    }
    MPI_Finalize();
    return 0;
}
