/* corpus: class=deadlock expect=ok np=2 */
/* Twin of recv-recv-bad: the head-to-head exchange is done with one
 * MPI_Sendrecv per rank, which cannot deadlock (MPI 4.0 section 3.10). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, other, out, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    out = 100 + rank;
    MPI_Sendrecv(&out, 1, MPI_INT, other, 0, &in, 1, MPI_INT, other, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: got %d\n", rank, in);
    MPI_Finalize();
    return 0;
}
