/*
 * noise - message data that compresses and data that does not: each rank
 * sends its right neighbour (a ring) BYTES bytes in 1 MiB messages, an
 * even rank random bytes (xorshift64*), an odd rank a repeating text. Each
 * rank prints the checksum of what it received.
 *
 *   mpiexec -n 2..4 ./noise [BYTES]       (default 8 MiB)
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PIECE = 1 << 20 };

int main(int argc, char **argv)
{
    long bytes = argc > 1 ? atol(argv[1]) : 8L << 20;
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unsigned char *out = malloc(PIECE), *in = malloc(PIECE);
    uint64_t s = 0x9e3779b97f4a7c15ull * (uint64_t)(rank + 1), sum = 0;
    static const char text[] = "the quick brown fox jumps over the lazy dog ";
    for (long done = 0; done < bytes; done += PIECE) {
        for (int i = 0; i < PIECE; i++) {
            if (rank % 2 == 0) {
                s ^= s >> 12;
                s ^= s << 25;
                s ^= s >> 27;
                out[i] = (unsigned char)((s * 2685821657736338717ull) >> 56);
            } else {
                out[i] = (unsigned char)text[(done + i) % (sizeof text - 1)];
            }
        }
        MPI_Sendrecv(out, PIECE, MPI_BYTE, (rank + 1) % size, 0, in, PIECE,
                     MPI_BYTE, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        for (int i = 0; i < PIECE; i++)
            sum = sum * 31 + in[i];
    }
    printf("rank %d received %ld bytes, checksum %016llx\n", rank, bytes,
           (unsigned long long)sum);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
