/* corpus: class=coll expect=ok np=3 */
/* Zero-count collectives: MPI_Bcast of 0 elements where the root names
 * MPI_INT and the others MPI_DOUBLE (both signatures are empty, so they
 * match, MPI 4.0 section 3.3.1), and MPI_Allreduce of 0 MPI_INT. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, ibuf[1] = {7}, iout[1] = {-1};
    double dbuf[1] = {1.5};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Bcast(ibuf, 0, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Bcast(dbuf, 0, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Allreduce(ibuf, iout, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: %d %g %d\n", rank, ibuf[0], dbuf[0], iout[0]);
    MPI_Finalize();
    return 0;
}
