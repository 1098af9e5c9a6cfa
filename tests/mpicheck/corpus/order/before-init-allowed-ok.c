/* corpus: class=order expect=ok np=2 */
/* Legal: before MPI_Init the program calls only routines the standard allows
 * there (MPI_Initialized, MPI_Finalized, MPI_Get_version,
 * MPI_Get_library_version; sec. 11.4.1), and MPI_Finalized after MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int flag, fin, major, minor, len, rank;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];

    MPI_Initialized(&flag);
    MPI_Finalized(&fin);
    MPI_Get_version(&major, &minor);
    MPI_Get_library_version(lib, &len);
    if (!flag)
        MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    MPI_Finalized(&fin);
    if (!fin)
        printf("rank %d: MPI_Finalized returned false\n", rank);
    return 0;
}
