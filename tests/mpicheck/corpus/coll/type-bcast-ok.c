/* corpus: class=coll expect=ok np=3 */
/* Twin of type-bcast-bad: every rank passes MPI_INT to MPI_Bcast. */
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
    type = MPI_INT;
    MPI_Bcast(&buf, 2, type, 0, MPI_COMM_WORLD);
    printf("rank %d: %d %d\n", rank, buf.i[0], buf.i[1]);
    MPI_Finalize();
    return 0;
}
