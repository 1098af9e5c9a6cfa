/* Class 5: datatypes built with the MPI-1 bound markers MPI_LB and MPI_UB
 * (still in MPICH 4.0.2's mpi.h and library) and the old-style
 * constructors MPI_Type_struct, MPI_Type_hindexed and MPI_Type_hvector
 * (MPI_Aint displacements); structs of markers only (no real type), a
 * zero-count struct, markers that stick through contiguous, vector and
 * struct, and MPI_Type_create_resized with a negative lower bound. Rank 0
 * sends each type to every other rank, which receives with the same type
 * into a buffer of -1s and prints it: a wrong layout shows as wrong
 * values. Every rank prints each type's bounds and size. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 64
#define BASE 16 /* receive at buf + BASE ints: negative lbs stay inside */

static void bounds(const char *name, MPI_Datatype t)
{
    MPI_Aint lb, ext, tlb, text;
    int size;
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_get_true_extent(t, &tlb, &text);
    MPI_Type_size(t, &size);
    printf("%-12s lb %ld extent %ld true_lb %ld true_extent %ld size %d\n",
           name, (long)lb, (long)ext, (long)tlb, (long)text, size);
}

/* Sends COUNT x T from rank 0, received with the same type elsewhere. */
static void trip(const char *name, MPI_Datatype t, int count)
{
    int rank, size, buf[N];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_commit(&t);
    bounds(name, t);
    for (int i = 0; i < N; i++)
        buf[i] = rank == 0 ? 1000 + i : -1;
    if (rank == 0) {
        for (int p = 1; p < size; p++)
            MPI_Send(buf + BASE, count, t, p, 7, MPI_COMM_WORLD);
        return;
    }
    MPI_Status st;
    int bytes;
    MPI_Recv(buf + BASE, count, t, 0, 7, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_BYTE, &bytes);
    printf("  %d bytes:", bytes);
    for (int i = 0; i < N; i++)
        if (buf[i] != -1)
            printf(" [%d]=%d", i - BASE, buf[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Datatype t, u, w;
    int bl3[3] = {1, 2, 1}, bl4[4] = {1, 1, 1, 1}, one[2] = {1, 1};

    /* MPI_Type_struct: LB at -8, 2 ints at 0, UB at 24 (bytes). */
    MPI_Aint d3[3] = {-8, 0, 24};
    MPI_Datatype ty3[3] = {MPI_LB, MPI_INT, MPI_UB};
    MPI_Type_struct(3, bl3, d3, ty3, &t);
    trip("struct-lbub", t, 3);

    /* MPI_Type_create_struct with the markers around two members. */
    MPI_Aint d4[4] = {0, 4, 12, 32};
    MPI_Datatype ty4[4] = {MPI_LB, MPI_INT, MPI_INT, MPI_UB};
    MPI_Type_create_struct(4, bl4, d4, ty4, &u);
    trip("cstruct-lbub", u, 2);

    /* Markers stick: a contiguous and a vector of U keep U's bounds. */
    MPI_Type_contiguous(3, u, &w);
    trip("contig(u)", w, 1);
    MPI_Type_vector(2, 1, 2, u, &w);
    trip("vector(u)", w, 1);
    /* A struct holding U and an int before it: U's LB/UB set the bounds. */
    MPI_Aint du[2] = {-4, 8};
    MPI_Datatype tu[2] = {MPI_INT, u};
    MPI_Type_create_struct(2, one, du, tu, &w);
    trip("struct(u)", w, 2);

    /* Markers only: no real type, size 0, extent 40. */
    MPI_Aint dm[2] = {-16, 24};
    MPI_Datatype tm[2] = {MPI_LB, MPI_UB};
    MPI_Datatype m;
    MPI_Type_create_struct(2, one, dm, tm, &m);
    trip("markers", m, 4);
    /* ... used as a spacer in a struct: int, then markers at 8. */
    MPI_Aint ds[2] = {0, 8};
    MPI_Datatype ts[2] = {MPI_INT, m};
    MPI_Type_create_struct(2, one, ds, ts, &w);
    trip("int+markers", w, 2);
    /* A zero-count struct. */
    MPI_Type_create_struct(0, one, ds, ts, &w);
    trip("zero-struct", w, 3);
    /* A struct whose only member has a zero block length. */
    int zero[1] = {0};
    MPI_Aint d0[1] = {8};
    MPI_Datatype t0[1] = {MPI_DOUBLE};
    MPI_Type_create_struct(1, zero, d0, t0, &w);
    trip("zero-block", w, 2);

    /* MPI_Type_hindexed (old style) with an UB marker after it. */
    int hbl[3] = {2, 1, 1};
    MPI_Aint hd[3] = {0, 16, 28};
    MPI_Type_hindexed(3, hbl, hd, MPI_INT, &t);
    MPI_Aint dh[2] = {0, 40};
    MPI_Datatype th[2] = {t, MPI_UB};
    MPI_Type_struct(2, one, dh, th, &w);
    trip("hindexed+ub", w, 2);
    /* MPI_Type_hvector (old style) of a type with an LB marker. */
    MPI_Aint dl[2] = {-4, 0};
    MPI_Datatype tl[2] = {MPI_LB, MPI_INT};
    MPI_Type_struct(2, one, dl, tl, &t);
    MPI_Type_hvector(3, 1, 12, t, &w);
    trip("hvector(lb)", w, 2);

    /* Resized with a negative lower bound. */
    MPI_Type_create_resized(MPI_INT, -8, 12, &w);
    trip("resized-neg", w, 3);
    MPI_Type_vector(2, 2, 3, MPI_INT, &t);
    MPI_Type_create_resized(t, -12, 40, &w);
    trip("resized-vec", w, 2);
    MPI_Finalize();
    return 0;
}
