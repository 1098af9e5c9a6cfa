/* Very large messages (issue 16, class 13): rank 0 sends rank 1 one
 * message of BYTES bytes (argument 1; default 2^31 + 1, over INT_MAX) with
 * MPI_Send_c/MPI_Recv_c of MPI_BYTE, then, unless argument 2 is 0, the
 * same bytes again as a large-count receive of a contiguous derived type
 * of 2^20 bytes (BYTES / 2^20 of them, into a buffer one element larger).
 * Rank 1 prints what arrived: counts from the status and a checksum. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t sum(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i += 4093)
        h = (h ^ p[i]) * 1099511628211ull;
    return h ^ p[n - 1];
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Count bytes = argc > 1 ? strtoll(argv[1], NULL, 0) : (1ll << 31) + 1;
    int derived = argc > 2 ? atoi(argv[2]) : 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    unsigned char *buf = malloc((size_t)bytes + (1u << 20));
    if (!buf) {
        fprintf(stderr, "rank %d: no memory for %lld bytes\n", rank,
                (long long)bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Status st;
    MPI_Count n = 0;
    if (rank == 0) {
        /* A pattern that differs in every MiB, filled by doubling. */
        for (MPI_Count i = 0; i < 4096 && i < bytes; i++)
            buf[i] = (unsigned char)(i * 7);
        for (MPI_Count done = 4096; done < bytes; done *= 2)
            memcpy(buf + done, buf, (size_t)(bytes - done < done ? bytes - done
                                                                 : done));
        for (MPI_Count i = 0; i < bytes; i += 1 << 20)
            buf[i] = (unsigned char)(i >> 20);
        MPI_Send_c(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        memset(buf, 0, (size_t)bytes);
        MPI_Recv_c(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &st);
        MPI_Get_count_c(&st, MPI_BYTE, &n);
        printf("rank 1: MPI_BYTE count %lld, checksum %016llx, last %u\n",
               (long long)n, (unsigned long long)sum(buf, (size_t)bytes),
               buf[bytes - 1]);
    }
    if (derived) {
        MPI_Datatype mib;
        MPI_Count elems = bytes >> 20;
        MPI_Type_contiguous_c((MPI_Count)1 << 20, MPI_BYTE, &mib);
        MPI_Type_commit(&mib);
        if (rank == 0) {
            MPI_Send_c(buf, elems, mib, 1, 2, MPI_COMM_WORLD);
        } else if (rank == 1) {
            memset(buf, 0, (size_t)bytes);
            MPI_Recv_c(buf, elems + 1, mib, 0, 2, MPI_COMM_WORLD, &st);
            MPI_Get_count_c(&st, mib, &n);
            MPI_Count e = 0;
            MPI_Get_elements_c(&st, MPI_BYTE, &e);
            printf("rank 1: 2^20-byte type count %lld (%lld bytes), "
                   "checksum %016llx\n", (long long)n, (long long)e,
                   (unsigned long long)sum(buf, (size_t)(elems << 20)));
        }
        MPI_Type_free(&mib);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
