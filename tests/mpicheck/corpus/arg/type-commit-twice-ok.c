/* corpus: class=arg expect=ok np=2 */
/* Legal unusual usage: a vector type is committed twice (committing an
 * already committed type is allowed, sec. 5.1.9) and used in MPI_Sendrecv. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, other, i, a[6], b[6];
    MPI_Datatype every2;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    for (i = 0; i < 6; i++)
        a[i] = b[i] = rank * 10 + i;
    MPI_Type_vector(3, 1, 2, MPI_INT, &every2);
    MPI_Type_commit(&every2);
    MPI_Type_commit(&every2);
    MPI_Sendrecv(a, 1, every2, other, 0, b, 1, every2, other, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&every2);
    MPI_Finalize();
    return 0;
}
