/* corpus: class=type expect=bad np=2 */
/* Rank 0 sends a struct {int n; double d[2];} to rank 1 with a struct
 * datatype that describes the member d as 2 MPI_FLOAT.  Breaks MPI 4.0
 * sec. 5.1.11 and 3.3.1: each entry's type must match the C type of the
 * member it lies over (double <-> MPI_DOUBLE); only 8 of d's 16 bytes are
 * transferred.
 * MPICH 4.0.2 does not detect it: completes, rank 1 prints that d[1] was
 * not received. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

struct sample {
    int n;
    double d[2];
};

int main(int argc, char **argv)
{
    int rank, bl[2] = {1, 2};
    MPI_Aint disp[2] = {offsetof(struct sample, n), offsetof(struct sample, d)};
    MPI_Datatype types[2] = {MPI_INT, MPI_FLOAT}, t;
    struct sample s = {0, {0.0, 0.0}};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        s.n = 2;
        s.d[0] = 1.25;
        s.d[1] = 2.5;
        MPI_Send(&s, 1, t, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&s, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (s.n != 2 || s.d[0] != 1.25 || s.d[1] != 2.5)
            printf("rank 1: n = %d, d = {%g, %g}\n", s.n, s.d[0], s.d[1]);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
