/* corpus: class=order expect=bad np=2 */
/* A library-style routine duplicates MPI_COMM_WORLD, communicates on the
 * duplicate and returns without freeing it; it is still allocated at
 * MPI_Finalize.  Breaks MPI 4.0 sec. 7.4.3/11.2.2 (communicators must be freed).
 * MPICH does not detect it (exits 0). */
#include <mpi.h>

static int lib_sum(int v)
{
    MPI_Comm priv;
    int s;

    MPI_Comm_dup(MPI_COMM_WORLD, &priv);
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, priv);
    return s;
}

int main(int argc, char **argv)
{
    int rank, s;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    s = lib_sum(rank);
    s += lib_sum(s);
    MPI_Finalize();
    return s < 0;
}
