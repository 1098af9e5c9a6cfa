/*
 * Shared-memory windows (MPI_Win_allocate_shared): the processes of a node
 * load and store into one segment directly, without MPI calls, so what this
 * process can read there changes between its calls. The recorder logs the
 * segment's changes at the calls that can synchronize processes, where a
 * correct program may read what others wrote (docs/log-format.md,
 * "Shared-memory windows"). The mirror of replayer/rpl-shm.c.
 *
 * The segment: every part MPI_Win_shared_query can return, from the lowest
 * part's first byte to the end of the highest (with MPICH one mapping,
 * whose parts follow each other in rank order, each padded to a page with
 * alloc_shared_noncontig). It is one region of the RMA region table
 * (rec-rma.c numbers it), with a shadow: the bytes as last logged, zeros at
 * first (the replay's segment starts zeroed).
 *
 * When: rec_begin() sizes and rec_end() appends the changes of every
 * segment (one WINDIFF per segment that changed) for the records of calls
 * that communicate (rec_shm_syncs()), of the RMA synchronization calls
 * (their hooks pass REC_SYNC), and of an unsuccessful poll during which a
 * segment changed (rec_poll() logs it on its own, not as a repeat). Nothing
 * is compared while no shared window exists.
 */
#include <stdlib.h>

#include "rec.h"
#include "util.h"

struct seg {
    MPI_Win win;
    char *base;      /* the lowest part (NULL: every part is empty) */
    size_t size;     /* to the end of the highest part */
    uint8_t *shadow; /* SIZE bytes as last logged */
    uint64_t id;     /* the region's number: its WINDIFF's elem */
};

static struct seg *segs;
static size_t segs_cap;
size_t rec_shm_n;

/*
 * A call tells this process something about the others, after which it
 * may read what they stored, when it receives, completes, or takes part
 * in a collective that may synchronize. A call that only starts an
 * operation (MPI_Isend, MPI_Irecv, MPI_Ibarrier, MPI_Comm_idup, the
 * persistent point-to-point inits, MPI_Start) or lets one go
 * (MPI_Request_free, MPI_Cancel) returns without waiting for anyone: a
 * store another process made is no more visible to a correct program
 * after it than before, and the next call that can tell (its Wait or
 * Test) logs it. Persistent collective inits stay: they may synchronize.
 */
int rec_shm_syncs(int fn)
{
    const struct log_func_desc *d = log_func_by_id(fn);
    if (!d)
        return 0;
    switch (d->kind) {
    case LOG_K_LOCAL:
    case LOG_K_TYPE_CTOR:
    case LOG_K_LIFECYCLE: /* MPI_Finalize is logged before the call */
    case LOG_K_RMA:       /* the synchronizations pass REC_SYNC */
    case LOG_K_START:
    case LOG_K_STARTALL:
    case LOG_K_REQUEST_FREE:
    case LOG_K_CANCEL:
        return 0;
    case LOG_K_COLL:
        return !(d->roles & LOG_R_NB);
    default:
        return !(d->roles & (LOG_R_NB | LOG_R_PERSISTENT)) ||
               (d->roles & LOG_R_POLL);
    }
}

/* Two WINDIFFs per segment at most: see rec_shm_put(). */
size_t rec_shm_room(void)
{
    size_t room = 0;
    for (size_t i = 0; i < rec_shm_n; i++)
        room += 2 * log_windiff_room(segs[i].size);
    return room;
}

/*
 * An unchanged segment costs one memcmp. Other processes store while the
 * segment is read: a neighbour that writes its data, then a flag after it,
 * may have its flag read and its data not (the data lies before the flag).
 * So once a diff found changes, a second comparison sees every store made
 * before the first diff ended (the data was stored before the flag that
 * was seen): what it finds is logged as a second WINDIFF of the segment,
 * applied after the first. (A first diff that found nothing saw no flag
 * either: nothing to complete.)
 */
void rec_shm_put(struct log_rec *rec)
{
    for (size_t i = 0; i < rec_shm_n; i++) {
        struct seg *s = &segs[i];
        if (!s->size || memcmp(s->base, s->shadow, s->size) == 0)
            continue;
        const uint8_t *before = rec->p;
        log_put_windiff(rec, s->id, s->base, s->shadow, s->size);
        if (rec->p != before)
            log_put_windiff(rec, s->id, s->base, s->shadow, s->size);
    }
}

int rec_shm_changed(void)
{
    for (size_t i = 0; i < rec_shm_n; i++)
        if (segs[i].size &&
            memcmp(segs[i].base, segs[i].shadow, segs[i].size) != 0)
            return 1;
    return 0;
}

/* The segment of the new window WIN over COMM, whose own part is at OWN
 * (SIZE bytes). */
static struct seg *seg_add(int fn, MPI_Win win, MPI_Comm comm, char *own,
                           MPI_Aint size)
{
    char *lo = size > 0 ? own : NULL, *hi = size > 0 ? own + size : NULL;
    int n = 0;
    PMPI_Comm_size(comm, &n);
    for (int q = 0; q < n; q++) {
        MPI_Aint qsize = 0;
        int unit;
        char *qbase = NULL;
        if (PMPI_Win_shared_query(win, q, &qsize, &unit, &qbase) !=
                MPI_SUCCESS || qsize <= 0 || !qbase)
            continue;
        if (!lo || qbase < lo)
            lo = qbase;
        if (!hi || qbase + qsize > hi)
            hi = qbase + qsize;
    }
    if (util_grow(&segs, &segs_cap, rec_shm_n + 1, sizeof *segs) < 0)
        rec_fail(fn, "out of memory for the shared-memory window table"
                 REC_NO_MEMORY);
    struct seg *s = &segs[rec_shm_n];
    *s = (struct seg){win, lo, lo ? (size_t)(hi - lo) : 0, NULL,
                      rec_rma_region_id()};
    if (s->size && !(s->shadow = calloc(1, s->size)))
        rec_fail(fn, "out of memory for a shared-memory window's shadow copy "
                 "(%zu bytes, the node's segment)" REC_NO_MEMORY, s->size);
    rec_shm_n++;
    return s;
}

int rec_shm_drop(MPI_Win win, char **base, size_t *size)
{
    size_t k = 0;
    int found = 0;
    for (size_t i = 0; i < rec_shm_n; i++) {
        if (segs[i].win == win) {
            *base = segs[i].base;
            *size = segs[i].size;
            found = 1;
            free(segs[i].shadow);
        } else {
            segs[k++] = segs[i];
        }
    }
    rec_shm_n = k;
    return found;
}

/*
 * The record: baseptr (RAW arg 4, the recorded address, NULL for an empty
 * part), win (HANDLE arg 5), the segment (RAW arg LOG_ARG_NONE: its
 * recorded address and its length, two uint64), then, as every
 * synchronizing record, the segments' changes: the new one's against
 * zeros (other ranks may have stored into it before this call returned).
 */
#define WIN_ALLOCATE_SHARED(NAME)                                            \
    void rec_##NAME(struct rec_call *c, struct args_##NAME *a)               \
    {                                                                        \
        uint64_t span[2] = {0, 0};                                           \
        rec_pmpi_##NAME(c, a);                                               \
        if (c->ret == MPI_SUCCESS) {                                         \
            const struct seg *s = seg_add(c->fn, *a->win, a->comm,           \
                                          *(char **)a->baseptr, a->size);    \
            span[0] = (uint64_t)(uintptr_t)s->base;                          \
            span[1] = s->size;                                               \
        }                                                                    \
        struct log_rec rec;                                                  \
        if (rec_frame_##NAME(c, a, &rec, REC_SYNC,                           \
                             2 * LOG_FIELD_HEAD + 8 + 16 +                   \
                                 LOG_HANDLE_ROOM)) {                         \
            if (c->ret == MPI_SUCCESS) {                                     \
                rec_put_raw(&rec, LOG_A_##NAME##_baseptr, 0, a->baseptr, 8); \
                log_put_handle(&rec, LOG_A_##NAME##_win, LOG_F_HANDLE, 0,    \
                               (uint32_t)*a->win);                           \
                rec_put_raw(&rec, LOG_ARG_NONE, 0, span, sizeof span);       \
            }                                                                \
            rec_end(&rec);                                                   \
        }                                                                    \
    }
REC_TWINS_MPI_Win_allocate_shared(WIN_ALLOCATE_SHARED)
