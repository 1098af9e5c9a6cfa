/* corpus: class=coll expect=bad np=3 */
/* MPI_Bcast where the root sends 8 MPI_INT and the other ranks expect 4:
 * the type signatures of root and receivers must be equal (MPI 4.0
 * section 6.4). MPICH 4.0.2 aborts ("Message truncated"). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, count, i, buf[8] = {0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        for (i = 0; i < 8; i++)
            buf[i] = i + 1;
    count = (rank == 0) ? 8 : 4;
    MPI_Bcast(buf, count, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d: %d .. %d\n", rank, buf[0], buf[count - 1]);
    MPI_Finalize();
    return 0;
}
