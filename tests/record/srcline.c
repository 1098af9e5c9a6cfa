/*
 * Calls at known lines, for test-record-srcline.sh: each call's line has a
 * marker comment "site:NAME" the test finds with grep (not from drdb),
 * and each rank prints the addresses of its nonblocking calls' buffers.
 * 2 ranks.
 */
#include <mpi.h>
#include <stdio.h>

/* Not inlined: its call site is in this function, not main. */
__attribute__((noinline)) static void srcline_barrier(void)
{
    MPI_Barrier(MPI_COMM_WORLD); /* site:barrier */
}

int main(int argc, char **argv)
{
    int rank;
    double a[8] = {0}, b[8];
    MPI_Request rq[2];
    MPI_Status st[2];
    MPI_Init(&argc, &argv); /* site:init */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank); /* site:comm_rank */
    int peer = 1 - rank;
    printf("rank %d buffer irecv %p\n", rank, (void *)b);
    printf("rank %d buffer isend %p\n", rank, (void *)(a + 2));
    fflush(stdout);
    MPI_Irecv(b, 8, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &rq[0]); /* site:irecv */
    MPI_Isend(a + 2, 6, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &rq[1]); /* site:isend */
    MPI_Waitall(2, rq, st); /* site:waitall */
    srcline_barrier();
    MPI_Finalize(); /* site:finalize */
    return 0;
}
