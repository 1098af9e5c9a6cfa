/* corpus: class=type expect=bad np=2 */
/* Rank 0 sends a struct {long id; double x;} to rank 1 with MPI_Isend;
 * the struct datatype describes the member id as MPI_INT.  Breaks MPI 4.0
 * sec. 5.1.11 and 3.3.1: the entry over a long member must be MPI_LONG;
 * only the low 4 bytes of id are transferred.
 * MPICH 4.0.2 does not detect it: completes, rank 1 prints a wrong id. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

struct key {
    long id;
    double x;
};

int main(int argc, char **argv)
{
    int rank, bl[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(struct key, id), offsetof(struct key, x)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
    struct key k = {0, 0.0};
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        k.id = 5000000000L;
        k.x = -0.75;
        MPI_Isend(&k, 1, t, 1, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&k, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (k.id != 5000000000L || k.x != -0.75)
            printf("rank 1: id = %ld, x = %g\n", k.id, k.x);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
