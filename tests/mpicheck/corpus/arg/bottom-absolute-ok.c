/* corpus: class=arg expect=ok np=2 */
/* Legal unusual usage: a struct type built from absolute addresses
 * (MPI_Get_address) is used with buffer MPI_BOTTOM (sec. 5.1.12) to send an
 * int and a double from rank 0 to rank 1. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, n = 0, bl[2] = {1, 1};
    double d = 0.0;
    MPI_Aint disp[2];
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Get_address(&n, &disp[0]);
    MPI_Get_address(&d, &disp[1]);
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        n = 3;
        d = 0.25;
        MPI_Send(MPI_BOTTOM, 1, t, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(MPI_BOTTOM, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
