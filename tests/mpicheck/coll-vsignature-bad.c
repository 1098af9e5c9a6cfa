/* coll.signature on v-collectives planted, 2 ranks, each call completing
 * (every receiver expects more than it is sent: no truncation):
 *   MPI_Gatherv (root 0): the root's recvcounts {2, 3} expect 3 MPI_INT
 *   from rank 1, which sends 2 (12 bytes against 8);
 *   MPI_Alltoallv: rank 0 sends 2 MPI_INT to rank 1 (sendcounts {1, 2}),
 *   rank 1 expects 3 from rank 0 (recvcounts {3, 1}); the pairs 0->0,
 *   1->0 and 1->1 agree.
 * The fixed twin (FIXED) sends and expects the same counts, and also
 * calls MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallw, MPI_Reduce_scatter
 * and MPI_Alltoallv in place, all agreeing.
 *
 * Events: 0 MPI_Init, 1 MPI_Comm_rank, 2 MPI_Comm_set_errhandler,
 * 3 MPI_Gatherv, 4 MPI_Alltoallv.
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, buf[8] = {1, 2, 3, 4, 5, 6, 7, 8}, all[16] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
#ifdef FIXED
    int gcounts[2] = {2, 2};
    int scounts[2][2] = {{1, 2}, {2, 1}}, rcounts[2][2] = {{1, 2}, {2, 1}};
#else
    int gcounts[2] = {2, 3};
    int scounts[2][2] = {{1, 2}, {2, 1}}, rcounts[2][2] = {{1, 2}, {3, 1}};
#endif
    int displs[2] = {0, 8};
    MPI_Gatherv(buf, 2, MPI_INT, all, gcounts, displs, MPI_INT, 0,
                MPI_COMM_WORLD);
    MPI_Alltoallv(buf, scounts[rank], displs, MPI_INT, all, rcounts[rank],
                  displs, MPI_INT, MPI_COMM_WORLD);
#ifdef FIXED
    int two[2] = {2, 2};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Scatterv(buf, two, displs, MPI_INT, all, 2, MPI_INT, 0,
                 MPI_COMM_WORLD);
    MPI_Allgatherv(buf, 2, MPI_INT, all, two, displs, MPI_INT,
                   MPI_COMM_WORLD);
    int bdispls[2] = {0, 32};
    MPI_Alltoallw(buf, two, bdispls, types, all, two, bdispls, types,
                  MPI_COMM_WORLD);
    MPI_Reduce_scatter(buf, all, two, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, all, two,
                  displs, MPI_INT, MPI_COMM_WORLD);
#endif
    MPI_Finalize();
    return 0;
}
