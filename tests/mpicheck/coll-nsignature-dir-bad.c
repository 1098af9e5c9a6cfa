/* coll.signature on a neighbourhood collective where the direction rule
 * matters (MPI 4.0 section 8.6, and Annex B.1.1's erratum to 3.1): 4
 * ranks on a 2 x 2 Cartesian grid, periodic in dimension 0 (of size 2:
 * both neighbours in it are one rank, rank ^ 2), not in dimension 1. A
 * block a rank sends towards the source of a dimension (block 2k) arrives
 * in the receiver's block of its destination (2k + 1), and the reverse:
 *   MPI_Neighbor_alltoallw: every rank sends an MPI_INT in block 0 and an
 *   MPI_FLOAT in block 1, and receives an MPI_INT in block 0 and an
 *   MPI_FLOAT in block 1: the same bytes, other types (the MPI_INT sent
 *   in block 0 arrives in the MPI_FLOAT block 1), so each rank's pieces
 *   to its neighbour in dimension 0 disagree (a pairing of block i with
 *   block i would see nothing wrong).
 * The fixed twin (FIXED) receives an MPI_FLOAT in block 0 and an MPI_INT
 * in block 1: right (a pairing of block i with block i would see other
 * types). Blocks of equal sizes: MPICH 4.0.2 pairs block i with block i
 * here (against the erratum; pmodels/mpich#7945), so the programs check
 * no data, and other sizes would truncate.
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler,
 * 3 MPI_Cart_create, 4 MPI_Neighbor_alltoallw.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, dims[2] = {2, 2}, periods[2] = {1, 0};
    MPI_Comm grid;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);

    struct {
        int i;
        float f;
        int pad[2];
    } out = {rank, rank + 0.5f, {0, 0}}, in = {-1, -1, {-1, -1}};
    int one[4] = {1, 1, 1, 1};
    MPI_Aint sd[4] = {0, 4, 8, 12}, rd[4] = {0, 4, 8, 12};
    MPI_Datatype st[4] = {MPI_INT, MPI_FLOAT, MPI_INT, MPI_INT};
#ifdef FIXED
    MPI_Datatype rt[4] = {MPI_FLOAT, MPI_INT, MPI_INT, MPI_INT};
    rd[0] = 4; /* the float */
    rd[1] = 0; /* the int */
#else
    MPI_Datatype rt[4] = {MPI_INT, MPI_FLOAT, MPI_INT, MPI_INT};
#endif
    MPI_Neighbor_alltoallw(&out, one, sd, st, &in, one, rd, rt, grid);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return 0;
}
