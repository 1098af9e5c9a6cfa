/*
 * shm-common.h - helpers of the shared-memory window programs (shm-*.c),
 * over tests/progs/progs.h (its "rank R: ..." lines, checks and FNV-1a):
 * the node communicator, a shared window, a neighbour's part. Each program
 * prints what it read from its neighbours' parts, so a replay that does
 * not show a rank the bytes the others stored prints something else.
 */
#ifndef SHM_COMMON_H
#define SHM_COMMON_H

#include "progs.h"

static int shm_rank, shm_size;

/* MPI_Init, then the processes of this node (all of them here). */
static inline MPI_Comm shm_start(int *argc, char ***argv)
{
    MPI_Comm node;
    MPI_Init(argc, argv);
    prog_start();
    MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                               MPI_INFO_NULL, &node));
    MPI_Comm_rank(node, &shm_rank);
    MPI_Comm_size(node, &shm_size);
    return node;
}

/* A shared window over NODE: this rank's part (BYTES, UNIT) in *MINE. */
static inline MPI_Win shm_window(MPI_Comm node, MPI_Aint bytes, int unit,
                                 MPI_Info info, void *mine)
{
    MPI_Win win;
    MPI_OK(MPI_Win_allocate_shared(bytes, unit, info, node, mine, &win));
    return win;
}

/* Rank Q's part of WIN (Q may be MPI_PROC_NULL); its size and unit into
 * *SIZE and *UNIT when not NULL. */
static inline void *shm_part(MPI_Win win, int q, MPI_Aint *size, int *unit)
{
    MPI_Aint s;
    int u;
    void *p;
    MPI_OK(MPI_Win_shared_query(win, q, &s, &u, &p));
    if (size)
        *size = s;
    if (unit)
        *unit = u;
    return p;
}

/* FNV-1a over N bytes at P, on its own (progs.h's running hash is not
 * used otherwise). */
static inline unsigned long long shm_sum(const void *p, size_t n)
{
    prog_hash = 0xcbf29ce484222325ULL;
    prog_sum(p, n);
    return (unsigned long long)prog_hash;
}

#endif
