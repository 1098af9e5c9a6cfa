/* corpus: class=arg expect=ok np=3 */
/* Ranks 1.. send their rank to rank 0, which probes with MPI_ANY_SOURCE,
 * sizes the message with MPI_Get_count and receives it (twin of probe-source-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, i, n, v[4];
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (i = 1; i < size; i++) {
            MPI_Probe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &n);
            MPI_Recv(v, n, MPI_INT, st.MPI_SOURCE, 5, MPI_COMM_WORLD, &st);
        }
    } else {
        v[0] = rank;
        MPI_Send(v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
