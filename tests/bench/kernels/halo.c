/*
 * halo - 2-D halo exchange on a periodic Cartesian communicator + compute.
 *
 * Each rank owns an N x N block of a periodic grid (process grid from
 * MPI_Dims_create). Every iteration exchanges the four edges with the
 * neighbours from MPI_Cart_shift using MPI_Irecv/MPI_Isend/MPI_Waitall
 * (rows contiguous, columns through an MPI_Type_vector), then applies a
 * 5-point Jacobi smoothing step; every 10 iterations the global sum is
 * reduced with MPI_Allreduce and must stay constant (the stencil conserves
 * it on a periodic grid, up to rounding).
 *
 *   mpiexec -n 1..4 ./halo [ITERS] [N]       (defaults 300, 96)
 */
#include <math.h>
#include <string.h>

#include "bench.h"

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 96;
    int rank, size, dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Comm cart;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
    MPI_Comm_rank(cart, &rank);
    int up, down, left, right;
    MPI_Cart_shift(cart, 0, 1, &up, &down);
    MPI_Cart_shift(cart, 1, 1, &left, &right);

    int ld = n + 2; /* row length with halos */
    double *u = calloc((size_t)ld * ld, sizeof(double));
    double *v = calloc((size_t)ld * ld, sizeof(double));
#define U(a, i, j) (a)[(size_t)(i) * ld + (j)]
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            U(u, i, j) = (double)((rank * 31 + i * 7 + j * 3) % 17);
    MPI_Datatype column;
    MPI_Type_vector(n, 1, ld, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);

    double local = 0, total0, total;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            local += U(u, i, j);
    MPI_Allreduce(&local, &total0, 1, MPI_DOUBLE, MPI_SUM, cart);

    double t0 = bench_start();
    for (int it = 0; it < iters; it++) {
        MPI_Request req[8];
        MPI_Irecv(&U(u, 0, 1), n, MPI_DOUBLE, up, 0, cart, &req[0]);
        MPI_Irecv(&U(u, n + 1, 1), n, MPI_DOUBLE, down, 1, cart, &req[1]);
        MPI_Irecv(&U(u, 1, 0), 1, column, left, 2, cart, &req[2]);
        MPI_Irecv(&U(u, 1, n + 1), 1, column, right, 3, cart, &req[3]);
        MPI_Isend(&U(u, n, 1), n, MPI_DOUBLE, down, 0, cart, &req[4]);
        MPI_Isend(&U(u, 1, 1), n, MPI_DOUBLE, up, 1, cart, &req[5]);
        MPI_Isend(&U(u, 1, n), 1, column, right, 2, cart, &req[6]);
        MPI_Isend(&U(u, 1, 1), 1, column, left, 3, cart, &req[7]);
        MPI_Status st[8];
        MPI_Waitall(8, req, st);
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++)
                U(v, i, j) = 0.5 * U(u, i, j) +
                             0.125 * (U(u, i - 1, j) + U(u, i + 1, j) +
                                      U(u, i, j - 1) + U(u, i, j + 1));
        double *t = u;
        u = v;
        v = t;
        if (it % 10 == 9) {
            local = 0;
            for (int i = 1; i <= n; i++)
                for (int j = 1; j <= n; j++)
                    local += U(u, i, j);
            MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, cart);
            if (fabs(total - total0) > 1e-6 * fabs(total0))
                bench_fail("iteration %d: sum %.9g, started %.9g", it, total,
                           total0);
        }
    }
    if (rank == 0)
        printf("halo %dx%d per rank, grid %dx%d, %d iterations, sum %.6g\n", n,
               n, dims[0], dims[1], iters, total0);
    bench_stop(t0);
    MPI_Type_free(&column);
    MPI_Comm_free(&cart);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
