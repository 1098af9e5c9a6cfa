/* Datatypes the replay stub does not build from a constructor call of the
 * program: MPI_File_get_view returns new handles for the view's etype and
 * filetype (duplicates of the types given to MPI_File_set_view, or the
 * predefined handles themselves). The program uses them as any other type:
 * queries, a memory type of a collective read and write and of a message,
 * MPI_Type_free. It frees its own types right after set_view, and builds
 * others after (MPICH reuses the freed handle values), so the view's types
 * live only in the file; MPI_Type_get_contents of a returned type gives
 * the types MPI built it from. Usage: type-fileview (each rank its own
 * file). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void show(int me, const char *what, MPI_Datatype t)
{
    MPI_Aint lb, ext, tlb, text;
    int size, ni, na, nd, comb;
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_get_true_extent(t, &tlb, &text);
    MPI_Type_size(t, &size);
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    printf("rank %d: %s: lb %ld extent %ld true %ld/%ld size %d "
           "envelope %d %d %d named %d dup %d\n", me, what, (long)lb,
           (long)ext, (long)tlb, (long)text, size, ni, na, nd,
           comb == MPI_COMBINER_NAMED, comb == MPI_COMBINER_DUP);
}

/* A view and what MPI_File_get_view says of it; its types are freed. */
static void view(int me, MPI_File fh, const char *name, MPI_Datatype *et,
                 MPI_Datatype *ft)
{
    MPI_Offset disp;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &disp, et, ft, rep);
    printf("rank %d: %s view: disp %lld datarep %s\n", me, name,
           (long long)disp, rep);
    show(me, "etype", *et);
    show(me, "filetype", *ft);
}

static void dump(int me, const char *what, const int *v, int n)
{
    printf("rank %d: %s:", me, what);
    for (int i = 0; i < n; i++)
        printf(" %d", v[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    int me, np;
    char path[256];
    MPI_File fh;
    MPI_Status st;
    MPI_Datatype et, ft, pair, vec, sub, tmp;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    snprintf(path, sizeof path, "%s/drdb-fileview-%d-%d.dat",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid(), me);
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                  MPI_INFO_NULL, &fh);

    /* The default view: MPI_BYTE, predefined (MPI returns the handle). */
    view(me, fh, "default", &et, &ft);
    if (et != MPI_BYTE || ft != MPI_BYTE)
        printf("rank %d: default view types are not MPI_BYTE\n", me);

    /* A derived etype (2 ints) and a vector filetype of it: every other
     * pair. The program's own handles go away at once. */
    int data[32], back[32];
    for (int i = 0; i < 32; i++)
        data[i] = me * 1000 + i;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_vector(4, 1, 2, pair, &vec);
    MPI_Type_commit(&vec);
    MPI_File_set_view(fh, 16, pair, vec, "native", MPI_INFO_NULL);
    MPI_Type_free(&vec);
    MPI_Type_free(&pair);
    MPI_Type_vector(3, 1, 3, MPI_DOUBLE, &tmp); /* reuses a freed handle */
    MPI_Type_commit(&tmp);
    view(me, fh, "vector", &et, &ft);
    /* The returned types as memory types: 8 etypes from 8 pairs, then one
     * filetype's worth (its holes skipped in memory too). */
    MPI_File_write_all(fh, data, 8, et, &st);
    MPI_File_seek(fh, 0, MPI_SEEK_SET);
    for (int i = 0; i < 32; i++)
        back[i] = -1;
    MPI_File_read_all(fh, back, 1, ft, &st);
    int n;
    MPI_Get_count(&st, ft, &n);
    printf("rank %d: read %d filetype(s)\n", me, n);
    dump(me, "through the filetype", back, 16);
    /* A message of the returned types, to self. */
    for (int i = 0; i < 32; i++)
        back[i] = -1;
    MPI_Sendrecv(data, 2, et, 0, 5, back, 1, ft, 0, 5, MPI_COMM_SELF, &st);
    dump(me, "message into the filetype", back, 8);
    /* What the returned filetype is built from (MPI's own types, down to
     * the program's freed vector and the pair it was built from), as
     * receive types. */
    MPI_Datatype in[3], cur = ft;
    for (int k = 0; k < 3; k++) {
        int ints[4], ni, na, nd, comb;
        MPI_Aint addrs[1];
        MPI_Type_get_envelope(cur, &ni, &na, &nd, &comb);
        printf("rank %d: layer %d: contiguous %d, %d integer(s)\n", me, k,
               comb == MPI_COMBINER_CONTIGUOUS, ni);
        MPI_Type_get_contents(cur, 4, 1, 1, ints, addrs, &in[k]);
        printf("rank %d: layer %d: count %d\n", me, k, ints[0]);
        show(me, "inner", in[k]);
        for (int i = 0; i < 32; i++)
            back[i] = -1;
        MPI_Sendrecv(data + 8, 2, et, 0, 6, back, k < 2 ? 1 : 2, in[k], 0,
                     6, MPI_COMM_SELF, &st); /* the pair holds 2 ints */
        dump(me, "message into it", back, 8);
        cur = in[k];
    }
    for (int k = 0; k < 3; k++)
        MPI_Type_free(&in[k]);
    MPI_Type_free(&et);
    MPI_Type_free(&ft);
    MPI_Type_free(&tmp);

    /* A subarray filetype of ints (the etype predefined): each rank's
     * column block of a 4 x 8 array. */
    int sizes[2] = {4, 8}, subs[2] = {4, 2}, starts[2] = {0, 2 * (me % 4)};
    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT,
                             &sub);
    MPI_Type_commit(&sub);
    MPI_File_set_view(fh, 0, MPI_INT, sub, "native", MPI_INFO_NULL);
    view(me, fh, "subarray", &et, &ft);
    if (et != MPI_INT)
        printf("rank %d: the etype is not MPI_INT\n", me);
    MPI_Type_free(&sub);
    MPI_File_write_all(fh, data, 8, et, &st);
    for (int i = 0; i < 32; i++)
        back[i] = -1;
    MPI_File_read_at_all(fh, 0, back, 1, ft, &st);
    dump(me, "subarray in memory", back, 32);
    /* A duplicate of the returned type, and the returned type freed before
     * the dup is used. */
    MPI_Type_dup(ft, &tmp);
    MPI_Type_free(&ft);
    for (int i = 0; i < 32; i++)
        back[i] = -1;
    MPI_File_read_at_all(fh, 0, back, 1, tmp, &st);
    dump(me, "through a dup", back, 32);
    MPI_Type_free(&tmp);

    MPI_File_close(&fh);
    MPI_File_delete(path, MPI_INFO_NULL);
    MPI_Finalize();
    printf("rank %d: done\n", me);
    return 0;
}
