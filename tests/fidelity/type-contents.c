/* Class 5: datatypes made by calls other than the usual constructors.
 * MPI_Type_get_envelope/MPI_Type_get_contents round trips (a type rebuilt
 * from its contents, with the derived types get_contents returns, which
 * the program must free), MPI_Type_dup of derived types (and of a dup),
 * MPI_Type_match_size, MPI_Type_create_f90_integer/real/complex, the
 * large-count constructors (_c), and MPI_Type_get_extent_x/true_extent_x.
 * Rank 0 sends with each type to the others, which receive with it into
 * -1s and print the buffer, with each type's combiner, extent and size. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 48

static void trip(const char *name, MPI_Datatype t, int count)
{
    int rank, size, tsize;
    unsigned char buf[N * 4];
    MPI_Aint lb, ext;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_commit(&t);
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_size(t, &tsize);
    MPI_Count ni, na, nl, nd;
    int comb;
    MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &comb);
    printf("%-14s combiner %d (%lld %lld %lld %lld) lb %ld extent %ld "
           "size %d\n", name, comb, (long long)ni, (long long)na,
           (long long)nl, (long long)nd, (long)lb, (long)ext, tsize);
    for (int i = 0; i < N * 4; i++)
        buf[i] = rank == 0 ? (unsigned char)i : 0xff;
    if (rank == 0) {
        for (int p = 1; p < size; p++)
            MPI_Send(buf, count, t, p, 1, MPI_COMM_WORLD);
        return;
    }
    MPI_Recv(buf, count, t, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("  got:");
    for (int i = 0; i < N * 4; i++)
        if (buf[i] != 0xff)
            printf(" %d", buf[i]);
    printf("\n");
}

/* Rebuilds T from its envelope and contents (the combiners used here). */
static MPI_Datatype rebuild(MPI_Datatype t)
{
    int ni, na, nd, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    int *ints = malloc((size_t)(ni + 1) * sizeof *ints);
    MPI_Aint *aints = malloc((size_t)(na + 1) * sizeof *aints);
    MPI_Datatype *types = malloc((size_t)(nd + 1) * sizeof *types), r;
    MPI_Type_get_contents(t, ni, na, nd, ints, aints, types);
    switch (comb) {
    case MPI_COMBINER_VECTOR:
        MPI_Type_vector(ints[0], ints[1], ints[2], types[0], &r);
        break;
    case MPI_COMBINER_HVECTOR:
        MPI_Type_create_hvector(ints[0], ints[1], aints[0], types[0], &r);
        break;
    case MPI_COMBINER_INDEXED:
        MPI_Type_indexed(ints[0], ints + 1, ints + 1 + ints[0], types[0], &r);
        break;
    case MPI_COMBINER_STRUCT:
        MPI_Type_create_struct(ints[0], ints + 1, aints, types, &r);
        break;
    case MPI_COMBINER_RESIZED:
        MPI_Type_create_resized(types[0], aints[0], aints[1], &r);
        break;
    case MPI_COMBINER_DUP:
        MPI_Type_dup(types[0], &r);
        break;
    default:
        MPI_Type_contiguous(1, t, &r);
        break;
    }
    /* get_contents returned new handles of the derived members */
    for (int i = 0; i < nd; i++) {
        int a, b, c, k;
        MPI_Type_get_envelope(types[i], &a, &b, &c, &k);
        if (k != MPI_COMBINER_NAMED)
            MPI_Type_free(&types[i]);
    }
    free(ints);
    free(aints);
    free(types);
    return r;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Datatype v, s, r, d, dd, x;

    MPI_Type_vector(3, 2, 4, MPI_SHORT, &v);
    int bl[3] = {1, 1, 2};
    MPI_Aint disp[3] = {0, 8, 20};
    MPI_Datatype ty[3] = {MPI_DOUBLE, v, MPI_CHAR};
    MPI_Type_create_struct(3, bl, disp, ty, &s);
    MPI_Type_create_resized(s, -4, 48, &r);
    trip("vector", v, 2);
    trip("struct", s, 1);
    trip("resized", r, 2);
    x = rebuild(v);
    trip("rebuilt-vec", x, 2);
    x = rebuild(s);
    trip("rebuilt-struct", x, 1);
    x = rebuild(r);
    trip("rebuilt-rsz", x, 2);

    MPI_Type_dup(s, &d);
    MPI_Type_dup(d, &dd);
    trip("dup", d, 1);
    trip("dup(dup)", dd, 1);
    x = rebuild(dd);
    trip("rebuilt-dup", x, 1);
    MPI_Type_free(&s); /* the dups keep their own */
    trip("dup-after", d, 2);

    MPI_Datatype m;
    MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m);
    trip("match-real8", m, 3);
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 2, &m);
    trip("match-int2", m, 3);
    MPI_Type_create_f90_integer(9, &m);
    trip("f90-int9", m, 2);
    MPI_Type_create_f90_real(12, MPI_UNDEFINED, &m);
    trip("f90-real12", m, 2);
    MPI_Type_create_f90_complex(5, MPI_UNDEFINED, &m);
    trip("f90-cplx5", m, 2);
    MPI_Type_create_hvector(2, 1, 24, m, &x);
    trip("hvec(f90)", x, 1);

    MPI_Datatype c;
    MPI_Count cbl[2] = {2, 1}, cd[2] = {4, 28};
    MPI_Datatype cty[2] = {MPI_INT, MPI_SHORT};
    MPI_Type_create_struct_c(2, cbl, cd, cty, &c);
    trip("struct_c", c, 2);
    MPI_Type_vector_c(2, 3, 5, MPI_CHAR, &c);
    trip("vector_c", c, 2);
    MPI_Count lb, ext;
    MPI_Type_get_true_extent_x(r, &lb, &ext);
    printf("true_extent_x %lld %lld\n", (long long)lb, (long long)ext);
    MPI_Finalize();
    return 0;
}
