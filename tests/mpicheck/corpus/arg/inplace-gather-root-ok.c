/* corpus: class=arg expect=ok np=3 */
/* Gather of one int per rank to root 0, with MPI_IN_PLACE as sendbuf at the
 * root (legal, sec. 6.5) and NULL recvbuf at non-roots (twin of
 * inplace-gather-nonroot-bad.c). */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, mine, all[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine = 10 * rank;
    all[0] = mine;
    if (rank == 0)
        MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Gather(&mine, 1, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
