/* corpus: class=deadlock expect=ok np=2 */
/* Both ranks send 64 KiB to each other with MPI_Bsend before receiving.
 * Unlike MPI_Send this is safe: the user-attached buffer is large enough
 * to hold the message, so MPI_Bsend completes locally (MPI 4.0 3.4, 3.6). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N (16 * 1024)

int main(int argc, char **argv)
{
    int rank, other, i, size, *out, *in;
    void *buf;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    out = malloc(N * sizeof(int));
    in = malloc(N * sizeof(int));
    for (i = 0; i < N; i++)
        out[i] = i * (rank + 1);
    MPI_Pack_size(N, MPI_INT, MPI_COMM_WORLD, &size);
    size += MPI_BSEND_OVERHEAD;
    buf = malloc(size);
    MPI_Buffer_attach(buf, size);
    MPI_Bsend(out, N, MPI_INT, other, 0, MPI_COMM_WORLD);
    MPI_Recv(in, N, MPI_INT, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Buffer_detach(&buf, &size);
    printf("rank %d: in[2] = %d\n", rank, in[2]);
    free(buf);
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
