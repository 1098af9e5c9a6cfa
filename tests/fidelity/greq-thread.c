/* A generalized request completed by another thread (MPI_THREAD_MULTIPLE),
 * the usual use: the thread does the work and calls MPI_Grequest_complete;
 * the main thread waits for the request. The query function reports the
 * thread's result through the status (MPI_Status_set_elements). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

struct work {
    MPI_Request req;
    int input, result, done;
};

static int query(void *extra, MPI_Status *st)
{
    struct work *w = extra;
    MPI_Status_set_elements(st, MPI_BYTE, w->result);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    printf("  query: result %d\n", w->result);
    return MPI_SUCCESS;
}

static int freefn(void *extra)
{
    struct work *w = extra;
    printf("  free: done %d\n", w->done);
    return MPI_SUCCESS;
}

static int cancel(void *extra, int complete)
{
    (void)extra;
    printf("  cancel %d\n", complete);
    return MPI_SUCCESS;
}

static void *worker(void *arg)
{
    struct work *w = arg;
    int s = 0;
    for (int i = 1; i <= w->input; i++)
        s += i * i;
    w->result = s % 97;
    w->done = 1;
    MPI_Grequest_complete(w->req);
    return NULL;
}

int main(int argc, char **argv)
{
    int me, provided, n = 0;
    struct work w = {MPI_REQUEST_NULL, 0, 0, 0};
    pthread_t t;
    MPI_Status st;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    w.input = 10 + me;
    MPI_Grequest_start(query, freefn, cancel, &w, &w.req);
    pthread_create(&t, NULL, worker, &w);
    pthread_join(t, NULL);
    MPI_Wait(&w.req, &st);
    MPI_Get_count(&st, MPI_BYTE, &n);
    printf("rank %d: provided %d, request done, count %d\n", me,
           provided == MPI_THREAD_MULTIPLE, n);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
