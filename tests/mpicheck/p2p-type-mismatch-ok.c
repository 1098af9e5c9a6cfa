/* The twin of p2p-type-mismatch-bad.c with every signature matching: 4
 * MPI_INT received into a longer receive (8 MPI_INT: a prefix matches), a
 * freed handle reused for the matching type (only the binding by time
 * tells it from the freed one), the struct received as the same struct,
 * MPI_PACKED against 2 MPI_DOUBLE (packed data matches any type), MPI_BYTE
 * on both sides. p2p.* find nothing.
 */
#include <mpi.h>
#include <stddef.h>

struct id { int i; double d; };

int main(int argc, char **argv)
{
    int rank, ints[8] = {1, 2, 3, 4}, blen[2] = {1, 1}, pos = 0;
    double d[2] = {1.5, 2.5};
    char packed[64], bytes[16] = "fifteen bytes..";
    struct id p = {5, 6.5};
    MPI_Aint disp[2] = {offsetof(struct id, i), offsetof(struct id, d)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Datatype t4, t, pair;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_create_struct(2, blen, disp, types, &pair);
    MPI_Type_commit(&pair);
    if (rank == 0) {
        MPI_Type_contiguous(4, MPI_INT, &t4);
        MPI_Type_commit(&t4);
        MPI_Send(ints, 1, t4, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&p, 1, pair, 1, 2, MPI_COMM_WORLD);
        MPI_Send(ints, 3, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Pack(d, 2, MPI_DOUBLE, packed, sizeof packed, &pos,
                 MPI_COMM_WORLD);
        MPI_Send(packed, pos, MPI_PACKED, 1, 4, MPI_COMM_WORLD);
        MPI_Send(bytes, 16, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Type_contiguous(2, MPI_DOUBLE, &t);
        MPI_Type_free(&t);
        MPI_Type_contiguous(8, MPI_INT, &t);
        MPI_Type_commit(&t);
        MPI_Recv(ints, 1, t, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&p, 1, pair, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(ints, 3, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(d, 2, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(bytes, 16, MPI_BYTE, 0, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
