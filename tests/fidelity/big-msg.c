/* Very large messages (issue 16, class 13): rank 0 sends rank 1 messages
 * of more than 2^31 bytes, the two ways programs send them:
 *   argument 1: BYTES (default 2^31 + 1, over INT_MAX);
 *   argument 2: "c"    MPI_Send_c/MPI_Recv_c, BYTES elements of MPI_BYTE;
 *               "type" MPI_Send/MPI_Irecv with an int count of a 2^20-byte
 *                      contiguous type (BYTES / 2^20 of them, into a buffer
 *                      one element larger): a 2 GiB+ message through the
 *                      MPI-1 calls;
 *               "both" (default) one after the other.
 * Rank 1 prints what arrived: the counts from the status and a checksum
 * of every received byte. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a over 8-byte words, then the tail bytes. */
static uint64_t sum(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 1099511628211ull;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* A pattern that differs in every MiB, filled by doubling. */
static void fill(unsigned char *buf, MPI_Count bytes)
{
    for (MPI_Count i = 0; i < 4096 && i < bytes; i++)
        buf[i] = (unsigned char)(i * 7);
    for (MPI_Count done = 4096; done < bytes; done *= 2)
        memcpy(buf + done, buf,
               (size_t)(bytes - done < done ? bytes - done : done));
    for (MPI_Count i = 0; i < bytes; i += 1 << 20)
        buf[i] = (unsigned char)(i >> 20);
    buf[bytes - 1] = 0xa5;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Count bytes = argc > 1 ? strtoll(argv[1], NULL, 0) : (1ll << 31) + 1;
    const char *mode = argc > 2 ? argv[2] : "both";
    int by_c = strcmp(mode, "type") != 0, by_type = strcmp(mode, "c") != 0;
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
    if (rank == 0)
        fill(buf, bytes);
    if (by_c) {
        if (rank == 0) {
            MPI_Send_c(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        } else if (rank == 1) {
            memset(buf, 0, (size_t)bytes);
            MPI_Recv_c(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &st);
            MPI_Get_count_c(&st, MPI_BYTE, &n);
            printf("rank 1: MPI_BYTE count %lld, checksum %016llx, "
                   "last %#x\n", (long long)n,
                   (unsigned long long)sum(buf, (size_t)bytes),
                   buf[bytes - 1]);
        }
    }
    if (by_type) {
        MPI_Datatype mib;
        int elems = (int)(bytes >> 20);
        MPI_Type_contiguous(1 << 20, MPI_BYTE, &mib);
        MPI_Type_commit(&mib);
        if (rank == 0) {
            MPI_Send(buf, elems, mib, 1, 2, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Request req;
            memset(buf, 0, (size_t)bytes);
            MPI_Irecv(buf, elems + 1, mib, 0, 2, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, &st);
            int count = 0;
            MPI_Count e = 0;
            MPI_Get_count(&st, mib, &count);
            MPI_Get_elements_c(&st, MPI_BYTE, &e);
            printf("rank 1: 2^20-byte type count %d (%lld bytes), "
                   "checksum %016llx\n", count, (long long)e,
                   (unsigned long long)sum(buf, (size_t)elems << 20));
        }
        MPI_Type_free(&mib);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
