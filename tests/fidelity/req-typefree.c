/* Class 4: requests whose datatype is freed (MPI_Type_free) right after the
 * request starts, before the Wait (legal: MPI keeps the type until the
 * operation completes). Nonblocking receives and sends with vector, struct,
 * indexed and resized types; a persistent receive whose type is freed and
 * which is started several times; completion by Wait, Waitall and Test.
 * Each rank prints what it received. Even ranks send to the next odd one. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct pt { double x; int tag; char c; };

static MPI_Datatype make(int kind)
{
    MPI_Datatype t, u;
    switch (kind) {
    case 0: /* vector: every other int */
        MPI_Type_vector(4, 1, 2, MPI_INT, &t);
        break;
    case 1: { /* struct pt */
        int bl[3] = {1, 1, 1};
        MPI_Aint d[3] = {offsetof(struct pt, x), offsetof(struct pt, tag),
                         offsetof(struct pt, c)};
        MPI_Datatype ty[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
        MPI_Type_create_struct(3, bl, d, ty, &u);
        MPI_Type_create_resized(u, 0, sizeof(struct pt), &t);
        MPI_Type_free(&u);
        break;
    }
    case 2: { /* indexed */
        int bl[3] = {2, 1, 3}, d[3] = {0, 3, 5};
        MPI_Type_indexed(3, bl, d, MPI_INT, &t);
        break;
    }
    default: /* resized: one int every 3 */
        MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &t);
        break;
    }
    MPI_Type_commit(&t);
    return t;
}

static void show(const char *what, const int *v, int n)
{
    printf("%s:", what);
    for (int i = 0; i < n; i++)
        printf(" %d", v[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = rank % 2 == 0 ? rank + 1 : rank - 1;
    if (peer >= size) {
        MPI_Finalize();
        return 0;
    }
    int sender = rank % 2 == 0;
    /* Sends and receives with types freed at once, completed by Wait. */
    for (int kind = 0; kind < 4; kind++) {
        int buf[16];
        struct pt pts[3];
        MPI_Datatype t = make(kind);
        MPI_Request r;
        void *b = kind == 1 ? (void *)pts : (void *)buf;
        int n = kind == 1 ? 3 : kind == 3 ? 5 : 1;
        memset(buf, 0xff, sizeof buf);
        memset(pts, 0, sizeof pts);
        if (sender) {
            for (int i = 0; i < 16; i++)
                buf[i] = 100 * kind + i + rank;
            for (int i = 0; i < 3; i++)
                pts[i] = (struct pt){1.5 * i + rank, i * 7, (char)('a' + i)};
            MPI_Isend(b, n, t, peer, kind, MPI_COMM_WORLD, &r);
        } else {
            MPI_Irecv(b, n, t, peer, kind, MPI_COMM_WORLD, &r);
        }
        MPI_Type_free(&t);
        printf("kind %d: type after free is null: %d\n", kind,
               t == MPI_DATATYPE_NULL);
        MPI_Status st;
        MPI_Wait(&r, &st);
        if (!sender) {
            int cnt;
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            printf("kind %d: source %d tag %d bytes %d\n", kind, st.MPI_SOURCE,
                   st.MPI_TAG, cnt);
            if (kind == 1)
                for (int i = 0; i < 3; i++)
                    printf("  pt %g %d %c\n", pts[i].x, pts[i].tag, pts[i].c);
            else
                show("  ints", buf, 16);
        }
    }
    /* Several at once, types freed, completed by Waitall. */
    {
        int in[4][16];
        MPI_Request r[4];
        memset(in, 0, sizeof in);
        for (int kind = 0; kind < 4; kind++) {
            MPI_Datatype t = make(kind == 1 ? 0 : kind);
            for (int i = 0; i < 16; i++)
                in[kind][i] = sender ? 1000 * kind + i : -1;
            if (sender)
                MPI_Isend(in[kind], 1, t, peer, 10 + kind, MPI_COMM_WORLD,
                          &r[kind]);
            else
                MPI_Irecv(in[kind], 1, t, peer, 10 + kind, MPI_COMM_WORLD,
                          &r[kind]);
            MPI_Type_free(&t);
        }
        MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
        if (!sender)
            for (int kind = 0; kind < 4; kind++)
                show("  waitall", in[kind], 16);
    }
    /* A persistent receive (and send) whose type is freed after the init,
     * started three times; completed by a Test loop. */
    {
        int v[16];
        MPI_Datatype t = make(2);
        MPI_Request r;
        if (sender)
            MPI_Send_init(v, 1, t, peer, 20, MPI_COMM_WORLD, &r);
        else
            MPI_Recv_init(v, 1, t, peer, 20, MPI_COMM_WORLD, &r);
        MPI_Type_free(&t);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 16; i++)
                v[i] = sender ? round * 50 + i : 0;
            MPI_Start(&r);
            int flag = 0;
            MPI_Status st;
            while (!flag)
                MPI_Test(&r, &flag, &st);
            if (!sender)
                show("  persistent", v, 16);
        }
        MPI_Request_free(&r);
        printf("request after free is null: %d\n", r == MPI_REQUEST_NULL);
    }
    MPI_Finalize();
    return 0;
}
