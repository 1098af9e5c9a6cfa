/* MPI-4 partitioned communication, each partition read as soon as
 * MPI_Parrived says it arrived, before MPI_Wait completes the request (MPI
 * 4.0 4.2.4: the partition may then be accessed). The sender readies its
 * partitions last to first; the receiver polls them first to last, prints
 * the sum of each, then overwrites the partition (the replay must give the
 * arrived data at MPI_Parrived, not only at MPI_Wait). Two rounds on the
 * same persistent requests. Even ranks send to the next odd rank. */
#include <mpi.h>
#include <stdio.h>

#define PARTS 8
#define PER 5

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double buf[PARTS * PER];
    MPI_Request req;
    int peer = rank ^ 1;
    if (peer >= size) {
        MPI_Finalize();
        return 0;
    }
    if (rank % 2 == 0)
        MPI_Psend_init(buf, PARTS, PER, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req);
    else
        MPI_Precv_init(buf, PARTS, PER, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < PARTS * PER; i++)
            buf[i] = rank % 2 == 0 ? rank * 100 + round * 10 + i * 0.5 : -1;
        MPI_Start(&req);
        if (rank % 2 == 0) {
            for (int p = PARTS - 1; p >= 0; p--)
                MPI_Pready(p, req);
        } else {
            for (int p = 0; p < PARTS; p++) {
                int flag = 0;
                while (!flag)
                    MPI_Parrived(req, p, &flag);
                double sum = 0;
                for (int i = 0; i < PER; i++) {
                    sum += buf[p * PER + i];
                    buf[p * PER + i] = -2; /* the program's, after arrival */
                }
                printf("rank %d round %d partition %d: sum %g\n", rank,
                       round, p, sum);
            }
        }
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (rank % 2) {
            double total = 0;
            for (int i = 0; i < PARTS * PER; i++)
                total += buf[i];
            printf("rank %d round %d: after the wait, total %g\n", rank,
                   round, total);
        }
    }
    MPI_Request_free(&req);
    MPI_Finalize();
    return 0;
}
