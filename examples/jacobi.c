/*
 * jacobi - a small iterative solver: Jacobi iterations for the 2-D Laplace
 * equation on an N x N grid, split into horizontal strips, one per rank.
 *
 * Each iteration exchanges halo rows with the neighbours using nonblocking
 * calls (MPI_Irecv/MPI_Isend/MPI_Waitall), updates the strip, and combines
 * the residual with MPI_Allreduce; rank 0 prints it.
 *
 *   mpiexec -n 4 ./jacobi [N] [ITERATIONS]
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size;
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int iters = argc > 2 ? atoi(argv[2]) : 20;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (n < size)
        n = size;

    /* Rows [first, first + rows) are ours; rows 0 and rows + 1 are halos. */
    int rows = n / size + (rank < n % size);
    int first = rank * (n / size) + (rank < n % size ? rank : n % size);
    size_t row_bytes = (size_t)n * sizeof(double);
    double *u = calloc((size_t)(rows + 2) * n, sizeof(double));
    double *unew = calloc((size_t)(rows + 2) * n, sizeof(double));
    if (!u || !unew) {
        fprintf(stderr, "jacobi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* Boundary condition: the top edge of the grid is held at 1. */
    if (first == 0)
        for (int j = 0; j < n; j++)
            u[1 * n + j] = unew[1 * n + j] = 1.0;

    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

    for (int it = 0; it < iters; it++) {
        MPI_Request req[4];
        MPI_Status st[4];
        MPI_Irecv(&u[0], n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&u[(rows + 1) * n], n, MPI_DOUBLE, down, 0, MPI_COMM_WORLD,
                  &req[1]);
        MPI_Isend(&u[1 * n], n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(&u[rows * n], n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD,
                  &req[3]);
        MPI_Waitall(4, req, st);

        double local = 0.0;
        for (int i = 1; i <= rows; i++) {
            int g = first + i - 1; /* global row */
            for (int j = 0; j < n; j++) {
                if (g == 0 || g == n - 1 || j == 0 || j == n - 1) {
                    unew[i * n + j] = u[i * n + j];
                    continue;
                }
                unew[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                                          u[i * n + j - 1] + u[i * n + j + 1]);
                double d = unew[i * n + j] - u[i * n + j];
                local += d * d;
            }
        }
        memcpy(&u[n], &unew[n], (size_t)rows * row_bytes);

        double global;
        MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            printf("iteration %d residual %.10e\n", it, sqrt(global));
    }

    double sum = 0.0, total;
    for (int i = 1; i <= rows; i++)
        for (int j = 0; j < n; j++)
            sum += u[i * n + j];
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("final sum %.10e\n", total);

    free(u);
    free(unew);
    MPI_Finalize();
    return 0;
}
