/* corpus: class=arg expect=ok np=4 */
/* Legal unusual usage: MPI_Comm_create with the group of even world ranks;
 * odd ranks get MPI_COMM_NULL (sec. 7.4.2).  An empty group from
 * MPI_Group_incl with n = 0 equals MPI_GROUP_EMPTY and is freed. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, i, n = 0, evens[4], sum;
    MPI_Group world, even, none;
    MPI_Comm ecomm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (i = 0; i < size; i += 2)
        evens[n++] = i;
    MPI_Group_incl(world, n, evens, &even);
    MPI_Group_incl(world, 0, evens, &none);
    MPI_Comm_create(MPI_COMM_WORLD, even, &ecomm);
    if (ecomm != MPI_COMM_NULL) {
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ecomm);
        MPI_Comm_free(&ecomm);
    }
    if (none != MPI_GROUP_EMPTY)
        MPI_Group_free(&none);
    MPI_Group_free(&even);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
