/* Issue 16, class 9: rank 0 writes a file, every rank reads it, rank 0
 * rewrites it with other content, every rank reads it again: each read
 * must see the content of its own moment (for rank 0 its own output; for
 * the others an input captured twice). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void show(int rank, int step)
{
    char line[128] = "";
    FILE *f = fopen("shared.txt", "r");
    if (!f || !fgets(line, sizeof line, f))
        snprintf(line, sizeof line, "(unreadable)\n");
    if (f)
        fclose(f);
    printf("rank %d: step %d read: %s", rank, step, line);
}

static void put(const char *text)
{
    FILE *f = fopen("shared.txt", "w");
    fputs(text, f);
    fclose(f);
}

int main(int argc, char **argv)
{
    int rank, v;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        put("first version 1111\n");
    MPI_Barrier(MPI_COMM_WORLD);
    show(rank, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        put("second version 22222222\n");
    MPI_Barrier(MPI_COMM_WORLD);
    show(rank, 2);
    v = rank;
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: sum %d\n", rank, v);
    MPI_Finalize();
    return 0;
}
