/*
 * Addresses (issue 16, class 7): a dynamic window over a stack array. Each
 * rank attaches a local array of main's frame to an MPI_Win_create_dynamic
 * window, puts into it through the window at the displacement
 * MPI_Get_address gives (an argument the replay checks against the log),
 * sends that displacement to its left neighbour, which accumulates into
 * it, and prints the address. The replay must run with randomization off
 * and the stack where the recording had it (drdb replay pads the
 * environment to the recorded size).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, local[32] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_attach(win, local, sizeof local);
    MPI_Aint mine, theirs;
    MPI_Get_address(&local[4], &mine);
    printf("rank %d: stack array at %p, displacement %#lx\n", rank,
           (void *)local, (unsigned long)mine);
    MPI_Sendrecv(&mine, 1, MPI_AINT, left, 0, &theirs, 1, MPI_AINT, right, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int v[4] = {10 + rank, 20 + rank, 30 + rank, 40 + rank}, one[4] = {1, 1, 1, 1};
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    MPI_Put(v, 4, MPI_INT, rank, mine, 4, MPI_INT, win);
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MPI_Accumulate(one, 4, MPI_INT, right, theirs, 4, MPI_INT, MPI_SUM, win);
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d:", rank);
    for (int i = 0; i < 12; i++)
        printf(" %d", local[i]);
    printf("\n");
    MPI_Win_detach(win, local);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
