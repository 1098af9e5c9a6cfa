/* corpus: class=type expect=bad np=2 */
/* Rank 0 sends the id and flag members of a struct {int id; double val;
 * int flag;} to rank 1 with a struct datatype of two MPI_INT, but the
 * flag's displacement is taken from offsetof(struct rec, val).  Breaks MPI
 * 4.0 sec. 5.1.11 and 3.3.1: the entry (MPI_INT, 8) lies over the double
 * member val, not over an int.
 * MPICH 4.0.2 does not detect it: completes, rank 1 prints flag = 0 (the
 * flag value went into the low half of val instead). */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

struct rec {
    int id;
    double val;
    int flag;
};

int main(int argc, char **argv)
{
    int rank, bl[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(struct rec, id), offsetof(struct rec, val)};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT}, t;
    struct rec r = {0, 1.0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        r.id = 42;
        r.flag = 7;
        MPI_Send(&r, 1, t, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&r, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (r.id != 42 || r.val != 1.0 || r.flag != 7)
            printf("rank 1: id = %d, val = %g, flag = %d\n", r.id, r.val, r.flag);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
