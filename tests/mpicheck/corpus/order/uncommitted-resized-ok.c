/* corpus: class=order expect=ok np=3 */
/* Root 2 scatters the x field of an array of {int x, y} with a resized int
 * type that is committed before use (twin of uncommitted-resized-bad.c). */
#include <mpi.h>

struct pt { int x, y; };

int main(int argc, char **argv)
{
    int rank, i, x = -1;
    struct pt pts[3];
    MPI_Datatype one, xs;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 3; i++) {
        pts[i].x = i;
        pts[i].y = -i;
    }
    MPI_Type_contiguous(1, MPI_INT, &one);
    MPI_Type_commit(&one);
    MPI_Type_create_resized(one, 0, sizeof(struct pt), &xs);
    MPI_Type_commit(&xs);
    MPI_Scatter(pts, 1, xs, &x, 1, MPI_INT, 2, MPI_COMM_WORLD);
    MPI_Type_free(&xs);
    MPI_Type_free(&one);
    MPI_Finalize();
    return 0;
}
