/*
 * shm-common.h - helpers of the shared-memory window programs (shm-*.c):
 * the node communicator, a checksum, and the lines they print. Each
 * program prints what it read from its neighbours' parts of a shared
 * window, so a replay that does not show a rank the bytes the others
 * stored prints something else.
 */
#ifndef SHM_COMMON_H
#define SHM_COMMON_H

#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int shm_rank, shm_size;

#define SHM_OK(call)                                                         \
    do {                                                                     \
        int rc_ = (call);                                                    \
        if (rc_ != MPI_SUCCESS) {                                            \
            printf("rank %d: FAIL %s: %d\n", shm_rank, #call, rc_);          \
            MPI_Abort(MPI_COMM_WORLD, 1);                                    \
        }                                                                    \
    } while (0)

/* MPI_Init, then the processes of this node (all of them here). */
static inline MPI_Comm shm_start(int *argc, char ***argv)
{
    MPI_Comm node;
    MPI_Init(argc, argv);
    setvbuf(stdout, NULL, _IOLBF, 0);
    SHM_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                               MPI_INFO_NULL, &node));
    MPI_Comm_rank(node, &shm_rank);
    MPI_Comm_size(node, &shm_size);
    return node;
}

/* FNV-1a over N bytes at P. */
static inline uint64_t shm_sum(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

__attribute__((format(printf, 1, 2)))
static inline void shm_say(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    printf("rank %d: %s\n", shm_rank, line);
}

#endif
