/*
 * Addresses: small blocks of MPI_Alloc_mem in a dynamic window, their
 * addresses used as displacements, as MPICH's rma/linked_list does. Each
 * rank allocates blocks of 24 to 216 bytes with MPI_Alloc_mem between
 * mallocs of its own (in the recorded run MPICH took them from malloc's
 * heap, where the replay's heap holds other things), attaches them,
 * allgathers their addresses (MPI_Get_address), then accumulates into the
 * next rank's blocks and compares-and-swaps a counter in its own first
 * block, both at those displacements; frees some blocks and allocates
 * again (a freed block's place reused). Prints what it read. A replay
 * that gives a block another address than recorded calls with another
 * target_disp than the log's and stops. Run with 2 ranks or more.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCKS 6

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size;
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int *blk[BLOCKS];
    void *own[BLOCKS];
    MPI_Aint addr[BLOCKS], *all = malloc((size_t)size * BLOCKS * sizeof *all);
    for (int round = 0; round < 2; round++) {
        for (int b = 0; b < BLOCKS; b++) {
            if (round == 0 || b % 2) {
                int n = 6 + 12 * b;
                MPI_Alloc_mem((MPI_Aint)(n * sizeof(int)), MPI_INFO_NULL,
                              &blk[b]);
                for (int i = 0; i < n; i++)
                    blk[b][i] = 0;
                MPI_Win_attach(win, blk[b], (MPI_Aint)(n * sizeof(int)));
                own[b] = malloc(40 + 8 * (size_t)b); /* the program's own */
            }
            MPI_Get_address(blk[b], &addr[b]);
        }
        MPI_Allgather(addr, BLOCKS, MPI_AINT, all, BLOCKS, MPI_AINT,
                      MPI_COMM_WORLD);
        MPI_Win_lock_all(0, win);
        for (int b = 0; b < BLOCKS; b++) {
            int v = 100 * rank + 10 * round + b;
            MPI_Accumulate(&v, 1, MPI_INT, next, all[next * BLOCKS + b] + 4,
                           1, MPI_INT, MPI_SUM, win);
        }
        int one = 1, zero = 0, old = -1;
        MPI_Compare_and_swap(&one, &zero, &old, MPI_INT, rank, addr[0], win);
        MPI_Win_unlock_all(win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
        printf("rank %d round %d: swap saw %d; blocks:", rank, round, old);
        for (int b = 0; b < BLOCKS; b++)
            printf(" %d/%d", blk[b][0], blk[b][1]);
        printf("\n");
        MPI_Win_unlock(rank, win);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int b = 1; b < BLOCKS; b += 2) { /* given back, then again */
            MPI_Win_detach(win, blk[b]);
            MPI_Free_mem(blk[b]);
            free(own[b]);
        }
    }
    for (int b = 0; b < BLOCKS; b += 2) {
        MPI_Win_detach(win, blk[b]);
        MPI_Free_mem(blk[b]);
        free(own[b]);
    }
    MPI_Win_free(&win);
    free(all);
    MPI_Finalize();
    return 0;
}
