/* corpus: class=rma expect=ok np=4 */
/* Under concurrent shared locks on rank 0, ranks 1 and 2 MPI_Accumulate
 * with MPI_SUM and rank 3 MPI_Fetch_and_op with MPI_SUM and
 * MPI_Get_accumulate with MPI_NO_OP, all on the same long: allowed with the
 * default accumulate_ops=same_op_no_op (MPI 4.0 sec. 12.2.1, 12.7.1). */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank;
    long *base, one = 1, old, cur;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    if (rank > 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        if (rank < 3) {
            MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
        } else {
            MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
            MPI_Get_accumulate(NULL, 0, MPI_LONG, &cur, 1, MPI_LONG, 0, 0, 1,
                               MPI_LONG, MPI_NO_OP, win);
        }
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
