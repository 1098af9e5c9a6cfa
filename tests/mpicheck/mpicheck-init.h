/* mpicheck-init.h - the start the deadlock.* and race.* test programs
 * share: MPI_Init, this rank; a run with another world size than SIZE
 * aborts with a message (the expected findings are written for SIZE). */
#ifndef MPICHECK_INIT_H
#define MPICHECK_INIT_H

#include <mpi.h>
#include <stdio.h>

/* MPI_Init, MPI_Comm_rank, MPI_Comm_size: the program's events 0-2. */
static inline int mpicheck_init(int *argc, char ***argv, int size)
{
    int rank, n;
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n != size) {
        if (rank == 0)
            fprintf(stderr, "run with %d ranks\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return rank;
}

#endif
