/*
 * err-ignored-bad - errors returned under MPI_ERRORS_RETURN and ignored
 * (drdb check's err.*, docs/check.md). Planted, at 2 ranks:
 *
 *   rank 0  MPI_Send to rank 2, which does not exist: MPI_ERR_RANK; the
 *           program goes on to receive and reduce (err.ignored, warning).
 *   rank 1  MPI_Type_contiguous with count -1 (a size it computed wrong):
 *           MPI_ERR_COUNT, and `pair` keeps the type made before; the
 *           MPI_Send that follows sends with it as if it were the new one
 *           (err.output-used, error).
 *
 * Then both ranks reduce and finalize normally. err-ignored-ok.c is the
 * same program that looks at its errors.
 *
 *   mpiexec -n 2 ./err-ignored-bad
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, v[4] = {1, 2, 3, 4}, sum = 0, one = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send(v, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
        MPI_Recv(v, 2, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Datatype pair;
        MPI_Type_contiguous(2, MPI_INT, &pair);
        MPI_Type_commit(&pair);
        int n = size - 3; /* the count of a wider type, computed wrong */
        MPI_Type_contiguous(n, MPI_INT, &pair);
        MPI_Send(v, 1, pair, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
