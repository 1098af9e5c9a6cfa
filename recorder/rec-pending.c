/*
 * The pending requests (rec.h: rec_pending_any): counted from the call
 * that made one to the completion that frees it, so that a blocking call
 * logs its buffers' addresses only while a request is pending
 * (LOG_REC_BUFS): drdb check's buf.overlap sees a blocking call on a
 * pending operation's memory, and a program with nothing pending pays
 * one compare a blocking call.
 *
 * A count, not a set of the requests with a buffer: a set's insertion and
 * removal cost about 60 instructions a nonblocking call (bench-sites.sh),
 * a count one add. So the count may be too high, never too low (a
 * blocking call then logs addresses it did not need to): any request
 * counts (an MPI_Ibarrier's too); a persistent one counts from its _init
 * call to MPI_Request_free (inactive or not: a completion leaves it); a
 * request freed while its operation still runs (MPI_Request_free of an
 * active request: MPI says nothing of when it ends) counts to the end of
 * the run; and a completion the count did not see start (it would make
 * it too low) makes it "always" for the rest of the run.
 *
 * Runs under the recorder's lock (rec_begin); the count is also read
 * without it (rec_pending_any).
 */
#include "rec.h"

/* The count once it cannot be trusted: never back to 0. */
#define ALWAYS (1 << 30)

int rec_pending_n;

static void set(int n)
{
    __atomic_store_n(&rec_pending_n, n, __ATOMIC_RELAXED);
}

void rec__pending_end(void)
{
    set(rec_pending_n >= ALWAYS ? ALWAYS
        : rec_pending_n > 0     ? rec_pending_n - 1
                                : ALWAYS);
}

void rec_pending_free(MPI_Request req)
{
    if (req == MPI_REQUEST_NULL)
        return;
    /* Complete (or an inactive persistent request): it ends here. Still
     * running: it stays counted (MPI 4.0, 3.7.3: the program learns of
     * its end by other means, the recorder not at all). */
    int flag = 0;
    if (PMPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE) ==
            MPI_SUCCESS && flag)
        rec__pending_end();
}

/* The windows with one-sided operations (MPI_Put, MPI_Get, the
 * accumulates: their buffers in use) since their last fence,
 * MPI_Win_unlock_all or MPI_Win_complete: each counts as one pending
 * request (an MPI_Win_unlock of one target, a flush or MPI_Win_free leave
 * it counted: too high, never too low). More windows than the table
 * holds: "always". */
#define RMA_WINS 16
static MPI_Win rma_wins[RMA_WINS];
static int nrma;

void rec_rma_opened(MPI_Win win)
{
    for (int i = 0; i < nrma; i++)
        if (rma_wins[i] == win)
            return;
    if (nrma == RMA_WINS) {
        set(ALWAYS);
        return;
    }
    rma_wins[nrma++] = win;
    set(rec_pending_n >= ALWAYS ? ALWAYS : rec_pending_n + 1);
}

void rec_rma_closed(MPI_Win win)
{
    for (int i = 0; i < nrma; i++)
        if (rma_wins[i] == win) {
            rma_wins[i] = rma_wins[--nrma];
            rec__pending_end();
            return;
        }
}
