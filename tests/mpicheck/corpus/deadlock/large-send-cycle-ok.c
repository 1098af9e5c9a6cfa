/* corpus: class=deadlock expect=ok np=2 */
/* Twin of large-send-cycle-bad: each rank posts MPI_Irecv first, then
 * MPI_Send, then MPI_Wait, so the 1 MiB exchange needs no system
 * buffering (MPI 4.0 sections 3.5, 3.7). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N (256 * 1024)

int main(int argc, char **argv)
{
    int rank, other, i;
    int *out, *in;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    out = malloc(N * sizeof(int));
    in = malloc(N * sizeof(int));
    for (i = 0; i < N; i++)
        out[i] = rank + i;
    MPI_Irecv(in, N, MPI_INT, other, 0, MPI_COMM_WORLD, &req);
    MPI_Send(out, N, MPI_INT, other, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    printf("rank %d: in[1] = %d\n", rank, in[1]);
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
