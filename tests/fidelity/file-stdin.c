/* Issue 16, class 9: rank 0 reads a parameter deck from its standard
 * input (as mpiexec passes it on) and broadcasts it; every rank prints it
 * and a result that depends on it. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank;
    char deck[1024] = "";
    int steps = 0;
    double dt = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        size_t n = fread(deck, 1, sizeof deck - 1, stdin);
        deck[n] = '\0';
    }
    MPI_Bcast(deck, sizeof deck, MPI_CHAR, 0, MPI_COMM_WORLD);
    const char *p = strstr(deck, "steps");
    if (p)
        sscanf(p, "steps %d", &steps);
    p = strstr(deck, "dt");
    if (p)
        sscanf(p, "dt %lf", &dt);
    printf("rank %d: deck %zu bytes, steps %d, dt %g\n", rank, strlen(deck),
           steps, dt);
    double t = 0;
    for (int i = 0; i < steps; i++)
        t += dt * (rank + 1);
    double all;
    MPI_Reduce(&t, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("rank 0: total time %.4f\n", all);
    MPI_Finalize();
    return 0;
}
