/*
 * poll.h - what the poll-*.c programs share: MPI started in a world of at
 * least NEED ranks (with fewer, rank 0 says so and the job aborts with
 * status 2), and ended after every rank met.
 */
#ifndef POLL_H
#define POLL_H

#include <mpi.h>
#include <stdio.h>

/* MPI_Init; this process's rank in MPI_COMM_WORLD. */
static inline int poll_start(int *argc, char ***argv, int need,
                             const char *name)
{
    int rank, size;
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < need) {
        if (rank == 0)
            fprintf(stderr, "%s: needs %d ranks\n", name, need);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return rank;
}

/* A barrier, then MPI_Finalize; main's status. */
static inline int poll_end(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}

#endif
