/*
 * Addresses of memory MPI allocated, exchanged between ranks (issue 34, as
 * Global Arrays over ARMCI-MPI does): each rank allgathers the base of its
 * MPI_Win_allocate window and of an MPI_Alloc_mem buffer, says whether
 * the gathered table holds its own bases at its index, and stores through
 * the addresses the table holds for it when they are its own (the old
 * replay, whose memory was elsewhere, stored through them regardless and
 * died of SIGSEGV, as Global Arrays did). In a replay the table is the
 * recorded one (data from other ranks): the memory must be at the
 * recorded address. The window is then read by a neighbour through
 * MPI_Get.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define WIN_BYTES (64 * 1024)

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *base, *mem;
    MPI_Win win;
    MPI_Win_allocate(WIN_BYTES, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &base, &win);
    MPI_Alloc_mem(3 * 4096 + 40, MPI_INFO_NULL, &mem);
    MPI_Aint mine[2] = {(MPI_Aint)(uintptr_t)base, (MPI_Aint)(uintptr_t)mem};
    MPI_Aint table[2 * 64];
    MPI_Allgather(mine, 2, MPI_AINT, table, 2, MPI_AINT, MPI_COMM_WORLD);
    MPI_Aint wins[64], mems[64];
    for (int i = 0; i < size && i < 64; i++) {
        wins[i] = table[2 * i];
        mems[i] = table[2 * i + 1];
    }
    printf("rank %d: the table holds its window %s, its buffer %s\n", rank,
           wins[rank] == mine[0] ? "yes" : "no",
           mems[rank] == mine[1] ? "yes" : "no");
    /* stores through the addresses the others know it by */
    int *wp = wins[rank] == mine[0] ? (int *)(uintptr_t)wins[rank] : base;
    int *mp = mems[rank] == mine[1] ? (int *)(uintptr_t)mems[rank] : mem;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    for (int i = 0; i < 16; i++)
        wp[i] = 1000 * rank + i;
    MPI_Win_unlock(rank, win);
    for (int i = 0; i < 16; i++)
        mp[i] = 2000 * rank + i;
    MPI_Barrier(MPI_COMM_WORLD);
    int right = (rank + 1) % size, got[4] = {0};
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MPI_Get(got, 4, MPI_INT, right, 12, 4, MPI_INT, win);
    MPI_Win_unlock(right, win);
    printf("rank %d: window of rank %d holds %d %d %d %d; own buffer %d\n",
           rank, right, got[0], got[1], got[2], got[3], mem[15]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Free_mem(mem);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
