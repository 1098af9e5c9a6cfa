/* corpus: class=deadlock expect=bad np=2 hang=1 */
/* Both ranks MPI_Send 1 MiB to each other before posting MPI_Recv: the
 * program relies on system buffering and is unsafe (MPI 4.0 section 3.5);
 * the message is too large for MPICH to buffer. Hangs under MPICH 4.0.2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N (256 * 1024)

int main(int argc, char **argv)
{
    int rank, other, i;
    int *out, *in;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    out = malloc(N * sizeof(int));
    in = malloc(N * sizeof(int));
    for (i = 0; i < N; i++)
        out[i] = rank + i;
    MPI_Send(out, N, MPI_INT, other, 0, MPI_COMM_WORLD);
    MPI_Recv(in, N, MPI_INT, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: in[1] = %d\n", rank, in[1]);
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
