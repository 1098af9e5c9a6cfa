/* corpus: class=coll expect=ok np=3 */
/* Twin of type-allgather-bad: every rank sends/receives 1 MPI_INT per
 * block. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, count, mine, all[3] = {0, 0, 0};
    MPI_Datatype type;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine = 1000 + rank;
    if (0) {
        type = MPI_SHORT;   /* 2 shorts: same size as 1 int */
        count = 2;
    } else {
        type = MPI_INT;
        count = 1;
    }
    MPI_Allgather(&mine, count, type, all, count, type, MPI_COMM_WORLD);
    printf("rank %d: %d %d %d\n", rank, all[0], all[1], all[2]);
    MPI_Finalize();
    return 0;
}
