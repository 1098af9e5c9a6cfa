/* res.leak on files, planted: every rank opens a file of its own (on
 * MPI_COMM_SELF) and closes it, then opens a second one and never closes
 * it before MPI_Finalize. The fixed twin closes both. 2 ranks.
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_File_open, 3 MPI_File_close,
 * 4 MPI_File_open, (twin: 5 MPI_File_close), then MPI_Finalize.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    char name[64];
    MPI_File a, b;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(name, sizeof name, "res-file-%d.tmp", rank);
    MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_WRONLY |
                  MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &a);
    MPI_File_close(&a);
    MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_WRONLY |
                  MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &b);
#ifdef FIXED
    MPI_File_close(&b);
#endif
    MPI_Finalize();
    return 0;
}
