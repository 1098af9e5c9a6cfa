/* res.comm, res.datatype, res.group, planted: every rank splits
 * MPI_COMM_WORLD (three times, in a loop: one finding for the call site,
 * not three), builds a vector type and takes MPI_COMM_WORLD's group, and
 * frees none of them before MPI_Finalize. The fixed twin frees them all.
 * 2 ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm half[3];
    MPI_Datatype vec;
    MPI_Group g;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++)
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half[i]);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Comm_group(MPI_COMM_WORLD, &g);
#ifdef FIXED
    for (int i = 0; i < 3; i++)
        MPI_Comm_free(&half[i]);
    MPI_Type_free(&vec);
    MPI_Group_free(&g);
#endif
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
