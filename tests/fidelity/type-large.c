/*
 * type-large - large messages (64 KiB and more) of derived datatypes, which
 * the recorder writes to the log apart from the record (a piece of whole
 * elements at a time when they are not contiguous): each receive's whole
 * buffer, gaps included, must replay as it was.
 *
 * Rank 0 sends rank 1 (each case with MPI_Send into MPI_Recv, and once
 * more into MPI_Irecv + MPI_Wait):
 *   vector    every other double of 2^18 x 2 (2 MiB of data, gaps between)
 *   shifted   a contiguous block whose type starts 16 bytes into the buffer
 *             (lb = true lb = 16, the extent its size)
 *   wide      elements of 2 x 600 KB with a gap (each larger than a piece)
 *   short     the vector into a type of twice as many (a partial receive)
 *   struct    an int and a double per element, 200,000 elements (padding)
 * and broadcasts the vector to every rank. Each rank prints a checksum of
 * each whole receive buffer (filled with a pattern beforehand).
 *
 *   mpiexec -n 2..4 ./type-large
 */
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t sum(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t s = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        s = (s ^ b[i]) * 1099511628211ull;
    return s;
}

static void fill(void *p, size_t n, int seed)
{
    unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(i * 13 + (i >> 10) + seed);
}

struct pair {
    int i;
    double d;
};

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    enum { NV = 1 << 18, WIDE = 600000, NW = 4, NS = 200000 };

    MPI_Datatype vec, shifted, wide, pairt;
    MPI_Type_vector(NV, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    MPI_Datatype blk, at16;
    int len = 300000;
    MPI_Aint d16 = 16;
    MPI_Type_contiguous(len, MPI_INT, &blk);
    MPI_Type_create_hindexed(1, &(int){1}, &d16, blk, &at16);
    MPI_Type_create_resized(at16, 16, (MPI_Aint)len * 4, &shifted);
    MPI_Type_commit(&shifted);
    MPI_Type_vector(2, WIDE, WIDE + 1000, MPI_BYTE, &wide);
    MPI_Type_commit(&wide);
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(struct pair, i), offsetof(struct pair, d)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, disp, types, &pairt);
    MPI_Type_commit(&pairt);

    size_t vbytes = (size_t)NV * 2 * sizeof(double);
    size_t sbytes = 16 + (size_t)len * 4;
    size_t wext = (size_t)(2 * WIDE + 1000), wbytes = wext * NW;
    size_t pbytes = (size_t)NS * sizeof(struct pair);
    unsigned char *v = malloc(vbytes), *s = malloc(sbytes),
                  *w = malloc(wbytes), *p = malloc(pbytes);
    for (int round = 0; round < 2; round++) {
        fill(v, vbytes, rank == 0 ? 1 : 50);
        fill(s, sbytes, rank == 0 ? 2 : 60);
        fill(w, wbytes, rank == 0 ? 3 : 70);
        fill(p, pbytes, rank == 0 ? 4 : 80);
        if (rank == 0) {
            MPI_Send(v, 1, vec, 1, 1, MPI_COMM_WORLD);
            MPI_Send(s, 1, shifted, 1, 2, MPI_COMM_WORLD);
            MPI_Send(w, NW, wide, 1, 3, MPI_COMM_WORLD);
            MPI_Send(v, 1, vec, 1, 4, MPI_COMM_WORLD); /* as doubles */
            MPI_Send(p, NS, pairt, 1, 5, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Request rq[5];
            MPI_Status st;
            /* round 0: blocking receives; round 1: Irecv + Wait */
            for (int k = 0; k < 5; k++) {
                void *b[5] = {v, s, w, v, p};
                int n[5] = {1, 1, NW, NV, NS};
                MPI_Datatype t[5] = {vec, shifted, wide, MPI_DOUBLE, pairt};
                if (k == 3) {
                    /* the short one: NV doubles into a 2 NV-element vector
                     * of doubles, every other slot (half of it filled) */
                    MPI_Datatype v2;
                    MPI_Type_vector(2 * NV, 1, 2, MPI_DOUBLE, &v2);
                    MPI_Type_commit(&v2);
                    double *big = malloc(4 * (size_t)NV * sizeof(double));
                    fill(big, 4 * (size_t)NV * sizeof(double), 90);
                    if (round == 0)
                        MPI_Recv(big, 1, v2, 0, 4, MPI_COMM_WORLD, &st);
                    else {
                        MPI_Irecv(big, 1, v2, 0, 4, MPI_COMM_WORLD, &rq[k]);
                        MPI_Wait(&rq[k], &st);
                    }
                    int cnt;
                    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
                    printf("rank 1 round %d short: %d doubles, %016llx\n",
                           round, cnt,
                           (unsigned long long)sum(big, 4 * (size_t)NV *
                                                            sizeof(double)));
                    free(big);
                    MPI_Type_free(&v2);
                    continue;
                }
                if (round == 0)
                    MPI_Recv(b[k], n[k], t[k], 0, k + 1, MPI_COMM_WORLD, &st);
                else {
                    MPI_Irecv(b[k], n[k], t[k], 0, k + 1, MPI_COMM_WORLD,
                              &rq[k]);
                    MPI_Wait(&rq[k], &st);
                }
            }
            printf("rank 1 round %d: vector %016llx shifted %016llx wide "
                   "%016llx struct %016llx\n", round,
                   (unsigned long long)sum(v, vbytes),
                   (unsigned long long)sum(s, sbytes),
                   (unsigned long long)sum(w, wbytes),
                   (unsigned long long)sum(p, pbytes));
        }
        if (rank != 0)
            fill(v, vbytes, 100 + rank);
        MPI_Bcast(v, 1, vec, 0, MPI_COMM_WORLD);
        printf("rank %d round %d bcast: %016llx\n", rank, round,
               (unsigned long long)sum(v, vbytes));
    }
    free(v);
    free(s);
    free(w);
    free(p);
    MPI_Type_free(&vec);
    MPI_Type_free(&shifted);
    MPI_Type_free(&wide);
    MPI_Type_free(&pairt);
    MPI_Type_free(&blk);
    MPI_Type_free(&at16);
    MPI_Finalize();
    return 0;
}
