/*
 * Completions: the Wait and Test families, and MPI_Iprobe's polls. Every
 * Wait/Test function logs, for each request it completed, what
 * log/log-codec.h's completion layout holds: the handle before the call, its
 * status, and the data the request delivered (a receive: what its status
 * says arrived; a collective: its whole buffer, as registered). Element
 * numbers are indices into the program's arrays. A Test that completed
 * nothing (none was ready, or every request was inactive) and an
 * unsuccessful Iprobe are polls: repeated cycles of them are logged once
 * (rec_poll).
 * The mirror of replayer/rpl-complete.c.
 */
#include <stdlib.h>

#include "rec.h"

#define SMALL 64

/* Room needed to log the completion of a request with status ST, its
 * buffer E (or NULL); *BYTES gets the data bytes to log. */
static inline __attribute__((always_inline)) size_t
done_room(const struct log_buf *e, const MPI_Status *st, int64_t *bytes)
{
    *bytes = e && !(e->flags & LOG_BUF_DELIVERED) ? rec_buf_bytes(e, st) : 0;
    return LOG_DONE_ROOM + LOG_FIELD_HEAD + (e ? rec_buf_room(e, *bytes) : 0);
}

/* Whether MPI left status B alone but for a zero count and cancel bit:
 * what it does for a send request (MPI_SOURCE and MPI_TAG are undefined for
 * a send, MPICH does not write them). */
static int status_untouched(const MPI_Status *b, const MPI_Status *a)
{
    return a->count_lo == 0 && a->count_hi_and_cancelled == 0 &&
           a->MPI_SOURCE == b->MPI_SOURCE && a->MPI_TAG == b->MPI_TAG &&
           a->MPI_ERROR == b->MPI_ERROR;
}

/* Logs the completion of R, completed through the program's variable at
 * WHERE. BST (or NULL) is the status before the call: the STATUS of a
 * request that delivers no data is left out when MPI did not change it
 * but for its count (the replay zeroes the count). */
static void put_done(struct log_rec *rec, unsigned arg, uint64_t elem,
                     MPI_Request r, const MPI_Request *where,
                     const MPI_Status *st, int64_t bytes,
                     const MPI_Status *bst)
{
    struct log_buf *e = rec_req_find(r, where);
    /* (an entry with nothing to log: a collective's buffer not
     * significant here, registered so both sides pair alike) */
    int data = e && !(e->shape == LOG_BUF_COLL && e->n == 0) &&
               !(e->shape == LOG_BUF_VCOLL && e->peers == 0);
    int keep = st && !(bst && !data && status_untouched(bst, st));
    log_put_done(rec, arg, elem, (uint32_t)r, keep ? st : NULL);
    if (e) {
        rec_put_buf(rec, arg, elem, e, bytes);
        e->flags &= (uint8_t)~LOG_BUF_DELIVERED; /* a persistent one's next */
        rec_req_done(e, 0);
    }
}

/*
 * The status a Wait/Test function writes into. The program's own when it
 * has one, so fields MPI leaves alone (a send request's source and tag)
 * stay as the program had them; else LOCAL, set to MPI's empty status so
 * nothing uninitialized reaches the log.
 */
static MPI_Status *use_status(MPI_Status *user, MPI_Status *local)
{
    if (user != MPI_STATUS_IGNORE)
        return user;
    local->count_lo = local->count_hi_and_cancelled = 0;
    local->MPI_SOURCE = MPI_ANY_SOURCE;
    local->MPI_TAG = MPI_ANY_TAG;
    local->MPI_ERROR = MPI_SUCCESS;
    return local;
}

void rec_MPI_Wait(struct rec_call *c, struct args_MPI_Wait *a)
{
    MPI_Status local, *st = use_status(a->status, &local), bst = *st;
    MPI_Request before = *a->request;
    a->status = st;
    rec_pmpi_MPI_Wait(c, a);
    int64_t bytes;
    struct log_rec rec;
    if (rec_frame_MPI_Wait(c, a, &rec, 0,
                           LOG_FIELD_HEAD + 4 +
                               done_room(rec_req_find(before, a->request),
                                         st, &bytes))) {
        /* The request after the call, unless MPI_REQUEST_NULL. */
        if (*a->request != MPI_REQUEST_NULL)
            rec_put_raw(&rec, 0, 0, a->request, 4);
        put_done(&rec, 0, 0, before, a->request, st, bytes, &bst);
        rec_pending_done(before, *a->request);
        rec_end(&rec);
    }
}

void rec_MPI_Test(struct rec_call *c, struct args_MPI_Test *a)
{
    MPI_Status local, *st = use_status(a->status, &local), bst = *st;
    MPI_Request before = *a->request;
    a->status = st;
    rec_pmpi_MPI_Test(c, a);
    if (c->ret == MPI_SUCCESS && (!*a->flag || before == MPI_REQUEST_NULL)) {
        /* Nothing completed (not yet, or an inactive request): a poll. */
        uint8_t img[2 * LOG_FIELD_HEAD + 8 + LOG_DONE_ROOM];
        struct log_rec rec = {img, img};
        if (*a->request != MPI_REQUEST_NULL)
            rec_put_raw(&rec, 0, 0, a->request, 4);
        rec_put_raw(&rec, 1, 0, a->flag, 4);
        if (*a->flag)
            put_done(&rec, 0, 0, before, a->request, st, 0, &bst);
        rec_poll(c->fn, img, (size_t)(rec.p - img), c->t0, c->t1);
        return;
    }
    int64_t bytes = 0;
    size_t room = 2 * LOG_FIELD_HEAD + 8;
    if (*a->flag)
        room += done_room(rec_req_find(before, a->request), st, &bytes);
    struct log_rec rec;
    if (rec_frame_MPI_Test(c, a, &rec, 0, room)) {
        if (*a->request != MPI_REQUEST_NULL)
            rec_put_raw(&rec, 0, 0, a->request, 4);
        rec_put_raw(&rec, 1, 0, a->flag, 4);
        if (*a->flag) {
            put_done(&rec, 0, 0, before, a->request, st, bytes, &bst);
            rec_pending_done(before, *a->request);
        }
        rec_end(&rec);
    }
}

/*
 * MPI_Request_get_status: the request stays, but once FLAG is true the
 * operation is complete and the program may read a receive's buffer
 * before the Wait/Test that frees the request. So the data is logged here
 * (DATA, argument 0), after the generated layout (RAW flag, STATUS), and
 * not again at the completion (LOG_BUF_DELIVERED).
 */
void rec_MPI_Request_get_status(struct rec_call *c,
                                struct args_MPI_Request_get_status *a)
{
    MPI_Status local;
    a->status = use_status(a->status, &local);
    rec_pmpi_MPI_Request_get_status(c, a);
    int ok = c->ret == MPI_SUCCESS;
    if (ok && !*a->flag) { /* found nothing: held back (rec_poll) */
        uint8_t img[64];
        struct log_rec poll = {img, img};
        rec_put_args_MPI_Request_get_status(&poll, a);
        rec_put_raw(&poll, 1, 0, a->flag, 4);
        rec_poll(c->fn, img, (size_t)(poll.p - img), c->t0, c->t1);
        return;
    }
    struct log_buf *e = ok && *a->flag ? rec_req_find(a->request, NULL)
                                       : NULL;
    int64_t bytes = 0;
    if (e && !(e->flags & LOG_BUF_DELIVERED))
        bytes = rec_buf_bytes(e, a->status);
    struct log_rec rec;
    if (rec_frame_MPI_Request_get_status(c, a, &rec, 0,
                                         LOG_FIELD_HEAD + 4 + LOG_STATUS_ROOM +
                                         (e ? rec_buf_room(e, bytes) : 0))) {
        if (ok) {
            rec_put_raw(&rec, 1, 0, a->flag, 4);
            log_put_status(&rec, 2, 0, a->status);
        }
        if (e && !(e->flags & LOG_BUF_DELIVERED)) {
            rec_put_buf(&rec, 0, 0, e, bytes);
            e->flags |= LOG_BUF_DELIVERED;
        }
        rec_end(&rec);
    }
}

void rec_MPI_Iprobe(struct rec_call *c, struct args_MPI_Iprobe *a)
{
    MPI_Status local;
    a->status = use_status(a->status, &local);
    rec_pmpi_MPI_Iprobe(c, a);
    uint8_t img[64];
    struct log_rec rec = {img, img};
    rec_put_args_MPI_Iprobe(&rec, a);
    rec_put_raw(&rec, 3, 0, a->flag, 4);
    if (c->ret == MPI_SUCCESS && !*a->flag) {
        rec_poll(c->fn, img, (size_t)(rec.p - img), c->t0, c->t1);
        return;
    }
    size_t len = (size_t)(rec.p - img);
    if (rec_begin_at(&rec, c->fn, 0, c->ret, c->t0, c->t1,
                     len + LOG_STATUS_ROOM, c->caller)) {
        log_put_bytes(&rec, img, len);
        if (c->ret == MPI_SUCCESS && *a->flag)
            log_put_status(&rec, 4, 0, a->status);
        rec_end(&rec);
    }
}

/* ---- the array functions ------------------------------------------------
 * One record layout: the count (the by-value argument), the requests after
 * the call (RAW, argument 1) unless all are MPI_REQUEST_NULL, an extra RAW
 * (LOG_ARG_NONE: Testall's flag, Waitany/Testany's index and flag,
 * Waitsome/Testsome's outcount), then each completion (argument 1).
 */

/* What a call of the family needs around its PMPI call: the requests
 * before it, the statuses MPI writes, the statuses before it, which
 * completed, their data bytes, their entries' keys (log/buf.h). On the
 * stack for small counts. */
struct cpl {
    MPI_Request req[SMALL];
    MPI_Status st[SMALL], bst[SMALL];
    int done[SMALL];
    int64_t bytes[SMALL];
    uint32_t key[SMALL];
    MPI_Request *preq;
    MPI_Status *pst, *pbst;
    int *pdone;
    int64_t *pbytes;
    uint32_t *pkey;
    const MPI_Request *where; /* the program's array */
    int count;
};

static void cpl_release(struct cpl *k)
{
    if (k->preq != k->req) {
        free(k->preq);
        free(k->pst);
        free(k->pbst);
        free(k->pdone);
        free(k->pbytes);
        free(k->pkey);
    }
}

/* Takes the requests before the call; *STATUSES (MPI_STATUSES_IGNORE or
 * the program's) becomes where MPI writes them. -1 out of memory (the call
 * is then made unlogged). */
static int cpl_init(struct cpl *k, int count, const MPI_Request *reqs,
                    MPI_Status **statuses)
{
    k->count = count > 0 ? count : 0;
    if (count <= SMALL) {
        k->preq = k->req;
        k->pst = k->st;
        k->pbst = k->bst;
        k->pdone = k->done;
        k->pbytes = k->bytes;
        k->pkey = k->key;
    } else {
        k->preq = malloc((size_t)count * sizeof *k->preq);
        k->pst = malloc((size_t)count * sizeof *k->pst);
        k->pbst = malloc((size_t)count * sizeof *k->pbst);
        k->pdone = calloc((size_t)count, sizeof *k->pdone);
        k->pbytes = calloc((size_t)count, sizeof *k->pbytes);
        k->pkey = calloc((size_t)count, sizeof *k->pkey);
        if (!k->preq || !k->pst || !k->pbst || !k->pdone || !k->pbytes ||
            !k->pkey) {
            cpl_release(k);
            return -1;
        }
    }
    memcpy(k->preq, reqs, (size_t)k->count * sizeof *reqs);
    k->where = reqs;
    if (statuses && *statuses == MPI_STATUSES_IGNORE) {
        for (int i = 0; i < k->count; i++)
            use_status(MPI_STATUS_IGNORE, &k->pst[i]);
        *statuses = k->pst;
    }
    return 0;
}

/* Room for the record's fields: AFTER's requests, EXTRA_LEN bytes, and
 * the completions K->pdone marks, with statuses ST. Each completion's
 * entry is the one cpl_put finds after the ones before it are forgotten:
 * those are passed over (K->pkey; 0 for none: MPICH's builtin requests,
 * one handle for many operations, log/buf.h). */
static size_t cpl_room(struct cpl *k, const MPI_Status *st, size_t extra_len)
{
    size_t room = LOG_FIELD_HEAD + (size_t)k->count * 4 + extra_len +
                  LOG_FIELD_HEAD;
    for (int i = 0; i < k->count; i++) {
        k->pkey[i] = 0;
        if (k->pdone[i]) {
            struct log_buf *e = rec_req_pick(k->preq[i], &k->where[i],
                                             k->pkey, (unsigned)i);
            k->pkey[i] = e ? e->req : 0;
            room += done_room(e, &st[i], &k->pbytes[i]);
        }
    }
    return room;
}

/* The fields of the record (its arguments written). BST: the statuses
 * before the call (Waitall, Testall), else NULL. */
static void cpl_put(struct log_rec *rec, struct cpl *k,
                    const MPI_Request *after, const MPI_Status *st,
                    const void *extra, size_t extra_len,
                    const MPI_Status *bst)
{
    /* The requests after the call, unless all are MPI_REQUEST_NULL (the
     * usual case: completed requests become NULL). */
    int all_null = 1;
    for (int i = 0; i < k->count && all_null; i++)
        all_null = after[i] == MPI_REQUEST_NULL;
    if (!all_null)
        rec_put_raw(rec, 1, 0, after, (size_t)k->count * 4);
    if (extra_len)
        rec_put_raw(rec, LOG_ARG_NONE, 0, extra, extra_len);
    for (int i = 0; i < k->count; i++)
        if (k->pdone[i]) {
            put_done(rec, 1, (uint64_t)i, k->preq[i], &k->where[i], &st[i],
                     k->pbytes[i], bst ? &bst[i] : NULL);
            rec_pending_done(k->preq[i], after[i]);
        }
}

/* An unsuccessful Testall/Testany/Testsome: the same layout with nothing
 * completed, through the poll compressor; ARGS holds the record's argument
 * block. 0 when too large to compress (then it is logged normally). */
static int poll_fail(const struct rec_call *c, const struct log_rec *args,
                     const uint8_t *img, const MPI_Request *after, int count,
                     const void *extra, size_t extra_len)
{
    enum { IMG = 480 };
    uint8_t buf[IMG];
    size_t alen = (size_t)(args->p - img);
    if (LOG_ARG_ROOM32 + 2 * LOG_FIELD_HEAD + (size_t)count * 4 + extra_len >
        IMG)
        return 0;
    struct log_rec rec = {buf, buf};
    log_put_bytes(&rec, img, alen);
    rec_put_raw(&rec, 1, 0, after, (size_t)count * 4);
    if (extra_len)
        rec_put_raw(&rec, LOG_ARG_NONE, 0, extra, extra_len);
    rec_poll(c->fn, buf, (size_t)(rec.p - buf), c->t0, c->t1);
    return 1;
}

/* Whether every request of K was inactive (MPI_REQUEST_NULL) before. */
static int cpl_inactive(const struct cpl *k)
{
    for (int i = 0; i < k->count; i++)
        if (k->preq[i] != MPI_REQUEST_NULL)
            return 0;
    return 1;
}

/* Marks every request of K that was active as completed (Waitall, and
 * Testall when *FLAG). */
static void cpl_all(struct cpl *k)
{
    for (int i = 0; i < k->count; i++)
        k->pdone[i] = k->preq[i] != MPI_REQUEST_NULL;
}

/* Marks Waitany/Testany's completion at INDEX, its status ST. */
static void cpl_any(struct cpl *k, int index, const MPI_Status *st)
{
    memset(k->pdone, 0, (size_t)k->count * sizeof *k->pdone);
    if (index != MPI_UNDEFINED && index >= 0 && index < k->count) {
        k->pdone[index] = 1;
        k->pst[index] = *st;
    }
}

/* Marks Waitsome/Testsome's N completions at INDICES: PMPI wrote ST[k] for
 * the k-th; they are logged by request index (K->pst, free scratch once
 * copied out). */
static void cpl_some(struct cpl *k, int n, const int *indices,
                     const MPI_Status *st)
{
    memset(k->pdone, 0, (size_t)k->count * sizeof *k->pdone);
    if (n <= 0)
        return;
    MPI_Status tmp[SMALL], *t = n <= SMALL ? tmp : malloc((size_t)n * sizeof *t);
    if (!t)
        return;
    memcpy(t, st, (size_t)n * sizeof *t);
    for (int j = 0; j < n; j++) {
        k->pdone[indices[j]] = 1;
        k->pst[indices[j]] = t[j];
    }
    if (t != tmp)
        free(t);
}

/* Logs a call of the family NAME after the call (statuses ST, extra RAW
 * field EXTRA of EXTRA_LEN bytes, statuses before BST or NULL). */
#define CPL_LOG(NAME, ST, EXTRA, EXTRA_LEN, BST)                            \
    do {                                                                   \
        struct log_rec rec;                                                \
        if (rec_frame_##NAME(c, a, &rec, 0,                                \
                             cpl_room(&k, ST, EXTRA_LEN)) ) {              \
            cpl_put(&rec, &k, a->array_of_requests, ST, EXTRA, EXTRA_LEN,  \
                    BST);                                                  \
            rec_end(&rec);                                                 \
        }                                                                  \
        cpl_release(&k);                                                   \
    } while (0)

/* A poll that completed nothing, compressed: the hook is done. */
#define CPL_POLL(NAME, EXTRA, EXTRA_LEN)                                    \
    do {                                                                   \
        uint8_t img[LOG_ARG_ROOM32];                                       \
        struct log_rec args = {img, img};                                  \
        rec_put_args_##NAME(&args, a);                                     \
        if (poll_fail(c, &args, img, a->array_of_requests, k.count, EXTRA, \
                      EXTRA_LEN)) {                                        \
            cpl_release(&k);                                               \
            return;                                                        \
        }                                                                  \
    } while (0)

void rec_MPI_Waitall(struct rec_call *c, struct args_MPI_Waitall *a)
{
    struct cpl k;
    if (cpl_init(&k, a->count, a->array_of_requests,
                 &a->array_of_statuses) < 0) {
        rec_pmpi_MPI_Waitall(c, a);
        return;
    }
    memcpy(k.pbst, a->array_of_statuses, (size_t)k.count * sizeof *k.pbst);
    rec_pmpi_MPI_Waitall(c, a);
    cpl_all(&k);
    CPL_LOG(MPI_Waitall, a->array_of_statuses, NULL, 0, k.pbst);
}

void rec_MPI_Testall(struct rec_call *c, struct args_MPI_Testall *a)
{
    struct cpl k;
    if (cpl_init(&k, a->count, a->array_of_requests,
                 &a->array_of_statuses) < 0) {
        rec_pmpi_MPI_Testall(c, a);
        return;
    }
    memcpy(k.pbst, a->array_of_statuses, (size_t)k.count * sizeof *k.pbst);
    rec_pmpi_MPI_Testall(c, a);
    if ((!*a->flag || cpl_inactive(&k)) && c->ret == MPI_SUCCESS)
        CPL_POLL(MPI_Testall, a->flag, 4);
    if (*a->flag)
        cpl_all(&k);
    else
        memset(k.pdone, 0, (size_t)k.count * sizeof *k.pdone);
    CPL_LOG(MPI_Testall, a->array_of_statuses, a->flag, 4, k.pbst);
}

void rec_MPI_Waitany(struct rec_call *c, struct args_MPI_Waitany *a)
{
    struct cpl k;
    MPI_Status local;
    if (cpl_init(&k, a->count, a->array_of_requests, NULL) < 0) {
        rec_pmpi_MPI_Waitany(c, a);
        return;
    }
    a->status = use_status(a->status, &local);
    rec_pmpi_MPI_Waitany(c, a);
    int extra[2] = {*a->indx, 1};
    cpl_any(&k, *a->indx, a->status);
    CPL_LOG(MPI_Waitany, k.pst, extra, sizeof extra, NULL);
}

void rec_MPI_Testany(struct rec_call *c, struct args_MPI_Testany *a)
{
    struct cpl k;
    MPI_Status local;
    if (cpl_init(&k, a->count, a->array_of_requests, NULL) < 0) {
        rec_pmpi_MPI_Testany(c, a);
        return;
    }
    a->status = use_status(a->status, &local);
    rec_pmpi_MPI_Testany(c, a);
    int extra[2] = {*a->indx, *a->flag};
    if ((!*a->flag || *a->indx == MPI_UNDEFINED) && c->ret == MPI_SUCCESS)
        CPL_POLL(MPI_Testany, extra, sizeof extra);
    cpl_any(&k, *a->indx, a->status);
    CPL_LOG(MPI_Testany, k.pst, extra, sizeof extra, NULL);
}

void rec_MPI_Waitsome(struct rec_call *c, struct args_MPI_Waitsome *a)
{
    struct cpl k;
    if (cpl_init(&k, a->incount, a->array_of_requests,
                 &a->array_of_statuses) < 0) {
        rec_pmpi_MPI_Waitsome(c, a);
        return;
    }
    rec_pmpi_MPI_Waitsome(c, a);
    int extra[1] = {*a->outcount};
    cpl_some(&k, *a->outcount == MPI_UNDEFINED ? 0 : *a->outcount,
             a->array_of_indices, a->array_of_statuses);
    CPL_LOG(MPI_Waitsome, k.pst, extra, sizeof extra, NULL);
}

void rec_MPI_Testsome(struct rec_call *c, struct args_MPI_Testsome *a)
{
    struct cpl k;
    if (cpl_init(&k, a->incount, a->array_of_requests,
                 &a->array_of_statuses) < 0) {
        rec_pmpi_MPI_Testsome(c, a);
        return;
    }
    rec_pmpi_MPI_Testsome(c, a);
    int extra[1] = {*a->outcount};
    if ((*a->outcount == 0 || *a->outcount == MPI_UNDEFINED) &&
        c->ret == MPI_SUCCESS)
        CPL_POLL(MPI_Testsome, extra, sizeof extra);
    cpl_some(&k, *a->outcount == MPI_UNDEFINED ? 0 : *a->outcount,
             a->array_of_indices, a->array_of_statuses);
    CPL_LOG(MPI_Testsome, k.pst, extra, sizeof extra, NULL);
}
