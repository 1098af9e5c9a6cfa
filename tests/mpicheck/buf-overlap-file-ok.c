/*
 * buf.overlap, fixed twin of buf-overlap-file-bad.c: the receive and the
 * one-sided get take other buffers than the pending file write and read.
 * Events of each of the 2 ranks as there.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, a[8] = {0}, a2[4], b[8], c[4], s[4] = {0};
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
    MPI_Irecv(a2, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Send(s, 4, MPI_INT, peer, 0, MPI_COMM_WORLD);
    MPI_Waitall(2, r, st);
    MPI_File_iread_at(fh, 0, b, 8, MPI_INT, &r[0]);
    MPI_Rget(c, 4, MPI_INT, peer, 0, 4, MPI_INT, win, &r[1]);
    MPI_Waitall(2, r, st);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
