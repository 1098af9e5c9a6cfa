/* A library of the program's own built over the fake Open MPI (as Global
 * Arrays over Open MPI): the program needs libmpi.so.40 only through it. */
struct ompi_communicator_t;
int MPI_Init(int *argc, char ***argv);
int MPI_Comm_rank(struct ompi_communicator_t *comm, int *rank);
extern struct ompi_communicator_t ompi_mpi_comm_world;
int fake_lib_start(int *argc, char ***argv);

int fake_lib_start(int *argc, char ***argv)
{
    int rank = -1;
    MPI_Init(argc, argv);
    MPI_Comm_rank(&ompi_mpi_comm_world, &rank);
    return rank;
}
