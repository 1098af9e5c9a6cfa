/* Messages whose data is a known text (test-strip.sh looks for it in the
 * stripped copies of the logs): a send and nonblocking receive, a
 * broadcast, an MPI_Put into a window. Prints what arrived. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define TEXT "drdb-strip-marker: this message data must stay on its host. "

int main(int argc, char **argv)
{
    int rank, size;
    char msg[512] = "", bc[512] = "", winbuf[512];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win win;
    memset(winbuf, 0, sizeof winbuf);
    MPI_Win_create(winbuf, sizeof winbuf, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                   &win);
    if (rank == 0) {
        for (int i = 0; i < 7; i++)
            strcat(msg, TEXT);
        strcpy(bc, msg);
        MPI_Send(msg, (int)sizeof msg, MPI_CHAR, 1, 7, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Request req;
        MPI_Irecv(msg, (int)sizeof msg, MPI_CHAR, 0, 7, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Bcast(bc, (int)sizeof bc, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(bc, (int)sizeof bc, MPI_CHAR, size - 1, 0, (int)sizeof bc,
                MPI_CHAR, win);
    MPI_Win_fence(0, win);
    printf("rank %d: %.40s | %.40s | %.40s\n", rank, msg, bc, winbuf);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
