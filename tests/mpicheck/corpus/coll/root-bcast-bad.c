/* corpus: class=coll expect=bad np=3 */
/* MPI_Bcast on MPI_COMM_WORLD where ranks 0 and 1 pass root 0 but rank 2
 * passes root 1: root must be the same at all members (MPI 4.0 section
 * 6.4). Completes under MPICH 4.0.2: MPICH does not detect it. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, root, i, buf[4] = {0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    root = (rank == 2) ? 1 : 0;
    if (rank == root)
        for (i = 0; i < 4; i++)
            buf[i] = 100 + i;
    MPI_Bcast(buf, 4, MPI_INT, root, MPI_COMM_WORLD);
    printf("rank %d: %d %d %d %d\n", rank, buf[0], buf[1], buf[2], buf[3]);
    MPI_Finalize();
    return 0;
}
