/* corpus: class=type expect=ok np=2 */
/* Twin of sendrecv-count-overrun-bad: ranks 0 and 1 swap arrays of 4
 * doubles with MPI_Sendrecv, send count 4; the receive count 6 is only an
 * upper bound and theirs[6] can hold it (MPI 4.0 sec. 3.2.4, 3.10). */
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
        MPI_Sendrecv(mine, 4, MPI_DOUBLE, peer, 0, theirs, 6, MPI_DOUBLE,
                     peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < 4; i++)
            if (theirs[i] != peer + 0.5 * i)
                printf("rank %d: theirs[%d] = %g\n", rank, i, theirs[i]);
    }
    MPI_Finalize();
    return 0;
}
