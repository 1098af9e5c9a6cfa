/* corpus: class=coll expect=ok np=3 */
/* MPI_Ibcast on two duplicates of MPI_COMM_WORLD, started in a different
 * order on rank 0 than on the other ranks, then one MPI_Waitall. Legal: the
 * ordering rule is per communicator, and on each one every rank makes the
 * same calls (MPI 4.0 sections 6.12 and 6.14). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, a = 0, b = 0;
    MPI_Comm ca, cb;
    MPI_Request req[2];
    MPI_Status st[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &ca);
    MPI_Comm_dup(MPI_COMM_WORLD, &cb);
    if (rank == 0) {
        a = 1;
        b = 2;
        MPI_Ibcast(&b, 1, MPI_INT, 0, cb, &req[1]);
        MPI_Ibcast(&a, 1, MPI_INT, 0, ca, &req[0]);
    } else {
        MPI_Ibcast(&a, 1, MPI_INT, 0, ca, &req[0]);
        MPI_Ibcast(&b, 1, MPI_INT, 0, cb, &req[1]);
    }
    MPI_Waitall(2, req, st);
    printf("rank %d: a %d b %d\n", rank, a, b);
    MPI_Comm_free(&cb);
    MPI_Comm_free(&ca);
    MPI_Finalize();
    return 0;
}
