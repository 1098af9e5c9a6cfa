/*
 * sql-pattern - a known communication pattern for the query tests
 * (test-sql.sh computes every expected answer from this text). 4 ranks;
 * each rank's MPI calls, numbered from 0 as the logs number them:
 *
 *   0 Init, 1 Comm_rank, 2 Comm_size
 *   ring, 3 rounds i = 0..2 (tag 10 + i, i + 1 ints): rank 0 sends to 1
 *     then receives from 3 (3 Send, 4 Recv, 5 Send, ...); ranks 1-3
 *     receive from r - 1 then send to r + 1 mod 4 (3 Recv, 4 Send, ...):
 *     one causal chain 0 -> 1 -> 2 -> 3 -> 0 per round; events 3-8
 *   wildcards: ranks 1-3 send 2 messages of 2 ints, tag 20, to rank 0
 *     (9, 10); rank 0 receives 6 with MPI_ANY_SOURCE (9-14)
 *   collectives on MPI_COMM_WORLD: Barrier, Bcast of 5 ints from root 2,
 *     Allreduce of 1 int (rank 0: 15-17; others: 11-13)
 *   Comm_split by rank % 2 ({0, 2}, {1, 3}), Allreduce on it (rank 0:
 *     18, 19; others: 14, 15)
 *   pending: rank 3 Isend of 1 int, tag 30, to rank 1 (16), Barrier (17),
 *     Wait (18); rank 1 Barrier (16), Recv from 3 tag 30 (17); rank 2
 *     Irecv from 0 tag 40 (16), Barrier (17), Wait (18); rank 0 Barrier
 *     (20), Send of 1 int tag 40 to 2 (21)
 *   Finalize (rank 0: 22, rank 1: 18, ranks 2, 3: 19)
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, buf[8] = {0}, one = 1, sum = 0;
    MPI_Request rq;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < 3; i++) {
        if (rank == 0) {
            MPI_Send(buf, i + 1, MPI_INT, 1, 10 + i, MPI_COMM_WORLD);
            MPI_Recv(buf, i + 1, MPI_INT, 3, 10 + i, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, i + 1, MPI_INT, rank - 1, 10 + i, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(buf, i + 1, MPI_INT, (rank + 1) % 4, 10 + i,
                     MPI_COMM_WORLD);
        }
    }
    if (rank == 0)
        for (int i = 0; i < 6; i++)
            MPI_Recv(buf, 2, MPI_INT, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    else
        for (int i = 0; i < 2; i++)
            MPI_Send(buf, 2, MPI_INT, 0, 20, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(buf, 5, MPI_INT, 2, MPI_COMM_WORLD);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half);
    if (rank == 3)
        MPI_Isend(&one, 1, MPI_INT, 1, 30, MPI_COMM_WORLD, &rq);
    if (rank == 2)
        MPI_Irecv(buf, 1, MPI_INT, 0, 40, MPI_COMM_WORLD, &rq);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Recv(buf, 1, MPI_INT, 3, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
        MPI_Send(&one, 1, MPI_INT, 2, 40, MPI_COMM_WORLD);
    if (rank == 2 || rank == 3)
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
