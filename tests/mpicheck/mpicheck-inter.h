/* mpicheck-inter.h - the start the coll-inter-* test programs share: 4
 * ranks (mpicheck_init: events 0-2), then an intercommunicator between the
 * lower half (world ranks 0, 1: its group a) and the upper (2, 3), made by
 * MPI_Comm_split (event 3) and MPI_Intercomm_create (event 4), with
 * MPI_ERRORS_RETURN on it (event 5). mpicheck_inter_free: events 6 and 7
 * after the program's collectives. */
#ifndef MPICHECK_INTER_H
#define MPICHECK_INTER_H

#include "mpicheck-init.h"

/* Returns this rank's world rank; *HALF and *INTER the communicators. */
static inline int mpicheck_inter(int *argc, char ***argv, MPI_Comm *half,
                                 MPI_Comm *inter)
{
    int rank = mpicheck_init(argc, argv, 4);
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, half);
    MPI_Intercomm_create(*half, 0, MPI_COMM_WORLD, rank < 2 ? 2 : 0, 7,
                         inter);
    MPI_Comm_set_errhandler(*inter, MPI_ERRORS_RETURN);
    return rank;
}

static inline void mpicheck_inter_free(MPI_Comm *half, MPI_Comm *inter)
{
    MPI_Comm_free(inter);
    MPI_Comm_free(half);
}

#endif
