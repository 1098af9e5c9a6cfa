/*
 * buf.overlap on file and one-sided operations started by calls that
 * return a request: their buffers are in use until the request completes
 * (MPI 4.0 14.6.1 for nonblocking file I/O, 12.3.5 for request-based RMA).
 * Events of each of the 2 ranks: 0 MPI_Init, 1 MPI_Comm_rank,
 * 2 MPI_File_open, 3 MPI_Win_create, 4 MPI_Win_lock_all,
 * 5 MPI_File_iwrite_at(a) (reads a), 6 MPI_Irecv(a) (writes a while the
 * write may still read it: error), 7 MPI_Send, 8 MPI_Waitall,
 * 9 MPI_File_iread_at(b) (writes b), 10 MPI_Rget(b) (writes b too:
 * error), 11 MPI_Waitall, 12 MPI_Win_unlock_all, 13 MPI_Win_free,
 * 14 MPI_File_close, 15 MPI_Finalize.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, a[8] = {0}, b[8], s[4] = {0};
    static int winbuf[4];
    char name[256];
    MPI_File fh;
    MPI_Win win;
    MPI_Request r[2];
    MPI_Status st[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    const char *dir = getenv("TMPDIR");
    snprintf(name, sizeof name, "%s/bufov-%d-%ld", dir ? dir : "/tmp", rank,
             (long)getpid());
    MPI_File_open(MPI_COMM_SELF, name,
                  MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    MPI_Win_create(winbuf, sizeof winbuf, sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    MPI_File_iwrite_at(fh, 0, a, 8, MPI_INT, &r[0]);
    MPI_Irecv(a, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Send(s, 4, MPI_INT, peer, 0, MPI_COMM_WORLD);
    MPI_Waitall(2, r, st);
    MPI_File_iread_at(fh, 0, b, 8, MPI_INT, &r[0]);
    MPI_Rget(b + 4, 4, MPI_INT, peer, 0, 4, MPI_INT, win, &r[1]);
    MPI_Waitall(2, r, st);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
