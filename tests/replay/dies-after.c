/* Rank 1 dereferences NULL just after its MPI_Send, on the line marked
 * "dies here" (with the argument "abort": calls abort() on the line
 * marked "aborts here"; "libc": passes NULL to strlen on the line marked
 * "faults in libc here"): the replay of rank 1 alone must say where it
 * died, in the program (test-replay-death.sh). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, v = 0;
    volatile int *nowhere = NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
        const char *mode = argc > 1 ? argv[1] : "";
        if (strcmp(mode, "abort") == 0)
            abort(); /* aborts here */
        if (strcmp(mode, "libc") == 0)
            v = (int)strlen((const char *)nowhere); /* faults in libc here */
        *nowhere = 1; /* dies here */
    } else if (rank == 0) {
        MPI_Recv(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 0 got %d\n", v);
    }
    MPI_Finalize();
    return 0;
}
