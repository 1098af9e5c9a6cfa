/* corpus: class=type expect=bad np=2 */
/* Rank 0 sends a pair of longs to rank 1 with MPI_Isend/MPI_Irecv using a
 * contiguous datatype built as MPI_Type_contiguous(2, MPI_INT).  Breaks MPI
 * 4.0 sec. 5.1.11 and 3.3.1: the type map {(int,0),(int,4)} does not match
 * the buffer, a long[2] needs MPI_Type_contiguous(2, MPI_LONG); only
 * pair[0] is transferred.
 * MPICH 4.0.2 does not detect it: completes, rank 1 prints that pair[1]
 * was not received. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    long pair[2] = {0, 0};
    MPI_Datatype t;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        pair[0] = 11;
        pair[1] = 22;
        MPI_Isend(pair, 1, t, 1, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Irecv(pair, 1, t, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (pair[0] != 11 || pair[1] != 22)
            printf("rank 1: pair = {%ld, %ld}\n", pair[0], pair[1]);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
