/* MPI-4 partitioned communication: Psend_init/Precv_init, Start, Pready,
 * Pready_range, Pready_list, Parrived, Wait; two rounds on the same
 * persistent requests. Even ranks send to the next odd rank. */
#include <mpi.h>
#include <stdio.h>

#define PARTS 4
#define PER 3

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int buf[PARTS * PER];
    MPI_Request req;
    int peer = rank ^ 1;
    if (peer >= size) {
        MPI_Finalize();
        return 0;
    }
    if (rank % 2 == 0)
        MPI_Psend_init(buf, PARTS, PER, MPI_INT, peer, 3, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req);
    else
        MPI_Precv_init(buf, PARTS, PER, MPI_INT, peer, 3, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < PARTS * PER; i++)
            buf[i] = rank % 2 == 0 ? rank * 1000 + round * 100 + i : -1;
        MPI_Start(&req);
        if (rank % 2 == 0) {
            MPI_Pready(0, req);
            MPI_Pready_range(1, 2, req);
            int list[1] = {3};
            MPI_Pready_list(1, list, req);
        } else {
            int flag = 0, polls = 0;
            while (!flag) {
                MPI_Parrived(req, PARTS - 1, &flag);
                polls++;
            }
            printf("rank %d round %d: last partition arrived\n", rank, round);
        }
        MPI_Status st;
        MPI_Wait(&req, &st);
        if (rank % 2) {
            printf("rank %d round %d:", rank, round);
            for (int i = 0; i < PARTS * PER; i++)
                printf(" %d", buf[i]);
            printf("\n");
        }
    }
    MPI_Request_free(&req);
    MPI_Finalize();
    return 0;
}
