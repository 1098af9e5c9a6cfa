/* corpus: class=arg expect=ok np=3 */
/* Each rank gathers a pair of ints to rank 0 with a committed contiguous type
 * that is freed after the MPI_Gather (twin of freed-type-gather-bad.c). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, pair[2], all[2 * 3];
    MPI_Datatype t, keep;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_commit(&t);
    keep = t;
    pair[0] = rank;
    pair[1] = -rank;
    MPI_Gather(pair, 1, keep, all, 1, keep, 0, MPI_COMM_WORLD);
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
