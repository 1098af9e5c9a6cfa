/* An MPI program built against the fake Open MPI (fake-ompi.c): it says
 * when it runs, so that a test can tell drdb did not start it. */
#include <stdio.h>

struct ompi_communicator_t;
extern struct ompi_communicator_t ompi_mpi_comm_world;
int MPI_Init(int *argc, char ***argv);
int MPI_Comm_rank(struct ompi_communicator_t *comm, int *rank);
int MPI_Finalize(void);
int fake_lib_start(int *argc, char ***argv);

int main(int argc, char **argv)
{
    int rank = -1;
#ifdef VIA_LIB
    rank = fake_lib_start(&argc, &argv);
#else
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(&ompi_mpi_comm_world, &rank);
#endif
    printf("ompi-app ran as rank %d\n", rank);
    return 0;
}
