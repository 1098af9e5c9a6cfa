/* corpus: class=order expect=ok np=3 */
/* Legal unusual order: ranks start a ring exchange with MPI_Isend/MPI_Irecv
 * on a duplicated communicator and free the communicator before MPI_Waitall;
 * pending operations complete normally (MPI 4.0 sec. 7.4.3). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, out, in = -1;
    MPI_Comm ring;
    MPI_Request req[2];
    MPI_Status st[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &ring);
    MPI_Comm_rank(ring, &rank);
    MPI_Comm_size(ring, &size);
    out = rank;
    MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, ring, &req[0]);
    MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, 0, ring, &req[1]);
    MPI_Comm_free(&ring);
    MPI_Waitall(2, req, st);
    MPI_Finalize();
    return 0;
}
