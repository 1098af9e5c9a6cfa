/* corpus: class=coll expect=bad np=3 */
/* MPI_Allgather where rank 1 sends/receives 2 MPI_SHORT per block and the
 * others 1 MPI_INT: same byte count but different type signatures (MPI
 * 4.0 sections 6.7 and 3.3.1). Completes under MPICH 4.0.2: not detected. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, count, mine, all[3] = {0, 0, 0};
    MPI_Datatype type;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine = 1000 + rank;
    if (rank == 1) {
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
