/* corpus: class=type expect=ok np=2 */
/* Twin of struct-blocklen-bad: rank 0 sends a struct {int n; double v[3];}
 * to rank 1 with a struct datatype {MPI_INT x1, MPI_DOUBLE x3} (MPI 4.0
 * sec. 5.1.2). */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

struct vec {
    int n;
    double v[3];
};

int main(int argc, char **argv)
{
    int rank, bl[2] = {1, 3};
    MPI_Aint disp[2] = {offsetof(struct vec, n), offsetof(struct vec, v)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
    struct vec s = {0, {0.0, 0.0, 0.0}};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        s.n = 3;
        s.v[0] = 1.0;
        s.v[1] = 2.0;
        s.v[2] = 3.0;
        MPI_Send(&s, 1, t, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&s, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (s.n != 3 || s.v[0] != 1.0 || s.v[1] != 2.0 || s.v[2] != 3.0)
            printf("rank 1: n = %d, v = {%g, %g, %g}\n", s.n, s.v[0], s.v[1],
                   s.v[2]);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
