/* A non-commutative operator (2x2 integer matrix product) on a derived
 * datatype with holes (each matrix is every other int of a vector type,
 * resized): MPI passes the vectors in its own buffers, laid out as the
 * type says. The operator prints what it got: the replay must hand it
 * the same matrices, at the same places, in the same order. A second
 * operator works on a type whose data lies before its buffer's address
 * (a negative displacement). */
#include <mpi.h>
#include <stdio.h>

static int calls;

static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(*dt, &lb, &ext);
    for (int k = 0; k < *len; k++) {
        int *a = (int *)((char *)in + k * ext);
        int *b = (int *)((char *)inout + k * ext);
        /* elements 0, 2, 4, 6 of the 7-int span: the matrix */
        int c0 = a[0] * b[0] + a[2] * b[4], c1 = a[0] * b[2] + a[2] * b[6];
        int c2 = a[4] * b[0] + a[6] * b[4], c3 = a[4] * b[2] + a[6] * b[6];
        printf("  op call %d.%d: [%d %d %d %d] x [%d %d %d %d]\n", calls, k,
               a[0], a[2], a[4], a[6], b[0], b[2], b[4], b[6]);
        b[0] = c0 % 1000;
        b[2] = c1 % 1000;
        b[4] = c2 % 1000;
        b[6] = c3 % 1000;
    }
    calls++;
}

/* Two ints 8 bytes before the address MPI passes: a pair (a, b) with
 * (a, b) o (c, d) = (a + c, b * d + a). */
static void before(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *a = (int *)in - 2, *b = (int *)inout - 2;
    (void)dt;
    printf("  before: len %d (%d %d) o (%d %d)\n", *len, a[0], a[1], b[0],
           b[1]);
    b[1] = (b[1] * a[1] + a[0]) % 1000;
    b[0] += a[0];
}

int main(int argc, char **argv)
{
    int me, size, v[16], r[16];
    MPI_Op op;
    MPI_Datatype vec, mat;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, 8 * sizeof(int), &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(matmul, 0, &op);
    for (int i = 0; i < 16; i++) {
        v[i] = i % 2 ? -1 : me + i + 1;
        r[i] = -7;
    }
    MPI_Allreduce(v, r, 2, mat, op, MPI_COMM_WORLD);
    printf("rank %d: allreduce [%d %d %d %d] [%d %d %d %d]\n", me, r[0], r[2],
           r[4], r[6], r[8], r[10], r[12], r[14]);
    MPI_Reduce(v, r, 1, mat, op, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("rank %d: reduce [%d %d %d %d]\n", me, r[0], r[2], r[4], r[6]);
    MPI_Scan(v, r, 1, mat, op, MPI_COMM_WORLD);
    printf("rank %d: scan [%d %d %d %d]\n", me, r[0], r[2], r[4], r[6]);
    printf("rank %d: %d op calls\n", me, calls);
    MPI_Datatype neg;
    MPI_Op opneg;
    int blen = 2, pair[4] = {me + 1, me + 2, 0, 0}, res[4] = {0};
    MPI_Aint disp = -8;
    MPI_Type_create_hindexed(1, &blen, &disp, MPI_INT, &neg);
    MPI_Type_commit(&neg);
    MPI_Op_create(before, 0, &opneg);
    MPI_Allreduce(&pair[2], &res[2], 1, neg, opneg, MPI_COMM_WORLD);
    printf("rank %d: before (%d %d)\n", me, res[0], res[1]);
    MPI_Op_free(&opneg);
    MPI_Type_free(&neg);
    MPI_Op_free(&op);
    MPI_Type_free(&mat);
    MPI_Type_free(&vec);
    MPI_Finalize();
    return 0;
}
