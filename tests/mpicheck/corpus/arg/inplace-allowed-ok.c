/* corpus: class=arg expect=ok np=4 */
/* Legal unusual usage of MPI_IN_PLACE where sec. 6 allows it: MPI_Allreduce,
 * MPI_Reduce at the root only (root 3), MPI_Scan, and MPI_Iallgather. */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, size, v, w, all[4];
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    v = rank;
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    w = rank;
    if (rank == 3)
        MPI_Reduce(MPI_IN_PLACE, &w, 1, MPI_INT, MPI_SUM, 3, MPI_COMM_WORLD);
    else
        MPI_Reduce(&w, NULL, 1, MPI_INT, MPI_SUM, 3, MPI_COMM_WORLD);
    v = 1;
    MPI_Scan(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    all[rank] = v;
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT,
                   MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
