/*
 * The pending operations with a buffer (rec.h: rec_pending_any): the
 * requests of the calls that log buffer addresses (log/mpispec.py:
 * site_buffers), from the call that made them to their completion, so
 * that a blocking call logs its buffers' addresses only while one is
 * pending (LOG_REC_BUFS): drdb check's buf.overlap sees a blocking call on
 * a pending operation's memory, and a program with nothing pending pays
 * one compare a blocking call.
 *
 * The count may be too high, never too low (a blocking call then logs
 * addresses it did not need to): a persistent request counts from its
 * _init call to MPI_Request_free (inactive or not); a request freed while
 * its operation still runs (MPI_Request_free of an active request: MPI
 * says nothing of when it ends) counts to the end of the run; a request
 * the table could not hold (out of memory) too.
 *
 * Runs under the recorder's lock (rec_begin), like the request table
 * (rec-req.c); the count is also read without it (rec_pending_any).
 */
#include "rec.h"

struct pend {
    int req;
    int persistent;
};

static struct util_htab pend = UTIL_HTAB_INIT(struct pend, req,
                                              (int)MPI_REQUEST_NULL);
int rec_pending_n;

static void count(int d)
{
    __atomic_store_n(&rec_pending_n, rec_pending_n + d, __ATOMIC_RELAXED);
}

void rec_pending_add(MPI_Request req, int persistent)
{
    if (req == MPI_REQUEST_NULL)
        return;
    struct pend *p = util_htab_find(&pend, (int)req);
    if (p) {
        /* A handle MPI reused, its first completion not seen (a call
         * made unlogged): the entry stands for the new one. */
        p->persistent = persistent;
        return;
    }
    struct pend e = {(int)req, persistent};
    (void)util_htab_put(&pend, &e); /* out of memory: counted for good */
    count(1);
}

void rec__pending_done(MPI_Request req)
{
    struct pend *p = util_htab_find(&pend, (int)req);
    if (p && !p->persistent) {
        util_htab_remove(&pend, p);
        count(-1);
    }
}

void rec_pending_free(MPI_Request req)
{
    struct pend *p = rec_pending_n ? util_htab_find(&pend, (int)req) : NULL;
    if (!p)
        return;
    /* Complete (or an inactive persistent request): its buffer is free.
     * Still running: it stays counted (MPI 4.0, 3.7.3: the program learns
     * of its end by other means, the recorder not at all). */
    int flag = 0;
    if (PMPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE) !=
        MPI_SUCCESS)
        flag = 0;
    util_htab_remove(&pend, p);
    if (flag)
        count(-1);
}
