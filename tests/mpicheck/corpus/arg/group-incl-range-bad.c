/* corpus: class=arg expect=bad np=3 */
/* All ranks build a group of world ranks {0, size} with MPI_Group_incl; rank
 * "size" does not exist.  Breaks MPI 4.0 sec. 7.3.2: each ranks[i] must be a
 * valid rank in the group (and the ranks distinct).
 * MPICH 4.0.2 aborts: Invalid rank. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int size, ranks[2];
    MPI_Group world, sub;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    ranks[0] = 0;
    ranks[1] = size;
    MPI_Group_incl(world, 2, ranks, &sub);
    MPI_Group_free(&sub);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
