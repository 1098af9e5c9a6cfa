/*
 * Addresses (issue 16, class 7): a dynamic window. Each rank attaches a
 * malloc'd block to an MPI_Win_create_dynamic window and sends the block's
 * address (MPI_Get_address) to its left neighbour, which puts into it at
 * that displacement and gets back from it. The replay must attach the same
 * base (the recorded heap address: address-space randomization off) and
 * see the same data.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int n = 64 + 16 * rank;
    int *mem = malloc((size_t)n * sizeof *mem);
    for (int i = 0; i < n; i++)
        mem[i] = -1;
    MPI_Win_attach(win, mem, (MPI_Aint)n * (MPI_Aint)sizeof *mem);

    /* My block's address goes to the rank on my left, which writes into
     * it; I get the address of my right neighbour's block. */
    MPI_Aint mine, theirs;
    MPI_Get_address(mem, &mine);
    MPI_Sendrecv(&mine, 1, MPI_AINT, left, 0, &theirs, 1, MPI_AINT, right, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    int put[8], got[8];
    for (int i = 0; i < 8; i++)
        put[i] = 1000 * rank + i;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    MPI_Put(put, 8, MPI_INT, right, MPI_Aint_add(theirs, 4 * sizeof(int)), 8,
            MPI_INT, win);
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MPI_Get(got, 8, MPI_INT, right, MPI_Aint_add(theirs, 2 * sizeof(int)), 8,
            MPI_INT, win);
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);

    printf("rank %d: block of %d ints", rank, n);
    for (int i = 0; i < 14; i++)
        printf(" %d", mem[i]);
    printf("\nrank %d: got", rank);
    for (int i = 0; i < 8; i++)
        printf(" %d", got[i]);
    printf("\n");
    MPI_Win_detach(win, mem);
    MPI_Win_free(&win);
    free(mem);
    MPI_Finalize();
    return 0;
}
