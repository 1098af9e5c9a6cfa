/* corpus: class=arg expect=ok np=3 */
/* All ranks build the group of world ranks {0, size-1} with MPI_Group_incl
 * (correct twin of group-incl-range-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int size, ranks[2];
    MPI_Group world, sub;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    ranks[0] = 0;
    ranks[1] = size - 1;
    MPI_Group_incl(world, 2, ranks, &sub);
    MPI_Group_free(&sub);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
