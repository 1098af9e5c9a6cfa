/*
 * lograte - logs at a steady rate for a while: rank pairs (0,1), (2,3)...
 * exchange BYTES-byte messages, then sleep USEC microseconds, for SECONDS
 * seconds (each received message's data is logged: about BYTES per
 * exchange per rank). The even rank decides when to stop and tells its
 * partner with the message's first int.
 * usage: lograte SECONDS BYTES USEC
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double secs = argc > 1 ? atof(argv[1]) : 3;
    int bytes = argc > 2 ? atoi(argv[2]) : 65536;
    int usec = argc > 3 ? atoi(argv[3]) : 10000;
    if (bytes < (int)sizeof(int))
        bytes = sizeof(int);
    char *buf = calloc(1, (size_t)bytes);
    int peer = rank ^ 1, rounds = 0, go = 1;
    double t0 = MPI_Wtime();
    while (go && peer < size) {
        if (rank % 2 == 0) {
            go = MPI_Wtime() - t0 < secs;
            memcpy(buf, &go, sizeof go);
            buf[bytes - 1] = (char)rounds;
            MPI_Send(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            memcpy(&go, buf, sizeof go);
            MPI_Send(buf, bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
        }
        rounds++;
        usleep((useconds_t)usec);
    }
    printf("rank %d: %d rounds\n", rank, rounds);
    free(buf);
    MPI_Finalize();
    return 0;
}
