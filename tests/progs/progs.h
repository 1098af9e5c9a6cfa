/*
 * progs.h - shared helpers of the focused MPI test programs in tests/progs/.
 *
 * Each program is recorded under mpiexec and then replayed rank by rank, and
 * the two outputs are compared. So every program prints line-oriented output
 * prefixed with "rank R: ", checks every MPI result against what MPI
 * semantics say it must be, and ends with "rank R: checksum <hex>", an FNV-1a
 * hash over everything the rank received or computed (its final state).
 *
 * A failed check prints "rank R: FAIL file:line: message" on stdout and
 * stderr and aborts the job with MPI_Abort(..., 1), so mpiexec exits
 * non-zero.
 *
 * Payloads encode sender, receiver, tag, sequence number and element index
 * (prog_payload) so a receiver can verify exactly what it must have got.
 */
#ifndef PROGS_H
#define PROGS_H

#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int prog_rank = -1;
static int prog_size = 0;
static uint64_t prog_hash = 0xcbf29ce484222325ULL; /* FNV-1a offset basis */

/* Call right after MPI_Init/MPI_Init_thread. */
static inline void prog_start(void)
{
    /* One write per line, so ranks' lines never mix inside a line. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    MPI_Comm_rank(MPI_COMM_WORLD, &prog_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &prog_size);
}

/* Adds N bytes at P to the rank's checksum. */
static inline void prog_sum(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        prog_hash ^= b[i];
        prog_hash *= 0x100000001b3ULL;
    }
}

static inline void prog_sum_i(long long v)
{
    prog_sum(&v, sizeof v);
}

/* Prints one "rank R: ..." line on stdout. */
__attribute__((format(printf, 1, 2)))
static inline void prog_say(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    printf("rank %d: %s\n", prog_rank, line);
}

__attribute__((format(printf, 1, 2), noreturn))
static inline void prog_fail(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    printf("rank %d: FAIL %s\n", prog_rank, line);
    fflush(stdout);
    fprintf(stderr, "rank %d: FAIL %s\n", prog_rank, line);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond))                                                       \
            prog_fail("%s:%d: check '%s' failed: %s", __FILE__, __LINE__, \
                      #cond, prog__fmt(__VA_ARGS__));                      \
    } while (0)

/* Formats a check's message into a static buffer (the failure path only). */
__attribute__((format(printf, 1, 2)))
static inline const char *prog__fmt(const char *fmt, ...)
{
    static char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

/* Checks an MPI return code (all programs but wtime-errors keep the default
 * MPI_ERRORS_ARE_FATAL, so this only documents intent and catches misuse). */
#define MPI_OK(call)                                                       \
    do {                                                                   \
        int prog__rc = (call);                                             \
        if (prog__rc != MPI_SUCCESS)                                       \
            prog_fail("%s:%d: %s returned %d", __FILE__, __LINE__, #call,  \
                      prog__rc);                                           \
    } while (0)

/* The value of element I of message SEQ from SRC to DST with TAG. */
static inline int prog_payload(int src, int dst, int tag, int seq, int i)
{
    unsigned v = (unsigned)src * 1000003u ^ (unsigned)dst * 7919u;
    v = v * 31u + (unsigned)tag * 131u + (unsigned)seq * 65537u;
    v = v * 2654435761u + (unsigned)i;
    return (int)(v & 0x7fffffff);
}

/* Fills N ints with the payload of one message. */
static inline void prog_fill(int *buf, int n, int src, int dst, int tag,
                             int seq)
{
    for (int i = 0; i < n; i++)
        buf[i] = prog_payload(src, dst, tag, seq, i);
}

/* Verifies N received ints against the payload the sender must have sent. */
#define CHECK_PAYLOAD(buf, n, src, dst, tag, seq)                          \
    do {                                                                   \
        for (int prog__i = 0; prog__i < (n); prog__i++)                    \
            CHECK((buf)[prog__i] ==                                        \
                      prog_payload(src, dst, tag, seq, prog__i),           \
                  "element %d of message src %d dst %d tag %d seq %d: "    \
                  "got %d", prog__i, (int)(src), (int)(dst), (int)(tag),   \
                  (int)(seq), (buf)[prog__i]);                             \
    } while (0)

/* Status source/tag/count check. */
#define CHECK_STATUS(st, dtype, src, tag, count)                           \
    do {                                                                   \
        int prog__c;                                                       \
        MPI_Get_count(&(st), dtype, &prog__c);                             \
        CHECK((st).MPI_SOURCE == (src) && (st).MPI_TAG == (tag) &&         \
                  prog__c == (count),                                      \
              "status source %d tag %d count %d, want %d %d %d",           \
              (st).MPI_SOURCE, (st).MPI_TAG, prog__c, (int)(src),          \
              (int)(tag), (int)(count));                                   \
    } while (0)

/* Prints the checksum line, finalizes MPI, returns main's exit status. */
static inline int prog_finish(void)
{
    printf("rank %d: checksum %016llx\n", prog_rank,
           (unsigned long long)prog_hash);
    MPI_Finalize();
    return 0;
}

#endif
