/* MPI-4 MPI_Isendrecv, MPI_Isendrecv_replace and MPI_Comm_idup: a ring,
 * completed by Wait, Waitall and Test loops. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    int out[3] = {rank, rank * rank, -rank}, in[3] = {0, 0, 0};
    MPI_Request r[2];
    MPI_Status st, sts[2];
    MPI_Isendrecv(out, 3, MPI_INT, right, 7, in, 3, MPI_INT, left, 7,
                  MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], &st);
    int cnt;
    MPI_Get_count(&st, MPI_INT, &cnt);
    printf("rank %d: isendrecv got %d %d %d from %d tag %d count %d\n", rank,
           in[0], in[1], in[2], st.MPI_SOURCE, st.MPI_TAG, cnt);

    double buf[2] = {rank + 0.5, rank * 2.0};
    MPI_Isendrecv_replace(buf, 2, MPI_DOUBLE, right, 8, MPI_ANY_SOURCE,
                          MPI_ANY_TAG, MPI_COMM_WORLD, &r[0]);
    int done = 0;
    while (!done)
        MPI_Test(&r[0], &done, &st);
    printf("rank %d: replace got %.1f %.1f from %d\n", rank, buf[0], buf[1],
           st.MPI_SOURCE);

    MPI_Comm dup, dup2;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm_idup(MPI_COMM_WORLD, &dup, &r[0]);
    MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &dup2, &r[1]);
    MPI_Waitall(2, r, sts);
    int dr, ds, res;
    MPI_Comm_rank(dup, &dr);
    MPI_Comm_size(dup2, &ds);
    MPI_Comm_compare(dup, MPI_COMM_WORLD, &res);
    printf("rank %d: idup rank %d size %d congruent %d\n", rank, dr, ds,
           res == MPI_CONGRUENT);
    int x = rank + 100, y = 0;
    MPI_Isendrecv(&x, 1, MPI_INT, left, 9, &y, 1, MPI_INT, right, 9, dup2,
                  &r[0]);
    MPI_Isendrecv_replace(&x, 1, MPI_INT, right, 10, left, 10, dup, &r[1]);
    MPI_Waitall(2, r, sts);
    printf("rank %d: on dups y %d x %d\n", rank, y, x);
    MPI_Info_free(&info);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&dup2);
    MPI_Finalize();
    return 0;
}
