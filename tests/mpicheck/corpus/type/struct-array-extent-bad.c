/* corpus: class=type expect=bad np=2 */
/* Rank 0 sends the x and y members of an array of 3 struct {double x, y;
 * int tag;} to rank 1.  The datatype covers only x and y, so its extent is
 * 16 while sizeof(struct pt) is 24, and it is used with count 3 without
 * MPI_Type_create_resized.  Breaks MPI 4.0 sec. 5.1.7 and 3.3.1: element i
 * of the type starts at 16*i, so (double,16) lies over pts[0].tag and its
 * padding instead of pts[1].x, and pts[2] is never reached.
 * MPICH 4.0.2 does not detect it: completes, rank 1 prints that pts[2] was
 * not received (the 3 elements of the type cover only 48 of 72 bytes). */
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
    t = tmp;
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
