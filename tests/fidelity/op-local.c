/* MPI_Reduce_local calls the operator at once, on the program's buffers;
 * the large-count operator of MPI_Op_create_c (len is an MPI_Count) in
 * MPI_Reduce_local_c and MPI_Allreduce_c; an operator with side effects
 * (it keeps a running total the program prints later). */
#include <mpi.h>
#include <stdio.h>

static long total;

static void maxabs(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    double *a = in, *b = inout;
    (void)dt;
    for (int i = 0; i < *len; i++) {
        double x = a[i] < 0 ? -a[i] : a[i], y = b[i] < 0 ? -b[i] : b[i];
        b[i] = x > y ? x : y;
        total += (long)b[i];
    }
    printf("  maxabs len %d -> %g\n", *len, b[0]);
}

static void prod_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    long long *a = in, *b = inout;
    (void)dt;
    for (MPI_Count i = 0; i < *len; i++)
        b[i] = b[i] * a[i] % 1000003;
    printf("  prod_c len %lld -> %lld\n", (long long)*len, b[0]);
}

int main(int argc, char **argv)
{
    int me;
    double x[3], y[3];
    long long p[4], q[4];
    MPI_Op op, opc;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Op_create(maxabs, 1, &op);
    MPI_Op_create_c(prod_c, 1, &opc);
    for (int i = 0; i < 3; i++) {
        x[i] = (i - me) * 1.5;
        y[i] = me - 2.0 * i;
    }
    MPI_Reduce_local(x, y, 3, MPI_DOUBLE, op);
    printf("rank %d: local %g %g %g total %ld\n", me, y[0], y[1], y[2], total);
    MPI_Reduce_local(x, y, 0, MPI_DOUBLE, op); /* MPI calls nothing */
    MPI_Allreduce(MPI_IN_PLACE, y, 3, MPI_DOUBLE, op, MPI_COMM_WORLD);
    printf("rank %d: allreduce %g total %ld\n", me, y[0], total);
    for (int i = 0; i < 4; i++) {
        p[i] = me + i + 2;
        q[i] = 3;
    }
    MPI_Reduce_local_c(p, q, 4, MPI_LONG_LONG, opc);
    printf("rank %d: local_c %lld %lld\n", me, q[0], q[3]);
    MPI_Allreduce_c(p, q, (MPI_Count)4, MPI_LONG_LONG, opc, MPI_COMM_WORLD);
    printf("rank %d: allreduce_c %lld\n", me, q[0]);
    MPI_Op_free(&opc);
    MPI_Op_free(&op);
    MPI_Finalize();
    return 0;
}
