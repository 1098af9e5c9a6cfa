/* corpus: class=arg expect=ok np=2 */
/* Every rank splits off a communicator; the rank with color MPI_UNDEFINED gets
 * MPI_COMM_NULL and skips using it (twin of comm-size-null-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, n = 0;
    MPI_Comm sub;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 1 ? MPI_UNDEFINED : 0, 0, &sub);
    if (sub != MPI_COMM_NULL) {
        MPI_Comm_size(sub, &n);
        MPI_Comm_free(&sub);
    }
    MPI_Finalize();
    return 0;
}
