/* Class 4: the other completion patterns. MPI_Request_free on an active
 * send; persistent sends and receives with derived types (freed after the
 * init) started with Startall; a cancelled receive (MPI_Cancel, Wait,
 * MPI_Test_cancelled); MPI_Request_get_status polled until the receive is
 * complete, its data read before the Wait; nonblocking collectives with
 * derived types (Ibcast, Iallgather, Ialltoallv, Ialltoallw with every
 * type freed at once) completed together by a Testsome loop. Prints what
 * each rank saw. Runs on any number of ranks >= 2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *what, const int *v, int n)
{
    printf("%s:", what);
    for (int i = 0; i < n; i++)
        printf(" %d", v[i]);
    printf("\n");
}

static MPI_Datatype vec(int count, int stride)
{
    MPI_Datatype t;
    MPI_Type_vector(count, 1, stride, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    /* MPI_Request_free on an active send; the receiver learns of it. */
    {
        int out[8], in[8];
        for (int i = 0; i < 8; i++)
            out[i] = rank * 10 + i;
        MPI_Datatype t = vec(4, 2);
        MPI_Request r;
        MPI_Isend(out, 1, t, right, 1, MPI_COMM_WORLD, &r);
        MPI_Request_free(&r);
        MPI_Type_free(&t);
        memset(in, 0, sizeof in);
        MPI_Recv(in, 4, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        show("freed send delivered", in, 4);
        MPI_Barrier(MPI_COMM_WORLD); /* out stays valid until here */
    }

    /* Persistent requests with derived types, freed after the init, Startall. */
    {
        int sb[12], rb[12];
        MPI_Datatype t = vec(3, 3);
        MPI_Request r[2];
        MPI_Recv_init(rb, 1, t, left, 2, MPI_COMM_WORLD, &r[0]);
        MPI_Send_init(sb, 1, t, right, 2, MPI_COMM_WORLD, &r[1]);
        MPI_Type_free(&t);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 12; i++) {
                sb[i] = 100 * round + 10 * rank + i;
                rb[i] = -1;
            }
            MPI_Startall(2, r);
            int idx, flag = 0;
            MPI_Status st;
            MPI_Waitany(2, r, &idx, &st);
            printf("startall round %d: first %d\n", round, idx == 0 ? 0 : 1);
            MPI_Wait(&r[1 - idx], &st);
            show("  persistent", rb, 12);
            MPI_Test(&r[0], &flag, &st); /* inactive: flag true, empty */
            printf("  inactive test flag %d\n", flag);
        }
        MPI_Request_free(&r[0]);
        MPI_Request_free(&r[1]);
    }

    /* A receive nobody sends to, cancelled. */
    {
        int buf[4] = {7, 7, 7, 7}, flag = -1;
        MPI_Request r;
        MPI_Status st;
        MPI_Irecv(buf, 4, MPI_INT, left, 99, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &flag);
        printf("cancelled %d, request null %d\n", flag, r == MPI_REQUEST_NULL);
        show("  untouched", buf, 4);
    }

    /* MPI_Request_get_status until complete; the data read before Wait. */
    {
        int in[10], out[10];
        for (int i = 0; i < 10; i++) {
            out[i] = 1000 + 10 * rank + i;
            in[i] = 0;
        }
        MPI_Datatype t = vec(5, 2);
        MPI_Request r, s;
        MPI_Irecv(in, 1, t, left, 3, MPI_COMM_WORLD, &r);
        MPI_Isend(out, 1, t, right, 3, MPI_COMM_WORLD, &s);
        MPI_Type_free(&t);
        int flag = 0;
        MPI_Status st;
        while (!flag)
            MPI_Request_get_status(r, &flag, &st);
        printf("get_status: source %d tag %d\n", st.MPI_SOURCE, st.MPI_TAG);
        show("  before wait", in, 10);
        in[0] = -5; /* the program's own, after completion */
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        show("  after wait", in, 10);
        MPI_Wait(&s, MPI_STATUS_IGNORE);
    }

    /* Nonblocking collectives with derived types, completed by Testsome. */
    {
        enum { NC = 4 };
        int *bc = calloc(8, sizeof(int)), *ag = calloc(16 * (size_t)size, sizeof(int));
        int *av = calloc(8 * (size_t)size, sizeof(int)), *rdis = malloc((size_t)size * sizeof(int)), *aw = calloc(8 * (size_t)size, sizeof(int));
        int *sv = malloc(8 * (size_t)size * sizeof(int));
        int *cnt = malloc((size_t)size * sizeof(int)), *dis = malloc((size_t)size * sizeof(int));
        int *wcnt = malloc((size_t)size * sizeof(int)), *wdis = malloc((size_t)size * sizeof(int));
        MPI_Datatype *wt = malloc((size_t)size * sizeof(MPI_Datatype));
        int mine[4] = {rank, rank * 2, rank * 3, rank * 4};
        for (int i = 0; i < 8 * size; i++)
            sv[i] = 10000 * rank + i;
        for (int i = 0; i < 8; i++)
            bc[i] = rank == 0 ? 500 + i : -1;
        for (int p = 0; p < size; p++) {
            cnt[p] = 2;
            dis[p] = 4 * p;
            rdis[p] = 2 * p; /* extents of v2: 3 ints */
            wcnt[p] = 1;
            wdis[p] = 8 * p * (int)sizeof(int);
            wt[p] = vec(2 + p % 3, 2);
        }
        MPI_Datatype v2 = vec(2, 2), v4 = vec(4, 2);
        MPI_Request r[NC];
        MPI_Ibcast(bc, 1, v4, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Iallgather(mine, 4, MPI_INT, ag, 2, v2, MPI_COMM_WORLD, &r[1]);
        /* 2 ints to each peer, one v2 (2 ints) from each */
        MPI_Ialltoallv(sv, cnt, dis, MPI_INT, av, wcnt, rdis, v2, MPI_COMM_WORLD, &r[2]);
        int *swcnt = malloc((size_t)size * sizeof(int)), *swdis = malloc((size_t)size * sizeof(int));
        MPI_Datatype *swt = malloc((size_t)size * sizeof(MPI_Datatype));
        for (int p = 0; p < size; p++) {
            swcnt[p] = 2 + rank % 3;
            swdis[p] = 8 * p * (int)sizeof(int);
            swt[p] = MPI_INT;
        }
        /* rank p receives from q a vector of 2 + q % 3 ints */
        for (int p = 0; p < size; p++) {
            MPI_Type_free(&wt[p]);
            wt[p] = vec(2 + p % 3, 2);
        }
        MPI_Ialltoallw(sv, swcnt, swdis, swt, aw, wcnt, wdis, wt, MPI_COMM_WORLD, &r[3]);
        MPI_Type_free(&v2);
        MPI_Type_free(&v4);
        for (int p = 0; p < size; p++)
            MPI_Type_free(&wt[p]);
        int left_ = NC, idx[NC];
        while (left_ > 0) {
            int out;
            MPI_Testsome(NC, r, &out, idx, MPI_STATUSES_IGNORE);
            if (out == MPI_UNDEFINED)
                break;
            left_ -= out;
        }
        show("ibcast", bc, 8);
        show("iallgather", ag, 6 * size);
        show("ialltoallv", av, 6 * size);
        show("ialltoallw", aw, 8 * size);
        free(bc); free(ag); free(av); free(aw); free(sv); free(cnt); free(dis); free(rdis);
        free(wcnt); free(wdis); free(wt); free(swcnt); free(swdis); free(swt);
    }
    MPI_Finalize();
    return 0;
}
