/* corpus: class=arg expect=ok np=3 */
/* Ring shift with MPI_Sendrecv: send tag 4, receive tag MPI_ANY_TAG (legal in
 * receives); the status reports the actual tag (twin of any-tag-send-bad.c). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, out, in;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    out = rank;
    MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 4,
                 &in, 1, MPI_INT, (rank + size - 1) % size, MPI_ANY_TAG,
                 MPI_COMM_WORLD, &st);
    if (st.MPI_TAG != 4 || in != (rank + size - 1) % size)
        printf("rank %d: unexpected tag %d / value %d\n", rank, st.MPI_TAG, in);
    MPI_Finalize();
    return 0;
}
