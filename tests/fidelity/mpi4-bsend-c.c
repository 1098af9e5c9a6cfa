/* Buffered sends with MPI 4's large-count calls (MPI 4.0 3.6, "Buffer
 * Allocation and Usage"): each rank attaches a buffer, sends to the next
 * rank with MPI_Bsend_c, receives from the previous one, and detaches:
 * MPI_Buffer_detach_c must hand back the address and the size of the
 * buffer that was attached. Three rounds: attach_c/detach_c on a stack
 * buffer, the classic MPI_Buffer_attach with detach_c, attach_c with the
 * classic detach (a process has one attached buffer, whichever call
 * attached it). Each detach prints the detached address as its offset
 * from the attached one (0: the same buffer; a replay's heap addresses
 * are not the recording's, so a replay that hands back the recorded
 * address shows) and the detached size, and the program exits 1 when
 * one is not what was attached. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100

static int wrong;

/* Prints what a detach handed back, against what was attached. */
static void detached(int rank, const char *how, void *att, MPI_Count attn,
                     void *det, MPI_Count detn)
{
    long long off = (long long)((intptr_t)det - (intptr_t)att);
    int ok = det == att && detn == attn;
    printf("rank %d: %s: detached offset %lld, size %lld of %lld: %s\n",
           rank, how, off, (long long)detn, (long long)attn,
           ok ? "the attached buffer" : "WRONG");
    wrong |= !ok;
}

/* Round K: MPI_Bsend_c of N ints to the next rank, MPI_Recv_c from the
 * previous one. */
static void exchange(int rank, int size, int k)
{
    int out[N], in[N];
    MPI_Status st;
    MPI_Count got = 0;
    for (int i = 0; i < N; i++)
        out[i] = 1000 * k + 10 * rank + i;
    MPI_Bsend_c(out, N, MPI_INT, (rank + 1) % size, k, MPI_COMM_WORLD);
    MPI_Recv_c(in, N, MPI_INT, (rank + size - 1) % size, k, MPI_COMM_WORLD,
               &st);
    MPI_Get_count_c(&st, MPI_INT, &got);
    printf("rank %d: round %d received %d..%d (%lld ints)\n", rank, k, in[0],
           in[N - 1], (long long)got);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Count pack;
    MPI_Pack_size_c(N, MPI_INT, MPI_COMM_WORLD, &pack);
    MPI_Count need = pack + MPI_BSEND_OVERHEAD;

    /* 1: attach_c and detach_c, a buffer on the stack. */
    char stackbuf[4 * N + 4096];
    if (need > (MPI_Count)sizeof stackbuf) {
        printf("rank %d: MPI_BSEND_OVERHEAD too large (%lld)\n", rank,
               (long long)need);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    void *det = NULL;
    MPI_Count detn = -1;
    MPI_Buffer_attach_c(stackbuf, need);
    exchange(rank, size, 1);
    MPI_Buffer_detach_c(&det, &detn);
    detached(rank, "attach_c/detach_c", stackbuf, need, det, detn);

    /* 2: the classic attach, a heap buffer twice the size, detach_c. */
    char *heap = malloc((size_t)(2 * need));
    MPI_Buffer_attach(heap, (int)(2 * need));
    exchange(rank, size, 2);
    det = NULL;
    detn = -1;
    MPI_Buffer_detach_c(&det, &detn);
    detached(rank, "attach/detach_c", heap, 2 * need, det, detn);

    /* 3: attach_c, the classic detach. */
    int detn_int = -1;
    MPI_Buffer_attach_c(heap + 8, need);
    exchange(rank, size, 3);
    det = NULL;
    MPI_Buffer_detach(&det, &detn_int);
    detached(rank, "attach_c/detach", heap + 8, need, det, detn_int);

    free(heap);
    MPI_Finalize();
    return wrong;
}
