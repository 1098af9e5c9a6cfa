/* corpus: class=order expect=bad np=2 */
/* Ranks 0 and 1 exchange records of 3 doubles with MPI_Sendrecv using a
 * contiguous type that was created but never committed.  Breaks MPI 4.0
 * sec. 5.1.9: MPI_Type_commit must precede use in communication.
 * MPICH 4.0.2 aborts: Invalid datatype. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    double mine[3], theirs[3];
    MPI_Datatype rec;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine[0] = mine[1] = mine[2] = rank;
    MPI_Type_contiguous(3, MPI_DOUBLE, &rec);
    MPI_Sendrecv(mine, 1, rec, 1 - rank, 0, theirs, 1, rec, 1 - rank, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&rec);
    MPI_Finalize();
    return 0;
}
