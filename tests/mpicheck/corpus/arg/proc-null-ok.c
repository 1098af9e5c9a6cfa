/* corpus: class=arg expect=ok np=2 */
/* Legal unusual usage: every rank sends to and receives from MPI_PROC_NULL
 * (blocking and nonblocking); such operations complete at once and the receive
 * status has source MPI_PROC_NULL, tag MPI_ANY_TAG and count 0 (sec. 3.11). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, n = -1, x = 5, y = 0;
    MPI_Status st;
    MPI_Request req[2];
    MPI_Status sts[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(&y, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    if (st.MPI_SOURCE != MPI_PROC_NULL || st.MPI_TAG != MPI_ANY_TAG || n != 0)
        printf("rank %d: unexpected PROC_NULL status\n", rank);
    MPI_Isend(&x, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&y, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, sts);
    MPI_Finalize();
    return 0;
}
