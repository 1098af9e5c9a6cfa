/* Error handlers and error returns: a program's communicator handler
 * (inherited by MPI_Comm_dup), MPI_ERRORS_RETURN with provoked errors and
 * the outputs MPI gives then, MPI_Comm_call_errhandler, handlers that call
 * MPI. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int me, calls;

static void show(const char *who, int code)
{
    char s[MPI_MAX_ERROR_STRING];
    int cls, len;
    MPI_Error_class(code, &cls);
    MPI_Error_string(code, s, &len);
    printf("rank %d: %s: code %d class %d len %d '%.*s'\n", me, who, code,
           cls, len, (int)strcspn(s, "\n"), s);
}

static void handler(MPI_Comm *comm, int *code, ...)
{
    int r;
    calls++;
    MPI_Comm_rank(*comm, &r);
    printf("rank %d: handler call %d on a comm of rank %d\n", me, calls, r);
    show("handler", *code);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;
    MPI_Comm d = MPI_COMM_NULL, d2;
    int size, rc, buf[4] = {0, 0, 0, 0};
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* MPI_ERRORS_RETURN: the codes and outputs of failed calls. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Send(buf, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD);
    show("send to a bad rank", rc);
    d = MPI_COMM_WORLD;
    rc = MPI_Comm_dup(MPI_COMM_NULL, &d);
    show("dup of MPI_COMM_NULL", rc);
    printf("rank %d: newcomm is null: %d\n", me, d == MPI_COMM_NULL);
    rc = MPI_Comm_split(MPI_COMM_WORLD, me % 2 ? MPI_UNDEFINED : 0, me, &d);
    printf("rank %d: split rc %d null %d\n", me, rc, d == MPI_COMM_NULL);
    if (d != MPI_COMM_NULL)
        MPI_Comm_free(&d);
    /* Truncation: the status and the data MPI left. */
    if (me == 0) {
        int msg[4] = {10 + me, 11, 12, 13};
        MPI_Send(msg, 4, MPI_INT, 1, 7, MPI_COMM_WORLD);
    } else if (me == 1) {
        st.MPI_ERROR = -1;
        rc = MPI_Recv(buf, 2, MPI_INT, 0, 7, MPI_COMM_WORLD, &st);
        show("truncated receive", rc);
        printf("rank %d: status source %d tag %d error %d data %d %d %d\n",
               me, st.MPI_SOURCE, st.MPI_TAG, st.MPI_ERROR, buf[0], buf[1],
               buf[2]);
    }

    /* A program handler, inherited by a duplicate. */
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Comm_dup(MPI_COMM_WORLD, &d2);
    rc = MPI_Send(buf, 1, MPI_INT, -5, 0, d2);
    show("send returned", rc);
    rc = MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD);
    show("bcast returned", rc);
    rc = MPI_Comm_call_errhandler(d2, MPI_ERR_OTHER);
    show("call_errhandler returned", rc);
    MPI_Comm_set_errhandler(d2, MPI_ERRORS_RETURN);
    rc = MPI_Send(buf, 1, MPI_INT, -5, 0, d2);
    show("after ERRORS_RETURN", rc);
    MPI_Comm_free(&d2);
    MPI_Errhandler_free(&eh);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: handler called %d times\n", me, calls);
    MPI_Finalize();
    return 0;
}
