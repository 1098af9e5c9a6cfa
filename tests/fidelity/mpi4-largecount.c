/* MPI-4 large-count (_c) calls with ordinary sizes: point to point,
 * collectives, datatypes and their queries. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long v[8];
    for (int i = 0; i < 8; i++)
        v[i] = rank * 10 + i;
    MPI_Status st;
    MPI_Count c = 0;
    if (rank == 0) {
        MPI_Send_c(v, 8, MPI_LONG, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        long w[8] = {0};
        MPI_Recv_c(w, 8, MPI_LONG, 0, 1, MPI_COMM_WORLD, &st);
        MPI_Get_count_c(&st, MPI_LONG, &c);
        printf("rank 1: recv_c %ld..%ld count %lld\n", w[0], w[7],
               (long long)c);
    }
    MPI_Datatype t;
    MPI_Count lb, ext, tsz;
    MPI_Type_contiguous_c(3, MPI_LONG, &t);
    MPI_Type_commit(&t);
    MPI_Type_get_extent_c(t, &lb, &ext);
    MPI_Type_size_c(t, &tsz);
    printf("rank %d: contig_c lb %lld extent %lld size %lld\n", rank,
           (long long)lb, (long long)ext, (long long)tsz);
    long b[6] = {0};
    if (rank == 0)
        for (int i = 0; i < 6; i++)
            b[i] = 70 + i;
    MPI_Bcast_c(b, 2, t, 0, MPI_COMM_WORLD);
    printf("rank %d: bcast_c %ld %ld\n", rank, b[0], b[5]);
    long s[2] = {rank, 2 * rank}, r[2];
    MPI_Allreduce_c(s, r, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: allreduce_c %ld %ld\n", rank, r[0], r[1]);
    long all[16];
    MPI_Allgather_c(&v[0], 1, MPI_LONG, all, 1, MPI_LONG, MPI_COMM_WORLD);
    printf("rank %d: allgather_c %ld %ld\n", rank, all[0], all[size - 1]);
    MPI_Request q;
    long ib[2] = {0};
    MPI_Irecv_c(ib, 2, MPI_LONG, (rank + size - 1) % size, 4, MPI_COMM_WORLD,
                &q);
    MPI_Send_c(v, 2, MPI_LONG, (rank + 1) % size, 4, MPI_COMM_WORLD);
    MPI_Wait(&q, &st);
    MPI_Get_elements_c(&st, MPI_LONG, &c);
    printf("rank %d: irecv_c %ld %ld elements %lld\n", rank, ib[0], ib[1],
           (long long)c);
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
