/* MPI-4 large-count (_c) calls with ordinary sizes: point to point
 * (MPI_Isendrecv_c and _replace_c too), collectives, v-collectives,
 * datatype constructors, queries, packing, matched probes, RMA. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void show(const char *what, MPI_Datatype t, int rank)
{
    MPI_Count lb, ext, tlb, text, sz;
    MPI_Type_get_extent_c(t, &lb, &ext);
    MPI_Type_get_true_extent_c(t, &tlb, &text);
    MPI_Type_size_c(t, &sz);
    printf("rank %d: %s lb %lld extent %lld true %lld/%lld size %lld\n", rank,
           what, (long long)lb, (long long)ext, (long long)tlb,
           (long long)text, (long long)sz);
}

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
    /* MPICH 4.0.2 does not set the status of an Isendrecv request: the
     * recorder must not size the data by it. */
    long sr[3] = {rank, -rank, 5}, rr[3] = {0, 0, 0};
    MPI_Isendrecv_c(sr, 3, MPI_LONG, (rank + 1) % size, 6, rr, 3, MPI_LONG,
                    (rank + size - 1) % size, 6, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Isendrecv_replace_c(sr, 3, MPI_LONG, (rank + 1) % size, 6,
                            (rank + size - 1) % size, 6, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    printf("rank %d: isendrecv_c %ld %ld %ld replace_c %ld %ld %ld\n", rank,
           rr[0], rr[1], rr[2], sr[0], sr[1], sr[2]);
    MPI_Type_free(&t);
    MPI_Datatype vec, hvec, idx, stt_, res, sub;
    MPI_Type_vector_c(3, 2, 4, MPI_INT, &vec);
    MPI_Type_create_hvector_c(2, 1, 24, MPI_DOUBLE, &hvec);
    MPI_Count bl[2] = {1, 2}, di[2] = {0, 5};
    MPI_Type_indexed_c(2, bl, di, MPI_INT, &idx);
    MPI_Count sbl[2] = {1, 1};
    MPI_Aint sdi[2] = {0, 8};
    MPI_Datatype sty[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct_c(2, sbl, sdi, sty, &stt_);
    MPI_Type_create_resized_c(MPI_INT, 0, 16, &res);
    MPI_Count sizes[2] = {4, 4}, subs[2] = {2, 2}, starts[2] = {1, 1};
    MPI_Type_create_subarray_c(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT,
                               &sub);
    MPI_Datatype types6[] = {vec, hvec, idx, stt_, res, sub};
    const char *names[] = {"vector", "hvector", "indexed", "struct",
                           "resized", "subarray"};
    for (int i = 0; i < 6; i++) {
        MPI_Type_commit(&types6[i]);
        show(names[i], types6[i], rank);
    }
    MPI_Count ni, na, nd, nc;
    int comb;
    MPI_Type_get_envelope_c(idx, &ni, &na, &nc, &nd, &comb);
    printf("rank %d: envelope %lld %lld %lld %lld comb %d\n", rank,
           (long long)ni, (long long)na, (long long)nc, (long long)nd, comb);
    int ints[4];
    MPI_Aint aints[4];
    MPI_Count cnts[8];
    MPI_Datatype types[4];
    MPI_Type_get_contents_c(idx, (MPI_Count)4, (MPI_Count)4, (MPI_Count)8,
                            (MPI_Count)4, ints, aints, cnts, types);
    printf("rank %d: contents counts %lld %lld %lld %lld %lld\n", rank,
           (long long)cnts[0], (long long)cnts[1], (long long)cnts[2],
           (long long)cnts[3], (long long)cnts[4]);

    /* Packing with large counts. */
    int m[16], back[16];
    for (int i = 0; i < 16; i++)
        m[i] = rank * 100 + i;
    char packed[256];
    MPI_Count psz, pos = 0, upos = 0;
    MPI_Pack_size_c(1, vec, MPI_COMM_WORLD, &psz);
    MPI_Pack_c(m, 1, vec, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    memset(back, 0, sizeof back);
    MPI_Unpack_c(packed, pos, &upos, back, 1, vec, MPI_COMM_WORLD);
    printf("rank %d: pack_size %lld packed %lld back %d %d %d\n", rank,
           (long long)psz, (long long)pos, back[0], back[5], back[9]);

    /* A v-collective with MPI_Count counts and MPI_Aint displacements. */
    MPI_Count rc[8], rd[8];
    MPI_Aint ad[8];
    for (int i = 0; i < size; i++) {
        rc[i] = i + 1;
        ad[i] = 2 * i * i;
        rd[i] = ad[i];
    }
    (void)rd;
    int src[8], dst[64];
    for (int i = 0; i < 8; i++)
        src[i] = rank * 10 + i;
    memset(dst, 0, sizeof dst);
    MPI_Allgatherv_c(src, rank + 1, MPI_INT, dst, rc, ad, MPI_INT,
                     MPI_COMM_WORLD);
    printf("rank %d: allgatherv_c", rank);
    for (int i = 0; i < 2 * size * size; i++)
        printf(" %d", dst[i]);
    printf("\n");
    MPI_Count rsc[8];
    for (int i = 0; i < size; i++)
        rsc[i] = 1;
    int rsin[8], rsout = 0;
    for (int i = 0; i < size; i++)
        rsin[i] = rank + i;
    MPI_Reduce_scatter_c(rsin, &rsout, rsc, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: reduce_scatter_c %d\n", rank, rsout);

    /* Matched probe and receive, large-count forms. */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[3] = {rank, 7, 9}, in[3] = {0, 0, 0};
    MPI_Isend_c(out, 3, MPI_INT, right, 2, MPI_COMM_WORLD, &q);
    MPI_Message msg;
    MPI_Status stt;
    MPI_Mprobe(left, 2, MPI_COMM_WORLD, &msg, &stt);
    MPI_Count cnt;
    MPI_Get_count_c(&stt, MPI_INT, &cnt);
    MPI_Mrecv_c(in, cnt, MPI_INT, &msg, &stt);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    printf("rank %d: mrecv_c %lld: %d %d %d\n", rank, (long long)cnt, in[0],
           in[1], in[2]);

    /* RMA with large-count calls. */
    int *wbuf;
    MPI_Win win;
    MPI_Win_allocate_c(4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                       MPI_COMM_WORLD, &wbuf, &win);
    for (int i = 0; i < 4; i++)
        wbuf[i] = rank;
    MPI_Win_fence(0, win);
    int got[2] = {-1, -1};
    MPI_Get_c(got, 2, MPI_INT, right, 1, 2, MPI_INT, win);
    MPI_Win_fence(0, win);
    printf("rank %d: get_c %d %d\n", rank, got[0], got[1]);
    MPI_Win_free(&win);
    for (int i = 0; i < 6; i++)
        MPI_Type_free(&types6[i]);
    MPI_Finalize();
    return 0;
}
