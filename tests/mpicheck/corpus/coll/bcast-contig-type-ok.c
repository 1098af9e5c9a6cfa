/* corpus: class=coll expect=ok np=3 */
/* The root broadcasts 4 x MPI_INT, the other ranks receive 1 x a contiguous
 * datatype of 4 MPI_INT: different (count, datatype) but the same type
 * signature, which is all MPI_Bcast requires (MPI 4.0 section 6.4). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0, 0, 0, 0};
    MPI_Datatype four;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        buf[0] = 5; buf[1] = 6; buf[2] = 7; buf[3] = 8;
        MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    } else {
        MPI_Type_contiguous(4, MPI_INT, &four);
        MPI_Type_commit(&four);
        MPI_Bcast(buf, 1, four, 0, MPI_COMM_WORLD);
        MPI_Type_free(&four);
    }
    printf("rank %d: %d %d %d %d\n", rank, buf[0], buf[1], buf[2], buf[3]);
    MPI_Finalize();
    return 0;
}
