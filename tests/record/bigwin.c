/*
 * bigwin - attaches 64 TiB to a dynamic window: reserved address space
 * (PROT_NONE, MAP_NORESERVE), which MPI takes as it is, but whose shadow
 * copy the recorder cannot allocate (recorder/rec-rma.c): the kernel
 * refuses an allocation larger than the machine's memory and swap unless
 * it overcommits always (vm.overcommit_memory = 1). Under drdb record
 * each rank says so and aborts at its fourth call (MPI_Init,
 * MPI_Comm_rank, MPI_Win_create_dynamic: events 0-2; MPI_Win_attach:
 * event 3); run natively it prints "rank R: attached" and ends normally.
 */
#include <mpi.h>
#include <stdio.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    size_t size = (size_t)1 << 46;
    void *base = mmap(NULL, size, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
        perror("bigwin: mmap");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (MPI_Win_attach(win, base, (MPI_Aint)size) == MPI_SUCCESS)
        printf("rank %d: attached\n", rank);
    MPI_Win_detach(win, base);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
