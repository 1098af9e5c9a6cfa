/* A commutative user operator that counts and prints its calls (their len
 * and the first values MPI passed): MPI calls it inside MPI_Allreduce,
 * MPI_Reduce, MPI_Scan, MPI_Exscan, MPI_Reduce_scatter_block and
 * MPI_Reduce_scatter, as many times as its algorithms need, and the
 * replay must call it the same times with the same vectors. */
#include <mpi.h>
#include <stdio.h>

static int calls;

static void sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *a = in, *b = inout;
    (void)dt;
    printf("  op call %d: len %d in %d inout %d\n", ++calls, *len, a[0],
           b[0]);
    for (int i = 0; i < *len; i++)
        b[i] += a[i];
}

int main(int argc, char **argv)
{
    int me, size, v[8], r[8], counts[8];
    MPI_Op op;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Op_create(sum, 1, &op);
    for (int i = 0; i < 8; i++) {
        v[i] = me * 10 + i;
        counts[i] = 1 + (i % 2);
    }
    printf("rank %d: allreduce\n", me);
    MPI_Allreduce(v, r, 8, MPI_INT, op, MPI_COMM_WORLD);
    printf("rank %d: = %d %d\n", me, r[0], r[7]);
    printf("rank %d: reduce\n", me);
    MPI_Reduce(v, r, 3, MPI_INT, op, size - 1, MPI_COMM_WORLD);
    printf("rank %d: scan\n", me);
    MPI_Scan(v, r, 2, MPI_INT, op, MPI_COMM_WORLD);
    printf("rank %d: = %d\n", me, r[0]);
    printf("rank %d: exscan\n", me);
    MPI_Exscan(v, r, 2, MPI_INT, op, MPI_COMM_WORLD);
    if (me)
        printf("rank %d: = %d\n", me, r[0]);
    printf("rank %d: reduce_scatter_block\n", me);
    MPI_Reduce_scatter_block(v, r, 1, MPI_INT, op, MPI_COMM_WORLD);
    printf("rank %d: = %d\n", me, r[0]);
    printf("rank %d: reduce_scatter\n", me);
    MPI_Reduce_scatter(v, r, counts, MPI_INT, op, MPI_COMM_WORLD);
    printf("rank %d: = %d\n", me, r[0]);
    printf("rank %d: %d op calls\n", me, calls);
    MPI_Op_free(&op);
    MPI_Finalize();
    return 0;
}
