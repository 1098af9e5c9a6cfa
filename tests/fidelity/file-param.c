/* Issue 16, class 9: every rank reads a parameter file in the working
 * directory and a mesh under a subdirectory (both inputs), through stdio
 * and through open/read, then reduces over them. Prints what it read. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, n = 0;
    double scale = 0, sum = 0, total = 0;
    char name[64] = "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    FILE *f = fopen("params.txt", "r");
    if (!f) {
        printf("rank %d: no params.txt\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (fscanf(f, "%63s %d %lf", name, &n, &scale) != 3)
        printf("rank %d: params.txt is malformed\n", rank);
    fclose(f);
    int fd = open("mesh/grid.dat", O_RDONLY);
    char buf[4096];
    ssize_t got = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    buf[got > 0 ? got : 0] = '\0';
    printf("rank %d: case %s n=%d scale=%g, mesh %zd bytes\n", rank, name, n,
           scale, got);
    /* the mesh: one value per line; each rank sums every size-th one */
    int i = 0;
    for (char *p = strtok(buf, "\n"); p; p = strtok(NULL, "\n"), i++)
        if (i % size == rank)
            sum += scale * atof(p);
    MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: partial %.3f total %.3f\n", rank, sum, total);
    MPI_Finalize();
    return 0;
}
