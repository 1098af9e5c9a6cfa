/* p2p.type-mismatch planted: rank 0 sends three messages to rank 1 whose
 * receives name other type signatures (MPI 4.0 section 3.3.1). The twin,
 * p2p-type-mismatch-ok.c, receives each with a matching signature.
 *
 * Events (each MPI call is one; tests/mpicheck/test-check-p2p.sh):
 *   both ranks   0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler
 *   rank 0       3 MPI_Type_contiguous, 4 MPI_Type_commit,
 *                5 MPI_Type_create_struct, 6 MPI_Type_commit,
 *                7 MPI_Send (1 x contiguous(4, MPI_INT), tag 1),
 *                8 MPI_Send (1 x struct {int, double}, tag 2),
 *                9 MPI_Send (3 MPI_INT, tag 3)
 *   rank 1       3 MPI_Type_contiguous(4, MPI_INT), 4 MPI_Type_free,
 *                5 MPI_Type_contiguous(4, MPI_FLOAT) (MPICH hands the
 *                freed handle out again: only the binding by time tells
 *                the two apart), 6 MPI_Type_commit,
 *                7 MPI_Type_create_struct {double, int}, 8 MPI_Type_commit,
 *                9 MPI_Recv (tag 1: 4 MPI_FLOAT for 4 MPI_INT),
 *                10 MPI_Recv (tag 2: {double, int} for {int, double}),
 *                11 MPI_Recv (tag 3: 2 MPI_DOUBLE for 3 MPI_INT, 12 bytes:
 *                the message ends mid-element)
 */
#include <mpi.h>
#include <stddef.h>

struct id { int i; double d; };
struct di { double d; int i; };

int main(int argc, char **argv)
{
    int rank, ints[4] = {1, 2, 3, 4}, blen[2] = {1, 1};
    float f[4];
    double d[2];
    MPI_Datatype t4, t, pair;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        struct id p = {5, 6.5};
        MPI_Aint disp[2] = {offsetof(struct id, i), offsetof(struct id, d)};
        MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
        MPI_Type_contiguous(4, MPI_INT, &t4);
        MPI_Type_commit(&t4);
        MPI_Type_create_struct(2, blen, disp, types, &pair);
        MPI_Type_commit(&pair);
        MPI_Send(ints, 1, t4, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&p, 1, pair, 1, 2, MPI_COMM_WORLD);
        MPI_Send(ints, 3, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else if (rank == 1) {
        struct di p;
        MPI_Aint disp[2] = {offsetof(struct di, d), offsetof(struct di, i)};
        MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
        MPI_Type_contiguous(4, MPI_INT, &t);
        MPI_Type_free(&t);
        MPI_Type_contiguous(4, MPI_FLOAT, &t);
        MPI_Type_commit(&t);
        MPI_Type_create_struct(2, blen, disp, types, &pair);
        MPI_Type_commit(&pair);
        MPI_Recv(f, 1, t, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&p, 1, pair, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(d, 2, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
