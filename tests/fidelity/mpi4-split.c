/* Split collective file reads (MPI_File_read_all_begin/_end, _at_all_,
 * _ordered_, and the large-count _begin_c forms): the data arrives at the
 * _end call, into the buffer the _begin call gave. */
#include <mpi.h>
#include <stdio.h>

#define N 4

static void show(int rank, const char *what, const int *v, MPI_Status *st)
{
    int n = -1;
    MPI_Get_count(st, MPI_INT, &n);
    printf("rank %d: %s count %d:", rank, what, n);
    for (int i = 0; i < N; i++)
        printf(" %d", v[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    int rank, size, v[N], w[N];
    MPI_File fh;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < N; i++)
        v[i] = rank * 100 + i;
    MPI_File_open(MPI_COMM_WORLD, "drdb-mpi4-split.tmp",
                  MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    MPI_File_write_at_all(fh, (MPI_Offset)rank * sizeof v, v, N, MPI_INT,
                          MPI_STATUS_IGNORE);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    int other = (rank + 1) % size;

    for (int i = 0; i < N; i++)
        w[i] = -1;
    MPI_File_read_at_all_begin(fh, (MPI_Offset)other * sizeof v, w, N,
                               MPI_INT);
    MPI_File_read_at_all_end(fh, w, &st);
    show(rank, "read_at_all", w, &st);

    MPI_File_seek(fh, (MPI_Offset)other * sizeof v + 4, MPI_SEEK_SET);
    for (int i = 0; i < N; i++)
        w[i] = -1;
    MPI_File_read_all_begin_c(fh, w, N - 1, MPI_INT);
    MPI_File_read_all_end(fh, w, &st);
    show(rank, "read_all_c", w, &st);

    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    for (int i = 0; i < N; i++)
        w[i] = -1;
    MPI_File_read_ordered_begin(fh, w, 2, MPI_INT);
    MPI_File_read_ordered_end(fh, w, MPI_STATUS_IGNORE);
    printf("rank %d: read_ordered %d %d %d\n", rank, w[0], w[1], w[2]);
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
