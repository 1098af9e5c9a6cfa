/* Window and file error handlers: a program's handler on a window and on
 * MPI_FILE_NULL (inherited by files opened after), errors provoked on
 * both, MPI_Win_call_errhandler and MPI_File_call_errhandler, handlers
 * that call MPI; a failed MPI_File_open with MPI_ERRORS_RETURN. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int me, wcalls, fcalls;

static void win_handler(MPI_Win *win, int *code, ...)
{
    int cls, flag;
    void *base;
    wcalls++;
    MPI_Error_class(*code, &cls);
    MPI_Win_get_attr(*win, MPI_WIN_DISP_UNIT, &base, &flag);
    printf("rank %d: win handler %d: class %d disp_unit %d\n", me, wcalls,
           cls, flag ? *(int *)base : -1);
}

static void file_handler(MPI_File *fh, int *code, ...)
{
    int cls, amode = -1;
    fcalls++;
    MPI_Error_class(*code, &cls);
    if (*fh != MPI_FILE_NULL)
        MPI_File_get_amode(*fh, &amode);
    printf("rank %d: file handler %d: class %d null %d amode %d\n", me,
           fcalls, cls, *fh == MPI_FILE_NULL, amode);
}

int main(int argc, char **argv)
{
    MPI_Errhandler weh, feh;
    MPI_Win win;
    MPI_File fh;
    int buf[4] = {1, 2, 3, 4}, rc, cls;
    char path[256];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);

    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_create_errhandler(win_handler, &weh);
    MPI_Win_set_errhandler(win, weh);
    MPI_Win_fence(0, win);
    rc = MPI_Put(buf, 1, MPI_INT, 9999, 0, 1, MPI_INT, win);
    MPI_Error_class(rc, &cls);
    printf("rank %d: put to a bad rank: class %d\n", me, cls);
    MPI_Win_fence(0, win);
    rc = MPI_Win_call_errhandler(win, MPI_ERR_WIN);
    printf("rank %d: win call_errhandler rc %d\n", me, rc);
    MPI_Win_free(&win);
    MPI_Errhandler_free(&weh);

    /* Files: MPI_ERRORS_RETURN by default. */
    rc = MPI_File_open(MPI_COMM_SELF, "/nonexistent/dir/x", MPI_MODE_RDONLY,
                       MPI_INFO_NULL, &fh);
    MPI_Error_class(rc, &cls);
    printf("rank %d: open failed: class %d null %d\n", me, cls,
           fh == MPI_FILE_NULL);
    MPI_File_create_errhandler(file_handler, &feh);
    MPI_File_set_errhandler(MPI_FILE_NULL, feh);
    rc = MPI_File_open(MPI_COMM_SELF, "/nonexistent/dir/x", MPI_MODE_RDONLY,
                       MPI_INFO_NULL, &fh);
    MPI_Error_class(rc, &cls);
    printf("rank %d: open failed again: class %d\n", me, cls);
    snprintf(path, sizeof path, "%s/drdb-errh-%d-%d.dat",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid(), me);
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                  MPI_INFO_NULL, &fh);
    rc = MPI_File_read(fh, buf, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    printf("rank %d: read on a write-only file: class %d\n", me, cls);
    MPI_File_call_errhandler(fh, MPI_ERR_IO);
    MPI_File_close(&fh);
    MPI_File_delete(path, MPI_INFO_NULL);
    /* feh stays: MPICH 4.0.2 asserts at MPI_Finalize when the handler of
     * MPI_FILE_NULL was freed (errhan_impl.c:504). */
    printf("rank %d: handlers called: win %d file %d\n", me, wcalls, fcalls);
    MPI_Finalize();
    return 0;
}
