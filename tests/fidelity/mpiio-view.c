/* MPI-IO: MPI_File_set_view with a derived filetype makes MPICH's ROMIO
 * call public MPI_ functions itself (MPI_Type_create_resized, ...), and its
 * finalize hook frees a keyval inside MPI_Finalize: none of them are the
 * program's calls. Each rank writes its interleaved blocks and reads them
 * back. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int me, size, buf[8], back[8];
    char path[256];
    MPI_File fh;
    MPI_Datatype vec, ftype;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (me == 0)
        snprintf(path, sizeof path, "%s/drdb-mpiio-%d.dat",
                 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
    for (int i = 0; i < 8; i++)
        buf[i] = me * 100 + i;
    /* Blocks of 2 ints, one per rank in turn. */
    MPI_Type_vector(4, 2, 2 * size, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(8 * size * sizeof(int)), &ftype);
    MPI_Type_commit(&ftype);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                  MPI_INFO_NULL, &fh);
    MPI_File_set_view(fh, (MPI_Offset)(me * 2 * sizeof(int)), MPI_INT, ftype,
                      "native", MPI_INFO_NULL);
    MPI_File_write_all(fh, buf, 8, MPI_INT, &st);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_File_read_at(fh, (MPI_Offset)(me * sizeof(int)), back, 8, MPI_INT, &st);
    int n;
    MPI_Get_count(&st, MPI_INT, &n);
    printf("rank %d: read %d:", me, n);
    for (int i = 0; i < n; i++)
        printf(" %d", back[i]);
    printf("\n");
    /* A subarray and a darray filetype: ROMIO flattens them by building
     * them again itself (MPI_Type_create_resized). */
    MPI_Datatype sub, dar;
    int gsz[2] = {size, 8}, lsz[2] = {1, 8}, start[2] = {me, 0};
    MPI_Type_create_subarray(2, gsz, lsz, start, MPI_ORDER_C, MPI_INT, &sub);
    MPI_Type_commit(&sub);
    MPI_File_set_view(fh, 0, MPI_INT, sub, "native", MPI_INFO_NULL);
    MPI_File_read_all(fh, back, 8, MPI_INT, &st);
    printf("rank %d: subarray row: %d %d .. %d\n", me, back[0], back[1], back[7]);
    int dist[1] = {MPI_DISTRIBUTE_CYCLIC}, darg[1] = {2}, psz[1] = {size};
    int gs1[1] = {8 * size};
    MPI_Type_create_darray(size, me, 1, gs1, dist, darg, psz, MPI_ORDER_C,
                           MPI_INT, &dar);
    MPI_Type_commit(&dar);
    MPI_File_set_view(fh, 0, MPI_INT, dar, "native", MPI_INFO_NULL);
    MPI_File_read_all(fh, back, 8, MPI_INT, &st);
    printf("rank %d: darray cyclic(2):", me);
    for (int i = 0; i < 8; i++)
        printf(" %d", back[i]);
    printf("\n");
    MPI_Type_free(&sub);
    MPI_Type_free(&dar);
    MPI_Offset sz;
    MPI_File_get_size(fh, &sz);
    printf("rank %d: file size %lld\n", me, (long long)sz);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
    MPI_Type_free(&ftype);
    MPI_Type_free(&vec);
    MPI_Finalize();
    printf("rank %d: done\n", me);
    return 0;
}
