/* corpus: class=type expect=ok np=2 */
/* Twin of struct-array-extent-bad: rank 0 sends the x and y members of an
 * array of 3 struct {double x, y; int tag;} to rank 1; the datatype
 * covering x and y is resized to extent sizeof(struct pt) with
 * MPI_Type_create_resized, so element i starts at pts[i] (MPI 4.0 sec.
 * 5.1.7). */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

struct pt {
    double x, y;
    int tag;
};

int main(int argc, char **argv)
{
    int rank, i, bl = 2;
    MPI_Aint disp = offsetof(struct pt, x);
    MPI_Datatype types = MPI_DOUBLE, tmp, t;
    struct pt pts[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(1, &bl, &disp, &types, &tmp);
    MPI_Type_create_resized(tmp, 0, sizeof(struct pt), &t);
    MPI_Type_free(&tmp);
    MPI_Type_commit(&t);
    for (i = 0; i < 3; i++) {
        pts[i].x = rank == 0 ? i : -1;
        pts[i].y = rank == 0 ? 2 * i : -1;
        pts[i].tag = i;
    }
    if (rank == 0) {
        MPI_Send(pts, 3, t, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(pts, 3, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < 3; i++)
            if (pts[i].x != i || pts[i].y != 2 * i)
                printf("rank 1: pts[%d] = (%g, %g)\n", i, pts[i].x, pts[i].y);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
