/*
 * err-ignored-ok - err-ignored-bad.c's fixed twin: the same failing calls,
 * each error looked at (drdb check's err.* stays silent):
 *
 *   rank 0  the MPI_Send to rank 2 fails; its code goes to
 *           MPI_Error_string and the message is printed.
 *   rank 1  MPI_Type_contiguous with count -1 fails; MPI_Error_class of
 *           its code, and the send uses MPI_INT instead of the output
 *           the failed call left undefined (its own variable, `wide`).
 *   both    an error handler of the program's own on a duplicate of
 *           MPI_COMM_WORLD sees a receive from rank -5 fail.
 *
 *   mpiexec -n 2 ./err-ignored-ok
 */
#include <mpi.h>
#include <stdio.h>

static int seen;

static void on_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    seen = *code;
}

int main(int argc, char **argv)
{
    int rank, size, v[4] = {1, 2, 3, 4}, sum = 0, one = 1, rc, len, cls;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        rc = MPI_Send(v, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) {
            MPI_Error_string(rc, msg, &len);
            printf("rank 0: send failed: %.40s\n", msg);
        }
        MPI_Recv(v, 2, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Datatype pair, wide = MPI_DATATYPE_NULL;
        MPI_Type_contiguous(2, MPI_INT, &pair);
        MPI_Type_commit(&pair);
        int n = size - 3;
        rc = MPI_Type_contiguous(n, MPI_INT, &wide);
        if (rc != MPI_SUCCESS) {
            MPI_Error_class(rc, &cls);
            printf("rank 1: no wide type (class %d): plain ints\n", cls);
            MPI_Send(v, 2, MPI_INT, 0, 1, MPI_COMM_WORLD);
        }
        MPI_Type_free(&pair);
    }
    MPI_Comm d;
    MPI_Errhandler eh;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_set_errhandler(d, eh);
    MPI_Recv(v, 1, MPI_INT, -5, 0, d, MPI_STATUS_IGNORE);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&d);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: sum %d, handler saw %s\n", rank, sum,
           seen ? "an error" : "none");
    MPI_Finalize();
    return 0;
}
