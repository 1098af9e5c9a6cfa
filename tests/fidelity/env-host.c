/*
 * Nondeterminism outside MPI (issue 16, class 8): the host name, as
 * programs print it and gather it to group ranks by node: gethostname and
 * uname's nodename, printed, and rank 0 prints every rank's name it
 * gathered. Replayed on another machine, the names must be the recorded
 * ones.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size;
    char name[256], all[16][64];
    struct utsname u;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    memset(name, 0, sizeof name);
    int rc = gethostname(name, sizeof name);
    printf("rank %d: gethostname %d '%s'\n", rank, rc, name);
    rc = uname(&u);
    printf("rank %d: uname %d nodename '%s' sysname '%s' release '%s'\n",
           rank, rc, u.nodename, u.sysname, u.release);
    char tiny[3];
    rc = gethostname(tiny, sizeof tiny);
    printf("rank %d: gethostname into 3 bytes: %d '%.3s'\n", rank, rc,
           rc == 0 || tiny[2] == '\0' ? tiny : "");
    name[63] = '\0';
    MPI_Gather(name, 64, MPI_CHAR, all, 64, MPI_CHAR, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < size && r < 16; r++)
        printf("rank 0: rank %d runs on '%s'\n", r, all[r]);
    MPI_Finalize();
    return 0;
}
