/* corpus: class=order expect=ok np=2 */
/* A library-style routine duplicates MPI_COMM_WORLD, communicates on the
 * duplicate and frees it before returning (twin of comm-dup-leak-bad.c). */
#include <mpi.h>

static int lib_sum(int v)
{
    MPI_Comm priv;
    int s;

    MPI_Comm_dup(MPI_COMM_WORLD, &priv);
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, priv);
    MPI_Comm_free(&priv);
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
