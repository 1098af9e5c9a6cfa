/*
 * A stand-in for Open MPI's libmpi.so.40 (not installed here): what
 * matters to drdb is its soname and its ABI, where MPI_Comm is a pointer
 * to a communicator (an MPICH handle, an int, is no valid one).
 */
#include <stddef.h>

struct ompi_communicator_t {
    int rank, size;
};
typedef struct ompi_communicator_t *MPI_Comm;

struct ompi_communicator_t ompi_mpi_comm_world = {0, 1};

int MPI_Init(int *argc, char ***argv);
int PMPI_Init(int *argc, char ***argv);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int PMPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Finalize(void);
int PMPI_Finalize(void);

int PMPI_Init(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int MPI_Init(int *argc, char ***argv)
{
    return PMPI_Init(argc, argv);
}

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    *rank = comm->rank;
    return 0;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    return PMPI_Comm_rank(comm, rank);
}

int PMPI_Finalize(void)
{
    return 0;
}

int MPI_Finalize(void)
{
    return PMPI_Finalize();
}
