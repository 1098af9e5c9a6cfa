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
#include <stdlib.h>

#include "rec.h"

/*
 * The requests: an open-addressing set of their handles (a slot: the
 * handle, bit 32 set for a persistent one; 0 free: MPICH's handle 0 is
 * no handle), at most half full, with linear probing and backward-shift
 * deletion. Not util_htab: this is on the path of every nonblocking call
 * and completion, and a generic table's entry copies cost several times
 * the probe (bench-sites.sh).
 */
#define PERSISTENT (1ull << 32)
static uint64_t *tab;
static uint32_t mask, used, bits; /* mask = capacity - 1 */
int rec_pending_n;

static void count(int d)
{
    __atomic_store_n(&rec_pending_n, rec_pending_n + d, __ATOMIC_RELAXED);
}

static uint32_t home(uint32_t h)
{
    return (uint32_t)(h * 0x9e3779b1u) >> (32 - bits);
}

/* The slot of H, or the free slot where it would go. */
static uint32_t probe(uint32_t h)
{
    uint32_t i = home(h);
    while (tab[i] && (uint32_t)tab[i] != h)
        i = (i + 1) & mask;
    return i;
}

/* Doubles the set (64 slots at first): 0, or -1 out of memory. */
static int grow(void)
{
    uint32_t ncap = tab ? (mask + 1) * 2 : 64;
    uint64_t *old = tab, *v = calloc(ncap, sizeof *v);
    uint32_t ocap = tab ? mask + 1 : 0;
    if (!v)
        return -1;
    tab = v;
    mask = ncap - 1;
    bits = (uint32_t)__builtin_ctz(ncap);
    for (uint32_t i = 0; i < ocap; i++)
        if (old[i])
            tab[probe((uint32_t)old[i])] = old[i];
    free(old);
    return 0;
}

void rec_pending_add(MPI_Request req, int persistent)
{
    uint32_t h = (uint32_t)req;
    if (req == MPI_REQUEST_NULL || h == 0)
        return;
    if ((used + 1) * 2 > (tab ? mask + 1 : 0) && grow() < 0) {
        count(1); /* not held: counted for good */
        return;
    }
    uint32_t i = probe(h);
    /* A handle already there: MPI reused it, the first completion not
     * seen (a call made unlogged); the slot stands for the new one. */
    if (!tab[i]) {
        used++;
        count(1);
    }
    tab[i] = h | (persistent ? PERSISTENT : 0);
}

/* Frees slot I, moving back the slots after it that belong before. */
static void drop(uint32_t i)
{
    tab[i] = 0;
    used--;
    count(-1);
    for (uint32_t j = (i + 1) & mask; tab[j]; j = (j + 1) & mask) {
        uint32_t k = home((uint32_t)tab[j]);
        /* J's home is cyclically in (I, J]: it stays. */
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
            continue;
        tab[i] = tab[j];
        tab[j] = 0;
        i = j;
    }
}

void rec__pending_done(MPI_Request req)
{
    if (!tab)
        return;
    uint32_t i = probe((uint32_t)req);
    if (tab[i] && !(tab[i] & PERSISTENT))
        drop(i);
}

void rec_pending_free(MPI_Request req)
{
    if (!rec_pending_n || !tab)
        return;
    uint32_t i = probe((uint32_t)req);
    if (!tab[i])
        return;
    /* Complete (or an inactive persistent request): its buffer is free.
     * Still running: it stays counted (MPI 4.0, 3.7.3: the program learns
     * of its end by other means, the recorder not at all). */
    int flag = 0;
    if (PMPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE) !=
        MPI_SUCCESS)
        flag = 0;
    drop(i);
    if (!flag)
        count(1);
}
