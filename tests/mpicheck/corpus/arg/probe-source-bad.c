/* corpus: class=arg expect=bad np=3 */
/* Ranks 1.. send their rank to rank 0, which probes each message to learn its
 * size; the probe uses source = size instead of MPI_ANY_SOURCE.  Breaks MPI 4.0
 * sec. 3.8.1: source must be a valid rank, MPI_ANY_SOURCE or MPI_PROC_NULL.
 * MPICH 4.0.2 aborts: Invalid rank. */
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
            MPI_Probe(size, 5, MPI_COMM_WORLD, &st);
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
