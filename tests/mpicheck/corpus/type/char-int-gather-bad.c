/* corpus: class=type expect=bad np=4 */
/* Every rank gathers a 4-character name to rank 0 with MPI_Gather, but the
 * char buffers are described as 1 MPI_INT per rank.  Breaks MPI 4.0 sec.
 * 3.3.1 and 6.5: the datatype must match the C type of the buffers (char
 * <-> MPI_CHAR), whatever the byte count.
 * MPICH 4.0.2 does not detect it: completes silently, and since the bytes
 * are copied unchanged rank 0 even gets the right names. */
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
    MPI_Gather(name, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
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
