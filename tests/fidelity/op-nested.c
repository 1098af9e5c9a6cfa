/* An operator that calls MPI (MPI_Comm_rank, MPI_Type_size) run by
 * nonblocking reductions, which MPI progresses inside MPI_Test polls and
 * MPI_Wait, and by a persistent one (MPI_Allreduce_init, MPI_Start): the
 * operator's calls are the program's, nested in the call MPI ran it in.
 * The polls are counted: each poll the operator ran in must replay as
 * one call, not stand for the unsuccessful polls after it. */
#include <mpi.h>
#include <stdio.h>

static int calls;

static void bor(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int me, sz;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Type_size(*dt, &sz);
    unsigned *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] |= a[i];
    printf("  rank %d op call %d: len %d size %d\n", me, ++calls, *len, sz);
}

int main(int argc, char **argv)
{
    int me, flag = 0, polls = 0;
    unsigned v[4], r[4];
    MPI_Op op;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Op_create(bor, 1, &op);
    for (int i = 0; i < 4; i++)
        v[i] = 1u << (me + i);
    MPI_Iallreduce(v, r, 4, MPI_UNSIGNED, op, MPI_COMM_WORLD, &req);
    while (!flag) {
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        polls++;
    }
    printf("rank %d: iallreduce %#x %#x after %d polls\n", me, r[0], r[3],
           polls);
    MPI_Ireduce(v, r, 2, MPI_UNSIGNED, op, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (me == 0)
        printf("rank %d: ireduce %#x\n", me, r[0]);
    MPI_Allreduce_init(v, r, 3, MPI_UNSIGNED, op, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req);
    for (int k = 0; k < 2; k++) {
        v[0] <<= 1;
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("rank %d: persistent %d %#x\n", me, k, r[0]);
    }
    MPI_Request_free(&req);
    printf("rank %d: %d op calls\n", me, calls);
    MPI_Op_free(&op);
    MPI_Finalize();
    return 0;
}
