/*
 * neighbor - the recorder's cost on a neighbourhood collective: N calls
 * of MPI_Neighbor_alltoall (1 MPI_INT to each neighbour) on a periodic
 * 1-D Cartesian ring of all ranks, or of MPI_Neighbor_alltoallv ("v"),
 * whose records also log their counts arrays. Prints "time_s S" at rank 0.
 *
 *   mpiexec -n 4 ./bench-neighbor [N [v]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    int v = argc > 2 && strcmp(argv[2], "v") == 0;
    int rank, size, periods[1] = {1}, out[2] = {1, 2}, in[2];
    int counts[2] = {1, 1}, displs[2] = {0, 1};
    MPI_Comm ring;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, periods, 0, &ring);
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        out[0] = (int)i;
        if (v)
            MPI_Neighbor_alltoallv(out, counts, displs, MPI_INT, in, counts,
                                   displs, MPI_INT, ring);
        else
            MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring);
    }
    if (rank == 0)
        printf("time_s %.6f\n", MPI_Wtime() - t0);
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return 0;
}
