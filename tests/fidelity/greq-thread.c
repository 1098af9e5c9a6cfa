/* A generalized request completed by another thread (MPI_THREAD_MULTIPLE),
 * the usual use: the thread does the work and calls MPI_Grequest_complete
 * while the main thread waits for the request in MPI_Wait, which runs the
 * query and free functions. The thread makes another MPI call while the
 * query function runs (it sleeps between its own MPI calls), so the log
 * has the thread's call between the query's nested ones. A second request
 * is waited for after the thread that completed it ended. The query
 * function reports the thread's result through the status
 * (MPI_Status_set_elements). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

struct work {
    MPI_Request req;
    int input, result, done, size;
};

static void sleep_ms(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

static int query(void *extra, MPI_Status *st)
{
    struct work *w = extra;
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    sleep_ms(60); /* the worker calls MPI_Comm_size meanwhile */
    MPI_Status_set_elements(st, MPI_BYTE, w->result);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = me;
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
    sleep_ms(20); /* the main thread is in MPI_Wait by now */
    for (int i = 1; i <= w->input; i++)
        s += i * i;
    w->result = s % 97;
    w->done = 1;
    MPI_Grequest_complete(w->req);
    sleep_ms(20); /* the main thread runs the query function now */
    MPI_Comm_size(MPI_COMM_WORLD, &w->size);
    return NULL;
}

int main(int argc, char **argv)
{
    int me, provided, n = 0;
    struct work w = {MPI_REQUEST_NULL, 0, 0, 0, 0};
    pthread_t t;
    MPI_Status st;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    w.input = 10 + me;
    MPI_Grequest_start(query, freefn, cancel, &w, &w.req);
    pthread_create(&t, NULL, worker, &w);
    MPI_Wait(&w.req, &st);
    pthread_join(t, NULL);
    MPI_Get_count(&st, MPI_BYTE, &n);
    printf("rank %d: provided %d, request done, count %d, size %d\n", me,
           provided == MPI_THREAD_MULTIPLE, n, w.size);
    /* completed by a thread that has ended */
    w.input = 20 + me;
    w.done = 0;
    MPI_Grequest_start(query, freefn, cancel, &w, &w.req);
    pthread_create(&t, NULL, worker, &w);
    pthread_join(t, NULL);
    MPI_Wait(&w.req, &st);
    MPI_Get_count(&st, MPI_BYTE, &n);
    printf("rank %d: second request, count %d\n", me, n);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
