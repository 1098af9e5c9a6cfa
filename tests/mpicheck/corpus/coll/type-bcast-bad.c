/* corpus: class=coll expect=bad np=3 */
/* MPI_Bcast where the root sends 2 MPI_INT and the others receive 2
 * MPI_FLOAT (same size, different type signature): signatures must
 * match (MPI 4.0 section 6.4). Completes under MPICH 4.0.2: not detected. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    union { int i[2]; float f[2]; } buf = {{0, 0}};
    MPI_Datatype type;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        buf.i[0] = 11;
        buf.i[1] = 22;
    }
    type = (rank == 0) ? MPI_INT : MPI_FLOAT;
    MPI_Bcast(&buf, 2, type, 0, MPI_COMM_WORLD);
    printf("rank %d: %d %d\n", rank, buf.i[0], buf.i[1]);
    MPI_Finalize();
    return 0;
}
