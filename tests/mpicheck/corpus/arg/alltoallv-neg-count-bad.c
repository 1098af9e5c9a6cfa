/* corpus: class=arg expect=bad np=2 */
/* MPI_Alltoallv exchanging one int with every rank; rank 0 gives a recvcount
 * of -1 for rank 1.  Breaks MPI 4.0 sec. 6.8: counts must be non-negative and
 * match the sender's sendcounts.
 * MPICH 4.0.2 aborts: Invalid count. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, i, sc[4], sd[4], rc[4], rd[4], sb[4], rb[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < size; i++) {
        sc[i] = rc[i] = 1;
        sd[i] = rd[i] = i;
        sb[i] = 100 * rank + i;
    }
    if (rank == 0)
        rc[1] = -1;
    MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
