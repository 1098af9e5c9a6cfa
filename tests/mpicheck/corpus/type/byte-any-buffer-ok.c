/* corpus: class=type expect=ok np=2 */
/* Legal unusual usage: rank 0 sends a struct variable and a double array
 * to rank 1 as raw bytes, count sizeof(...) of MPI_BYTE.  MPI_BYTE matches
 * any buffer (MPI 4.0 sec. 3.3.1: MPI_BYTE is an uninterpreted byte, and
 * untyped values are allowed with it between homogeneous processes). */
#include <mpi.h>
#include <stdio.h>

struct rec {
    char tag;
    double w;
    int n[3];
};

int main(int argc, char **argv)
{
    int rank, i;
    struct rec r = {0, 0.0, {0, 0, 0}};
    double d[5] = {0, 0, 0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        r.tag = 'q';
        r.w = 0.125;
        r.n[2] = 9;
        for (i = 0; i < 5; i++)
            d[i] = i * 1.5;
        MPI_Send(&r, sizeof r, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Send(d, sizeof d, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&r, sizeof r, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(d, sizeof d, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (r.tag != 'q' || r.w != 0.125 || r.n[2] != 9 || d[4] != 6.0)
            printf("rank 1: wrong data\n");
    }
    MPI_Finalize();
    return 0;
}
