/* corpus: class=type expect=ok np=2 */
/* Twin of struct-padding-disp-bad: rank 0 sends a struct {char c; double
 * d;} to rank 1 with a struct datatype whose displacements come from
 * offsetof, so the padding before d is skipped (MPI 4.0 sec. 5.1.2,
 * 5.1.6). */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

struct item {
    char c;
    double d;
};

int main(int argc, char **argv)
{
    int rank, bl[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(struct item, c), offsetof(struct item, d)};
    MPI_Datatype types[2] = {MPI_CHAR, MPI_DOUBLE}, t;
    struct item it = {'?', 0.0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        it.c = 'x';
        it.d = 3.5;
        MPI_Send(&it, 1, t, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&it, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (it.c != 'x' || it.d != 3.5)
            printf("rank 1: got c = '%c', d = %g\n", it.c, it.d);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
