/* race.any-source-probe, planted: ranks 1 and 2 each send rank 0 one
 * message (tag 7); rank 0 MPI_Probe(MPI_ANY_SOURCE)s, then receives from
 * the source the probe names, twice. The first probe (rank 0's event 3)
 * could have seen the other sender's message (its event 3); the second
 * probe (event 5) could not: the only other one was taken. The receives
 * name their source: no race.any-source. (Twin: race-anysource-ok.c, whose
 * receives are ordered.) */
#include "mpicheck-init.h"

int main(int argc, char **argv)
{
    int v = 0;
    MPI_Status st;
    int rank = mpicheck_init(&argc, &argv, 3);
    if (rank == 0) {
        for (int i = 0; i < 2; i++) {
            MPI_Probe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
            MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, 7, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        }
    } else {
        v = rank;
        MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
