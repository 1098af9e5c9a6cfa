/* corpus: class=type expect=bad np=2 */
/* Ranks 0 and 1 swap arrays of 4 doubles with MPI_Sendrecv, but the send
 * count is 6: 2 doubles are read past the end of mine[4].  Breaks MPI 4.0
 * sec. 3.2.2/3.3.1: the send buffer must consist of count elements of the
 * datatype (here double mine[4] has only 4).
 * MPICH 4.0.2 does not detect it: completes silently (the 2 extra doubles
 * land in theirs[4..5], which are not used). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, peer, i;
    double mine[4], theirs[6];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    for (i = 0; i < 4; i++)
        mine[i] = rank + 0.5 * i;
    if (rank < 2) {
        MPI_Sendrecv(mine, 6, MPI_DOUBLE, peer, 0, theirs, 6, MPI_DOUBLE,
                     peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < 4; i++)
            if (theirs[i] != peer + 0.5 * i)
                printf("rank %d: theirs[%d] = %g\n", rank, i, theirs[i]);
    }
    MPI_Finalize();
    return 0;
}
