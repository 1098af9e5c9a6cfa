/*
 * Addresses (issue 16, class 7): a dynamic window over static data. Each
 * rank attaches a global array (a Fortran common block's C twin) to an
 * MPI_Win_create_dynamic window, computes its own displacement with
 * MPI_Get_address and puts into its own block through the window, and
 * sends the address to the rank on its left, which puts into it too. The
 * program's addresses (of the array, of a function, of a string constant)
 * are printed. With address-space randomization on, the replayed
 * executable is mapped elsewhere: the displacements the replay computes
 * are not the logged ones.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdint.h>

static int block[64];
static const char *const greeting = "hello";

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    printf("rank %d: block %p, main %p, greeting %p\n", rank, (void *)block,
           (void *)(uintptr_t)main, (const void *)greeting);

    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_attach(win, block, sizeof block);
    MPI_Aint mine, theirs;
    MPI_Get_address(&block[8], &mine);
    MPI_Sendrecv(&mine, 1, MPI_AINT, left, 0, &theirs, 1, MPI_AINT, right, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: my displacement %#lx, my right neighbour's %#lx\n",
           rank, (unsigned long)mine, (unsigned long)theirs);

    int v[4] = {rank, rank, rank, rank}, w[4] = {-rank, -rank, -rank, -rank};
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    MPI_Put(v, 4, MPI_INT, rank, mine, 4, MPI_INT, win);
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    MPI_Put(w, 4, MPI_INT, right, MPI_Aint_add(theirs, 16), 4, MPI_INT, win);
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d:", rank);
    for (int i = 0; i < 16; i++)
        printf(" %d", block[i]);
    printf("\n");
    MPI_Win_detach(win, block);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
