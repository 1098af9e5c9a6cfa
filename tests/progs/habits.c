/*
 * habits - a small MPI program for the console's GDB habits
 * (tests/console/test-console-gdb.sh):
 *  - its globals and a local are named like the replay stub's internal
 *    statics (types, comms, reqs, results): the console must answer with
 *    the program's, or say the program has none;
 *  - square() returns a known value (finish shows it);
 *  - counter changes 1 -> 2 -> 3 on lines of their own (a watchpoint's old
 *    and new values);
 *  - an MPI call on a line of its own, between two plain lines (step goes
 *    over it, as over any library call).
 *
 *   mpiexec -n 2 ./habits      (prints "rank R: sum S types 7")
 */
#include <mpi.h>
#include <stdio.h>

int types = 7;                /* the stub has a static 'types' */
double comms[2] = {1.5, 2.5}; /* and 'comms' */
int counter = 1;

static int square(int reqs) /* and 'reqs' */
{
    int results = reqs * reqs; /* and 'results' */
    return results;            /* mark:return */
}

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int sq = square(rank + 6); /* mark:square */
    counter = 2;
    counter = 3;
    MPI_Allreduce(&sq, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* mark:mpi */
    sum += types;              /* mark:after */
    printf("rank %d: sum %d types %d\n", rank, sum - types, types);
    MPI_Finalize();
    return 0;
}
