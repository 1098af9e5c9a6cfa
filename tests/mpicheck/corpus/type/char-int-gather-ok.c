/* corpus: class=type expect=ok np=4 */
/* Twin of char-int-gather-bad: every rank gathers a 4-character name to
 * rank 0 with MPI_Gather, as 4 MPI_CHAR per rank (MPI 4.0 sec. 3.3.1,
 * 6.5). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, i;
    char name[4], all[16], want[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    memcpy(name, "rk0", 4);
    name[2] = (char)('0' + rank);
    MPI_Gather(name, 4, MPI_CHAR, all, 4, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (i = 0; i < size; i++) {
            memcpy(want, "rk0", 4);
            want[2] = (char)('0' + i);
            if (memcmp(&all[4 * i], want, 4) != 0)
                printf("rank 0: name %d is '%.3s'\n", i, &all[4 * i]);
        }
    MPI_Finalize();
    return 0;
}
