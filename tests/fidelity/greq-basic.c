/* Generalized requests: completed at once or later, waited for, tested,
 * asked with MPI_Request_get_status, in a Waitall with a receive, and
 * cancelled. The query function fills the status (MPI_Status_set_elements,
 * source, tag) and calls MPI itself; each function prints its calls. MPI
 * runs them inside MPI_Wait, MPI_Test, ..., and so must the replay. */
#include <mpi.h>
#include <stdio.h>

struct job {
    int id, elements, queries;
};

static int query(void *extra, MPI_Status *st)
{
    struct job *j = extra;
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Status_set_elements(st, MPI_INT, j->elements);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = me;
    st->MPI_TAG = 100 + j->id;
    printf("  query job %d (%d)\n", j->id, ++j->queries);
    return MPI_SUCCESS;
}

static int freefn(void *extra)
{
    struct job *j = extra;
    printf("  free job %d after %d queries\n", j->id, j->queries);
    return MPI_SUCCESS;
}

static int cancel(void *extra, int complete)
{
    struct job *j = extra;
    printf("  cancel job %d complete %d\n", j->id, complete);
    return MPI_SUCCESS;
}

static void show(int me, const char *what, MPI_Status *st)
{
    int n = -1, cancelled = -1;
    MPI_Get_elements(st, MPI_INT, &n);
    MPI_Test_cancelled(st, &cancelled);
    printf("rank %d: %s: elements %d source %d tag %d cancelled %d\n", me,
           what, n, st->MPI_SOURCE, st->MPI_TAG, cancelled);
}

int main(int argc, char **argv)
{
    int me, size, flag, buf = -1;
    struct job jobs[4] = {{1, 5, 0}, {2, 7, 0}, {3, 0, 0}, {4, 2, 0}};
    MPI_Request r, rs[2];
    MPI_Status st, sts[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* completed at once */
    MPI_Grequest_start(query, freefn, cancel, &jobs[0], &r);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    show(me, "at once", &st);

    /* tested before and after completion, status asked */
    MPI_Grequest_start(query, freefn, cancel, &jobs[1], &r);
    MPI_Test(&r, &flag, &st);
    printf("rank %d: before: flag %d\n", me, flag);
    MPI_Grequest_complete(r);
    MPI_Request_get_status(r, &flag, &st);
    printf("rank %d: get_status flag %d\n", me, flag);
    MPI_Test(&r, &flag, &st);
    show(me, "tested", &st);

    /* cancelled before completion */
    MPI_Grequest_start(query, freefn, cancel, &jobs[2], &r);
    MPI_Cancel(&r);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    show(me, "cancelled", &st);

    /* with a receive, in a Waitall */
    MPI_Grequest_start(query, freefn, cancel, &jobs[3], &rs[0]);
    MPI_Irecv(&buf, 1, MPI_INT, (me + size - 1) % size, 9, MPI_COMM_WORLD,
              &rs[1]);
    MPI_Send(&me, 1, MPI_INT, (me + 1) % size, 9, MPI_COMM_WORLD);
    MPI_Grequest_complete(rs[0]);
    MPI_Waitall(2, rs, sts);
    show(me, "waitall", &sts[0]);
    printf("rank %d: received %d\n", me, buf);
    MPI_Finalize();
    return 0;
}
