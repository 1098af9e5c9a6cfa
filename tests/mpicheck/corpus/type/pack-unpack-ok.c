/* corpus: class=type expect=ok np=2 */
/* Legal unusual usage: rank 0 packs an int and a double array into a char
 * buffer with MPI_Pack and sends it as MPI_PACKED; rank 1 receives into a
 * malloc'd buffer sized with MPI_Pack_size and unpacks with MPI_Unpack
 * (MPI 4.0 sec. 5.2: a packed buffer is any buffer sent with MPI_PACKED,
 * the C type of the packed items is given to MPI_Pack/MPI_Unpack). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, n = 0, pos = 0, s1, s2;
    double v[3] = {0, 0, 0};
    char packbuf[64];
    char *inbuf;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &s1);
    MPI_Pack_size(3, MPI_DOUBLE, MPI_COMM_WORLD, &s2);
    if (rank == 0) {
        n = 3;
        v[0] = 1.0; v[1] = 2.0; v[2] = 4.0;
        MPI_Pack(&n, 1, MPI_INT, packbuf, sizeof packbuf, &pos, MPI_COMM_WORLD);
        MPI_Pack(v, 3, MPI_DOUBLE, packbuf, sizeof packbuf, &pos, MPI_COMM_WORLD);
        MPI_Send(packbuf, pos, MPI_PACKED, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        inbuf = malloc(s1 + s2);
        MPI_Recv(inbuf, s1 + s2, MPI_PACKED, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Unpack(inbuf, s1 + s2, &pos, &n, 1, MPI_INT, MPI_COMM_WORLD);
        MPI_Unpack(inbuf, s1 + s2, &pos, v, n, MPI_DOUBLE, MPI_COMM_WORLD);
        if (n != 3 || v[0] != 1.0 || v[1] != 2.0 || v[2] != 4.0)
            printf("rank 1: n = %d, v = {%g, %g, %g}\n", n, v[0], v[1], v[2]);
        free(inbuf);
    }
    MPI_Finalize();
    return 0;
}
