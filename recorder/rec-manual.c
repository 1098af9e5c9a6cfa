/*
 * Hand-written wrappers: the functions whose logging does not follow from
 * the spec's annotations (class 'manual'). They replace the generated weak
 * wrappers of the same name.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rec.h"
#include "util.h"

void rec_open(void);
void rec_close(void);

/* ---- the request-to-buffer table ---------------------------------------
 * Entries are struct rec_buf (rec.h): 56 bytes, keyed by the request
 * handle. Open addressing with linear probing; grows (rarely) by doubling,
 * the only allocation. A receive's entry goes when its request completes; a
 * persistent request's (REC_PERSISTENT) stays until MPI_Request_free, and
 * each completion logs the buffer again.
 */
_Static_assert(sizeof(struct rec_buf) == 56, "keep table entries small");
static struct util_htab reqs =
    UTIL_HTAB_INIT(struct rec_buf, req, MPI_REQUEST_NULL);

static struct rec_buf *req_find(MPI_Request r)
{
    return util_htab_find(&reqs, r);
}

static void req_insert(const struct rec_buf *e)
{
    if (util_htab_put(&reqs, e) < 0) {
        fputs("drdb-record: out of memory for the request table\n", stderr);
        abort();
    }
}

void rec_req_add(const struct rec_buf *b)
{
    if (b->req != MPI_REQUEST_NULL)
        req_insert(b);
}

void rec_req_recv(MPI_Request req, int fn, void *buf, int64_t n,
                  MPI_Datatype type, int persistent)
{
    struct rec_buf e = {.buf = buf, .n = n, .type = type, .req = req,
                        .fn = (uint16_t)fn, .shape = REC_RECV,
                        .flags = persistent ? REC_PERSISTENT : 0};
    rec_req_add(&e);
}

void rec_req_coll(MPI_Request req, int fn, void *buf, int64_t n,
                  MPI_Datatype type, int persistent)
{
    struct rec_buf e = {.buf = buf, .n = n, .type = type, .req = req,
                        .fn = (uint16_t)fn, .shape = REC_COLL,
                        .flags = persistent ? REC_PERSISTENT : 0};
    if (n > 0)
        rec_req_add(&e);
}

void rec_req_vcoll(MPI_Request req, int fn, void *buf, int peers,
                   const void *counts, size_t csize, const void *displs,
                   size_t dsize, MPI_Datatype type, int persistent)
{
    struct rec_buf e = {
        .buf = buf, .counts = counts, .displs = displs, .type = type,
        .peers = peers, .req = req, .fn = (uint16_t)fn, .shape = REC_VCOLL,
        .flags = (uint8_t)((persistent ? REC_PERSISTENT : 0) |
                           (csize == 8 ? REC_COUNTS64 : 0) |
                           (dsize == 8 ? REC_DISPLS64 : 0))};
    if (peers > 0)
        rec_req_add(&e);
}

/* ---- completions --------------------------------------------------------
 * Every Wait/Test function logs, for each request it completed: a REQUEST
 * field (the handle before the call), its STATUS, and the DATA the request
 * delivered (a receive: what its status says arrived; a collective: its
 * whole buffer, as registered). Element numbers are indices into the user's
 * arrays.
 */

/* Room needed to log the completion of request R with status ST; *BYTES
 * gets the data bytes to log. */
static size_t done_room(MPI_Request r, const MPI_Status *st,
                        int64_t *bytes)
{
    struct rec_buf *e = req_find(r);
    *bytes = e ? rec_buf_bytes(e, st) : 0;
    return LOG_HANDLE_ROOM + LOG_FIELD_HEAD + LOG_STATUS_ROOM +
           (e ? rec_buf_room(e, *bytes) : 0);
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

/* Logs the completion of R. BST (or NULL) is the status before the call:
 * the STATUS of a request that delivers no data is left out when MPI did
 * not change it but for its count (the replay zeroes the count). */
static void put_done(struct log_rec *rec, unsigned arg, uint64_t elem,
                     MPI_Request r, const MPI_Status *st, int64_t bytes,
                     const MPI_Status *bst)
{
    struct rec_buf *e = req_find(r);
    log_put_handle(rec, arg, LOG_F_REQUEST, elem, (uint32_t)r);
    if (st && !(bst && !e && status_untouched(bst, st)))
        log_put_status(rec, arg, elem, st);
    if (e) {
        rec_put_buf(rec, arg, elem, e, bytes);
        if (!(e->flags & REC_PERSISTENT))
            util_htab_remove(&reqs, e);
    }
}

#define SMALL 64

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

/* Common body for the array functions: requests in/out, statuses, which
 * completed (DONE[i]), logged as one record. */
static int log_completions(int fn, int ret, uint64_t t0, uint64_t t1,
                           int count, const MPI_Request *before,
                           const MPI_Request *after, const MPI_Status *st,
                           const int *done, const void *extra, size_t extra_len,
                           int64_t *bytes, const MPI_Status *bst)
{
    size_t room = LOG_ARG_ROOM32 + LOG_FIELD_HEAD + (size_t)count * 4 +
                  extra_len + LOG_FIELD_HEAD;
    for (int i = 0; i < count; i++)
        if (done[i])
            room += done_room(before[i], &st[i], &bytes[i]);
    struct log_rec rec;
    if (!rec_begin(&rec, fn, 0, ret, t0, t1, room))
        return ret;
    log_put_arg_int(&rec, count);
    /* The requests after the call, unless all are MPI_REQUEST_NULL (the
     * usual case: completed requests become NULL). */
    int all_null = 1;
    for (int i = 0; i < count && all_null; i++)
        all_null = after[i] == MPI_REQUEST_NULL;
    if (!all_null)
        rec_put_raw(&rec, 1, 0, after, (size_t)count * 4);
    if (extra_len)
        rec_put_raw(&rec, LOG_ARG_NONE, 0, extra, extra_len);
    for (int i = 0; i < count; i++)
        if (done[i])
            put_done(&rec, 1, (uint64_t)i, before[i], &st[i], bytes[i],
                     bst ? &bst[i] : NULL);
    rec_end(&rec);
    return ret;
}

/* An unsuccessful Testall/Testany/Testsome: the same record layout as
 * log_completions() with nothing completed, through the poll compressor.
 * 0 when too large to compress (then it is logged normally). */
static int poll_fail(int fn, int count, const MPI_Request *after,
                     const void *extra, size_t extra_len, uint64_t t0,
                     uint64_t t1)
{
    uint8_t img[480];
    if (LOG_ARG_ROOM32 + 2 * LOG_FIELD_HEAD + (size_t)count * 4 + extra_len >
        sizeof img)
        return 0;
    struct log_rec rec = {img, img};
    log_put_arg_int(&rec, count);
    rec_put_raw(&rec, 1, 0, after, (size_t)count * 4);
    if (extra_len)
        rec_put_raw(&rec, LOG_ARG_NONE, 0, extra, extra_len);
    rec_poll(fn, img, (size_t)(rec.p - img), t0, t1);
    return 1;
}

/* Scratch arrays: on the stack for small counts. */
struct scratch {
    MPI_Request req[SMALL];
    MPI_Status st[SMALL], bst[SMALL];
    int done[SMALL];
    int64_t bytes[SMALL];
    MPI_Request *preq;
    MPI_Status *pst, *pbst;
    int *pdone;
    int64_t *pbytes;
};

static int scratch_init(struct scratch *s, int count)
{
    if (count <= SMALL) {
        s->preq = s->req;
        s->pst = s->st;
        s->pbst = s->bst;
        s->pdone = s->done;
        s->pbytes = s->bytes;
        return 0;
    }
    s->preq = malloc((size_t)count * sizeof *s->preq);
    s->pst = malloc((size_t)count * sizeof *s->pst);
    s->pbst = malloc((size_t)count * sizeof *s->pbst);
    s->pdone = calloc((size_t)count, sizeof *s->pdone);
    s->pbytes = calloc((size_t)count, sizeof *s->pbytes);
    return s->preq && s->pst && s->pbst && s->pdone && s->pbytes ? 0 : -1;
}

static void scratch_release(struct scratch *s)
{
    if (s->preq != s->req) {
        free(s->preq);
        free(s->pst);
        free(s->pbst);
        free(s->pdone);
        free(s->pbytes);
    }
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    if (!rec_on)
        return PMPI_Wait(request, status);
    MPI_Status local, *st = use_status(status, &local), bst = *st;
    MPI_Request before = *request;
    uint64_t t0 = rec_now();
    int ret = PMPI_Wait(request, st);
    uint64_t t1 = rec_now();
    int64_t bytes;
    struct log_rec rec;
    if (rec_begin(&rec, LOG_FN_MPI_Wait, 0, ret, t0, t1,
                  LOG_FIELD_HEAD + 4 + done_room(before, st, &bytes))) {
        /* The request after the call, unless MPI_REQUEST_NULL. */
        if (*request != MPI_REQUEST_NULL)
            rec_put_raw(&rec, 0, 0, request, 4);
        put_done(&rec, 0, 0, before, st, bytes, &bst);
        rec_end(&rec);
    }
    return ret;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (!rec_on)
        return PMPI_Test(request, flag, status);
    MPI_Status local, *st = use_status(status, &local), bst = *st;
    MPI_Request before = *request;
    uint64_t t0 = rec_now();
    int ret = PMPI_Test(request, flag, st);
    uint64_t t1 = rec_now();
    if (ret == MPI_SUCCESS && !*flag) {
        uint8_t img[32];
        struct log_rec rec = {img, img};
        if (*request != MPI_REQUEST_NULL)
            rec_put_raw(&rec, 0, 0, request, 4);
        rec_put_raw(&rec, 1, 0, flag, 4);
        rec_poll(LOG_FN_MPI_Test, img, (size_t)(rec.p - img), t0, t1);
        return ret;
    }
    int64_t bytes = 0;
    size_t room = 2 * LOG_FIELD_HEAD + 8;
    if (*flag)
        room += done_room(before, st, &bytes);
    struct log_rec rec;
    if (rec_begin(&rec, LOG_FN_MPI_Test, 0, ret, t0, t1, room)) {
        if (*request != MPI_REQUEST_NULL)
            rec_put_raw(&rec, 0, 0, request, 4);
        rec_put_raw(&rec, 1, 0, flag, 4);
        if (*flag)
            put_done(&rec, 0, 0, before, st, bytes, &bst);
        rec_end(&rec);
    }
    return ret;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
               MPI_Status *status)
{
    if (!rec_on)
        return PMPI_Iprobe(source, tag, comm, flag, status);
    MPI_Status local, *st = use_status(status, &local);
    uint64_t t0 = rec_now();
    int ret = PMPI_Iprobe(source, tag, comm, flag, st);
    uint64_t t1 = rec_now();
    uint8_t img[64];
    struct log_rec rec = {img, img};
    log_put_arg_int(&rec, source);
    log_put_arg_int(&rec, tag);
    log_put_arg_handle(&rec, (uint32_t)comm);
    rec_put_raw(&rec, 3, 0, flag, 4);
    if (ret == MPI_SUCCESS && !*flag) {
        rec_poll(LOG_FN_MPI_Iprobe, img, (size_t)(rec.p - img), t0, t1);
        return ret;
    }
    size_t len = (size_t)(rec.p - img);
    if (rec_begin(&rec, LOG_FN_MPI_Iprobe, 0, ret, t0, t1,
                  len + LOG_STATUS_ROOM)) {
        log_put_bytes(&rec, img, len);
        if (ret == MPI_SUCCESS && *flag)
            log_put_status(&rec, 4, 0, st);
        rec_end(&rec);
    }
    return ret;
}

/* Waitall/Testall: every request completes (Testall: when *flag). */
static int all_common(int fn, int count, MPI_Request reqs_[], int *flag,
                      MPI_Status statuses[])
{
    struct scratch s;
    if (scratch_init(&s, count) < 0) {
        scratch_release(&s);
        return fn == LOG_FN_MPI_Waitall
                   ? PMPI_Waitall(count, reqs_, statuses)
                   : PMPI_Testall(count, reqs_, flag, statuses);
    }
    memcpy(s.preq, reqs_, (size_t)count * sizeof *reqs_);
    MPI_Status *st = statuses;
    if (st == MPI_STATUSES_IGNORE) {
        for (int i = 0; i < count; i++)
            use_status(MPI_STATUS_IGNORE, &s.pst[i]);
        st = s.pst;
    }
    memcpy(s.pbst, st, (size_t)count * sizeof *st);
    uint64_t t0 = rec_now();
    int ret = fn == LOG_FN_MPI_Waitall ? PMPI_Waitall(count, reqs_, st)
                                       : PMPI_Testall(count, reqs_, flag, st);
    uint64_t t1 = rec_now();
    int completed = fn == LOG_FN_MPI_Waitall || *flag;
    if (!completed && ret == MPI_SUCCESS &&
        poll_fail(fn, count, reqs_, flag, 4, t0, t1)) {
        scratch_release(&s);
        return ret;
    }
    for (int i = 0; i < count; i++)
        s.pdone[i] = completed && s.preq[i] != MPI_REQUEST_NULL;
    ret = log_completions(fn, ret, t0, t1, count, s.preq, reqs_, st,
                          s.pdone, flag, flag ? 4 : 0, s.pbytes, s.pbst);
    scratch_release(&s);
    return ret;
}

int MPI_Waitall(int count, MPI_Request array_of_requests[],
                MPI_Status array_of_statuses[])
{
    if (!rec_on)
        return PMPI_Waitall(count, array_of_requests, array_of_statuses);
    return all_common(LOG_FN_MPI_Waitall, count, array_of_requests, NULL,
                      array_of_statuses);
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                MPI_Status array_of_statuses[])
{
    if (!rec_on)
        return PMPI_Testall(count, array_of_requests, flag,
                            array_of_statuses);
    return all_common(LOG_FN_MPI_Testall, count, array_of_requests, flag,
                      array_of_statuses);
}

/* Waitany/Testany: at most one completes, at *index. */
static int any_common(int fn, int count, MPI_Request reqs_[], int *index,
                      int *flag, MPI_Status *status)
{
    struct scratch s;
    if (scratch_init(&s, count) < 0) {
        scratch_release(&s);
        return fn == LOG_FN_MPI_Waitany
                   ? PMPI_Waitany(count, reqs_, index, status)
                   : PMPI_Testany(count, reqs_, index, flag, status);
    }
    memcpy(s.preq, reqs_, (size_t)count * sizeof *reqs_);
    MPI_Status local, *st = use_status(status, &local);
    uint64_t t0 = rec_now();
    int ret = fn == LOG_FN_MPI_Waitany
                  ? PMPI_Waitany(count, reqs_, index, st)
                  : PMPI_Testany(count, reqs_, index, flag, st);
    uint64_t t1 = rec_now();
    int extra[2] = {*index, flag ? *flag : 1};
    if (flag && !*flag && ret == MPI_SUCCESS &&
        poll_fail(fn, count, reqs_, extra, sizeof extra, t0, t1)) {
        scratch_release(&s);
        return ret;
    }
    memset(s.pdone, 0, (size_t)count * sizeof *s.pdone);
    if (*index != MPI_UNDEFINED && *index >= 0 && *index < count) {
        s.pdone[*index] = 1;
        s.pst[*index] = *st;
    }
    ret = log_completions(fn, ret, t0, t1, count, s.preq, reqs_, s.pst,
                          s.pdone, extra, sizeof extra, s.pbytes, NULL);
    scratch_release(&s);
    return ret;
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int *indx,
                MPI_Status *status)
{
    if (!rec_on)
        return PMPI_Waitany(count, array_of_requests, indx, status);
    return any_common(LOG_FN_MPI_Waitany, count, array_of_requests, indx,
                      NULL, status);
}

int MPI_Testany(int count, MPI_Request array_of_requests[], int *indx,
                int *flag, MPI_Status *status)
{
    if (!rec_on)
        return PMPI_Testany(count, array_of_requests, indx, flag, status);
    return any_common(LOG_FN_MPI_Testany, count, array_of_requests, indx,
                      flag, status);
}

/* Waitsome/Testsome: *outcount complete, at array_of_indices[]. */
static int some_common(int fn, int count, MPI_Request reqs_[], int *outcount,
                       int indices[], MPI_Status statuses[])
{
    struct scratch s;
    if (scratch_init(&s, count) < 0) {
        scratch_release(&s);
        return fn == LOG_FN_MPI_Waitsome
                   ? PMPI_Waitsome(count, reqs_, outcount, indices, statuses)
                   : PMPI_Testsome(count, reqs_, outcount, indices, statuses);
    }
    memcpy(s.preq, reqs_, (size_t)count * sizeof *reqs_);
    MPI_Status *st = statuses;
    if (st == MPI_STATUSES_IGNORE) {
        for (int i = 0; i < count; i++)
            use_status(MPI_STATUS_IGNORE, &s.pst[i]);
        st = s.pst;
    }
    uint64_t t0 = rec_now();
    int ret = fn == LOG_FN_MPI_Waitsome
                  ? PMPI_Waitsome(count, reqs_, outcount, indices, st)
                  : PMPI_Testsome(count, reqs_, outcount, indices, st);
    uint64_t t1 = rec_now();
    int extra[1] = {*outcount};
    if (fn == LOG_FN_MPI_Testsome && *outcount == 0 && ret == MPI_SUCCESS &&
        poll_fail(fn, count, reqs_, extra, sizeof extra, t0, t1)) {
        scratch_release(&s);
        return ret;
    }
    memset(s.pdone, 0, (size_t)count * sizeof *s.pdone);
    int n = *outcount == MPI_UNDEFINED ? 0 : *outcount;
    /* PMPI wrote st[k] for the k-th completion; log them by request
     * index (s.pst is free scratch once copied out). */
    MPI_Status *byreq = s.pst;
    if (n > 0) {
        MPI_Status tmp[SMALL], *t = n <= SMALL ? tmp : malloc((size_t)n * sizeof *t);
        if (t) {
            memcpy(t, st, (size_t)n * sizeof *t);
            for (int k = 0; k < n; k++) {
                s.pdone[indices[k]] = 1;
                byreq[indices[k]] = t[k];
            }
            if (t != tmp)
                free(t);
        }
    }
    ret = log_completions(fn, ret, t0, t1, count, s.preq, reqs_, byreq,
                          s.pdone, extra, sizeof extra, s.pbytes, NULL);
    scratch_release(&s);
    return ret;
}

int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (!rec_on)
        return PMPI_Waitsome(incount, array_of_requests, outcount,
                             array_of_indices, array_of_statuses);
    return some_common(LOG_FN_MPI_Waitsome, incount, array_of_requests,
                       outcount, array_of_indices, array_of_statuses);
}

int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (!rec_on)
        return PMPI_Testsome(incount, array_of_requests, outcount,
                             array_of_indices, array_of_statuses);
    return some_common(LOG_FN_MPI_Testsome, incount, array_of_requests,
                       outcount, array_of_indices, array_of_statuses);
}

int MPI_Request_free(MPI_Request *request)
{
    struct rec_buf *e = rec_on ? req_find(*request) : NULL;
    if (e)
        util_htab_remove(&reqs, e);
    if (!rec_on)
        return PMPI_Request_free(request);
    MPI_Request before = *request;
    uint64_t t0 = rec_now();
    int ret = PMPI_Request_free(request);
    uint64_t t1 = rec_now();
    struct log_rec rec;
    if (rec_begin(&rec, LOG_FN_MPI_Request_free, 0, ret, t0, t1,
                  LOG_HANDLE_ROOM + LOG_FIELD_HEAD + 4)) {
        log_put_handle(&rec, 0, LOG_F_REQUEST, 0, (uint32_t)before);
        rec_put_raw(&rec, 0, 0, request, 4);
        rec_end(&rec);
    }
    return ret;
}

/* ---- collectives the spec cannot size ------------------------------------
 * MPI_Reduce_scatter (this rank's block: recvcounts[rank] x datatype) and
 * the w-variants (a count, a byte displacement and a type per peer). Their
 * records look like generated ones: the by-value arguments (all 4 bytes
 * here), then --send-data's DATA for sendbuf (argument 0), the received
 * DATA (blocking), or the request as RAW (nonblocking and persistent), the
 * receive buffer being registered for the completion to log.
 */

/* Logs collective FN after the call. ARGS: the NARGS by-value arguments.
 * SEND (or NULL): sendbuf's data. RECV (or NULL): what the call writes, at
 * argument RECV_ARG. REQUEST: NULL for a blocking call, else argument
 * REQ_ARG, and RECV is registered under it. */
static int log_coll(int fn, int ret, uint64_t t0, uint64_t t1,
                    const uint32_t *args, int nargs,
                    const struct rec_buf *send, struct rec_buf *recv,
                    unsigned recv_arg, MPI_Request *request, unsigned req_arg)
{
    int ok = ret == MPI_SUCCESS;
    int64_t sbytes = ok && send && rec_send_data ? rec_buf_bytes(send, NULL)
                                                 : 0;
    int64_t rbytes = ok && recv && !request ? rec_buf_bytes(recv, NULL) : 0;
    const struct log_func_desc *d = log_func_by_id(fn);
    size_t room = LOG_ARG_ROOM64 * (size_t)nargs + LOG_FIELD_HEAD + 4;
    if (sbytes)
        room += rec_buf_room(send, sbytes);
    if (rbytes)
        room += rec_buf_room(recv, rbytes);
    struct log_rec rec;
    if (!rec_begin(&rec, fn, 0, ret, t0, t1, room))
        return ret;
    /* ARGS holds the by-value arguments in order: their encodings are the
     * function's. */
    for (int i = 0, k = 0; d && i < d->nargs && k < nargs; i++)
        if (d->args[i].enc)
            log_put_arg(&rec, d->args[i].enc, (int32_t)args[k++]);
    if (sbytes)
        rec_put_buf(&rec, 0, 0, send, sbytes);
    if (rbytes)
        rec_put_buf(&rec, recv_arg, 0, recv, rbytes);
    if (ok && request) {
        rec_put_raw(&rec, req_arg, 0, request, 4);
        if (recv) {
            recv->req = *request;
            recv->fn = (uint16_t)fn;
            rec_req_add(recv);
        }
    }
    rec_end(&rec);
    return ret;
}

/* Reduce_scatter after a successful call: the block this rank gets (RECV),
 * and (intracommunicator, not in place) the whole send vector (SEND). */
static void rs_bufs(const void *sendbuf, void *recvbuf, const void *counts,
                    size_t csize, MPI_Datatype type, MPI_Comm comm,
                    int persistent, struct rec_buf *send,
                    struct rec_buf *recv, const struct rec_buf **sendp)
{
    int rank = 0, size = 0, inter = 0;
    PMPI_Comm_rank(comm, &rank);
    *recv = (struct rec_buf){
        .buf = recvbuf, .type = type, .shape = REC_COLL,
        .flags = persistent ? REC_PERSISTENT : 0,
        .n = csize == 8 ? ((const int64_t *)counts)[rank]
                        : ((const int *)counts)[rank]};
    *sendp = NULL;
    if (!rec_send_data || sendbuf == MPI_IN_PLACE)
        return;
    /* An intercommunicator's send vector is sized by the remote group's
     * counts, which this process does not know. */
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        return;
    PMPI_Comm_size(comm, &size);
    *send = (struct rec_buf){.buf = (void *)sendbuf, .type = type,
                             .shape = REC_COLL};
    for (int i = 0; i < size; i++)
        send->n += csize == 8 ? ((const int64_t *)counts)[i]
                              : ((const int *)counts)[i];
    *sendp = send;
}

/* Arguments: sendbuf 0, recvbuf 1, recvcounts 2, datatype 3, op 4, comm 5,
 * then (nonblocking) request 6 or (persistent) info 6, request 7. */
#define REC_REDUCE_SCATTER(NAME, CT)                                         \
    int NAME(const void *sendbuf, void *recvbuf, const CT recvcounts[],     \
             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)                \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(sendbuf, recvbuf, recvcounts, datatype, op,      \
                           comm);                                            \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(sendbuf, recvbuf, recvcounts, datatype, op, comm); \
        uint64_t t1 = rec_now();                                             \
        struct rec_buf s, r;                                                 \
        const struct rec_buf *sp = NULL;                                     \
        if (ret == MPI_SUCCESS)                                              \
            rs_bufs(sendbuf, recvbuf, recvcounts, sizeof(CT), datatype,     \
                    comm, 0, &s, &r, &sp);                                   \
        uint32_t args[] = {(uint32_t)datatype, (uint32_t)op,                 \
                           (uint32_t)comm};                                  \
        return log_coll(LOG_FN_##NAME, ret, t0, t1, args, 3, sp,            \
                        ret == MPI_SUCCESS ? &r : NULL, 1, NULL, 0);         \
    }
#define REC_IREDUCE_SCATTER(NAME, CT)                                        \
    int NAME(const void *sendbuf, void *recvbuf, const CT recvcounts[],     \
             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,                \
             MPI_Request *request)                                           \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(sendbuf, recvbuf, recvcounts, datatype, op, comm, \
                           request);                                         \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(sendbuf, recvbuf, recvcounts, datatype, op, comm, \
                          request);                                          \
        uint64_t t1 = rec_now();                                             \
        struct rec_buf s, r;                                                 \
        const struct rec_buf *sp = NULL;                                     \
        if (ret == MPI_SUCCESS)                                              \
            rs_bufs(sendbuf, recvbuf, recvcounts, sizeof(CT), datatype,     \
                    comm, 0, &s, &r, &sp);                                   \
        uint32_t args[] = {(uint32_t)datatype, (uint32_t)op,                 \
                           (uint32_t)comm};                                  \
        return log_coll(LOG_FN_##NAME, ret, t0, t1, args, 3, sp,            \
                        ret == MPI_SUCCESS ? &r : NULL, 1, request, 6);      \
    }
#define REC_REDUCE_SCATTER_INIT(NAME, CT)                                    \
    int NAME(const void *sendbuf, void *recvbuf, const CT recvcounts[],     \
             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, \
             MPI_Request *request)                                           \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(sendbuf, recvbuf, recvcounts, datatype, op, comm, \
                           info, request);                                   \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(sendbuf, recvbuf, recvcounts, datatype, op, comm, \
                          info, request);                                    \
        uint64_t t1 = rec_now();                                             \
        struct rec_buf s, r;                                                 \
        const struct rec_buf *sp = NULL;                                     \
        if (ret == MPI_SUCCESS)                                              \
            rs_bufs(sendbuf, recvbuf, recvcounts, sizeof(CT), datatype,     \
                    comm, 1, &s, &r, &sp);                                   \
        uint32_t args[] = {(uint32_t)datatype, (uint32_t)op,                 \
                           (uint32_t)comm, (uint32_t)info};                  \
        return log_coll(LOG_FN_##NAME, ret, t0, t1, args, 4, sp,            \
                        ret == MPI_SUCCESS ? &r : NULL, 1, request, 7);      \
    }
REC_REDUCE_SCATTER(MPI_Reduce_scatter, int)
REC_REDUCE_SCATTER(MPI_Reduce_scatter_c, MPI_Count)
REC_IREDUCE_SCATTER(MPI_Ireduce_scatter, int)
REC_IREDUCE_SCATTER(MPI_Ireduce_scatter_c, MPI_Count)
REC_REDUCE_SCATTER_INIT(MPI_Reduce_scatter_init, int)
REC_REDUCE_SCATTER_INIT(MPI_Reduce_scatter_init_c, MPI_Count)

/* A w-variant's arguments: per peer a count, a displacement (bytes) and a
 * type, on each side. */
struct w_args {
    const void *sendbuf;
    const void *scounts, *sdispls;
    const MPI_Datatype *stypes;
    void *recvbuf;
    const void *rcounts, *rdispls;
    const MPI_Datatype *rtypes;
    size_t csize, dsize;
    int neighbor; /* a neighbourhood collective: peers are neighbours */
};

/* Alltoallw & co. after the call. Arguments: sendbuf 0 ... recvbuf 4 ...
 * comm 8, then (nonblocking) request 9 or (persistent) info 9, request 10;
 * the by-value ones are in ARGS. */
static int w_log(int fn, int ret, uint64_t t0, uint64_t t1,
                 const struct w_args *w, MPI_Comm comm, const uint32_t *args,
                 int nargs, MPI_Request *request, int persistent)
{
    struct rec_buf s, r, *rp = NULL;
    const struct rec_buf *sp = NULL;
    uint8_t flags = (uint8_t)((persistent ? REC_PERSISTENT : 0) |
                              (w->csize == 8 ? REC_COUNTS64 : 0) |
                              (w->dsize == 8 ? REC_DISPLS64 : 0));
    if (ret == MPI_SUCCESS) {
        r = (struct rec_buf){
            .buf = w->recvbuf, .counts = w->rcounts, .displs = w->rdispls,
            .types = w->rtypes, .shape = REC_WCOLL, .flags = flags,
            .peers = w->neighbor ? rec_in_degree(comm) : rec_peers(comm)};
        rp = &r;
        if (rec_send_data && w->sendbuf != MPI_IN_PLACE) {
            s = r;
            s.buf = (void *)w->sendbuf;
            s.counts = w->scounts;
            s.displs = w->sdispls;
            s.types = w->stypes;
            if (w->neighbor)
                s.peers = rec_out_degree(comm);
            sp = &s;
        }
    }
    return log_coll(fn, ret, t0, t1, args, nargs, sp, rp, 4, request,
                    persistent ? 10 : 9);
}

#define REC_W_ARGS(CT, DT, NB)                                               \
    struct w_args w = {sendbuf,    sendcounts, sdispls,    sendtypes,       \
                       recvbuf,    recvcounts, rdispls,    recvtypes,       \
                       sizeof(CT), sizeof(DT), NB}
#define REC_W_PARAMS(CT, DT)                                                 \
    const void *sendbuf, const CT sendcounts[], const DT sdispls[],          \
        const MPI_Datatype sendtypes[], void *recvbuf,                       \
        const CT recvcounts[], const DT rdispls[],                           \
        const MPI_Datatype recvtypes[], MPI_Comm comm
#define REC_W_CALL                                                           \
    sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,   \
        recvtypes, comm
#define REC_ALLTOALLW(NAME, CT, DT, NB)                                      \
    int NAME(REC_W_PARAMS(CT, DT))                                           \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(REC_W_CALL);                                      \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(REC_W_CALL);                                       \
        uint64_t t1 = rec_now();                                             \
        REC_W_ARGS(CT, DT, NB);                                              \
        uint32_t args[] = {(uint32_t)comm};                                  \
        return w_log(LOG_FN_##NAME, ret, t0, t1, &w, comm, args, 1, NULL,   \
                     0);                                                     \
    }
#define REC_IALLTOALLW(NAME, CT, DT, NB)                                     \
    int NAME(REC_W_PARAMS(CT, DT), MPI_Request *request)                     \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(REC_W_CALL, request);                             \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(REC_W_CALL, request);                              \
        uint64_t t1 = rec_now();                                             \
        REC_W_ARGS(CT, DT, NB);                                              \
        uint32_t args[] = {(uint32_t)comm};                                  \
        return w_log(LOG_FN_##NAME, ret, t0, t1, &w, comm, args, 1,         \
                     request, 0);                                            \
    }
#define REC_ALLTOALLW_INIT(NAME, CT, DT, NB)                                 \
    int NAME(REC_W_PARAMS(CT, DT), MPI_Info info, MPI_Request *request)      \
    {                                                                        \
        if (!rec_on)                                                         \
            return P##NAME(REC_W_CALL, info, request);                       \
        uint64_t t0 = rec_now();                                             \
        int ret = P##NAME(REC_W_CALL, info, request);                        \
        uint64_t t1 = rec_now();                                             \
        REC_W_ARGS(CT, DT, NB);                                              \
        uint32_t args[] = {(uint32_t)comm, (uint32_t)info};                  \
        return w_log(LOG_FN_##NAME, ret, t0, t1, &w, comm, args, 2,         \
                     request, 1);                                            \
    }
REC_ALLTOALLW(MPI_Alltoallw, int, int, 0)
REC_ALLTOALLW(MPI_Alltoallw_c, MPI_Count, MPI_Aint, 0)
REC_ALLTOALLW(MPI_Neighbor_alltoallw, int, MPI_Aint, 1)
REC_ALLTOALLW(MPI_Neighbor_alltoallw_c, MPI_Count, MPI_Aint, 1)
REC_IALLTOALLW(MPI_Ialltoallw, int, int, 0)
REC_IALLTOALLW(MPI_Ialltoallw_c, MPI_Count, MPI_Aint, 0)
REC_IALLTOALLW(MPI_Ineighbor_alltoallw, int, MPI_Aint, 1)
REC_IALLTOALLW(MPI_Ineighbor_alltoallw_c, MPI_Count, MPI_Aint, 1)
REC_ALLTOALLW_INIT(MPI_Alltoallw_init, int, int, 0)
REC_ALLTOALLW_INIT(MPI_Alltoallw_init_c, MPI_Count, MPI_Aint, 0)
REC_ALLTOALLW_INIT(MPI_Neighbor_alltoallw_init, int, MPI_Aint, 1)
REC_ALLTOALLW_INIT(MPI_Neighbor_alltoallw_init_c, MPI_Count, MPI_Aint, 1)

/* ---- attributes ----------------------------------------------------------
 * For a predefined keyval MPI hands out a pointer to its own storage, which
 * the program dereferences: when flag is true, the value it points to is
 * logged too, as a second RAW field of attribute_val (argument 2, elem 1).
 * MPI_WIN_BASE's attribute is the base address itself: nothing more.
 * (MPI defines no predefined datatype keyvals: MPI_Type_get_attr stays
 * generated.)
 */

/* Bytes a predefined communicator / window keyval's value has, 0 for any
 * other keyval. */
static size_t comm_attr_size(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE:
    case MPI_LASTUSEDCODE:
    case MPI_APPNUM:
        return sizeof(int);
    }
    return 0;
}

static size_t win_attr_size(int keyval)
{
    switch (keyval) {
    case MPI_WIN_SIZE:
        return sizeof(MPI_Aint);
    case MPI_WIN_DISP_UNIT:
    case MPI_WIN_CREATE_FLAVOR:
    case MPI_WIN_MODEL:
        return sizeof(int);
    }
    return 0;
}

/* The record of an attribute getter: OBJ and KEYVAL by value, then what the
 * generated wrapper logs (attribute_val's 8 bytes, flag), with the value
 * of VSIZE bytes in between when there is one. */
static int log_get_attr(int fn, int ret, uint64_t t0, uint64_t t1,
                        uint32_t obj, int keyval, const void *attribute_val,
                        const int *flag, size_t vsize)
{
    int ok = ret == MPI_SUCCESS;
    const void *value = NULL;
    if (ok && flag && *flag && vsize && attribute_val)
        value = *(const void *const *)attribute_val;
    size_t room = 2 * LOG_ARG_ROOM32 +
                  (attribute_val ? LOG_FIELD_HEAD + 8 : 0) +
                  (value ? LOG_FIELD_HEAD + vsize : 0) + LOG_FIELD_HEAD + 4;
    struct log_rec rec;
    if (!rec_begin(&rec, fn, 0, ret, t0, t1, room))
        return ret;
    log_put_arg_handle(&rec, obj);
    log_put_arg_int(&rec, keyval);
    if (attribute_val)
        rec_put_raw(&rec, 2, 0, attribute_val, 8);
    if (value)
        rec_put_raw(&rec, 2, 1, value, vsize);
    if (ok && flag)
        rec_put_raw(&rec, 3, 0, flag, 4);
    rec_end(&rec);
    return ret;
}

int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val,
                      int *flag)
{
    if (!rec_on)
        return PMPI_Comm_get_attr(comm, comm_keyval, attribute_val, flag);
    uint64_t t0 = rec_now();
    int ret = PMPI_Comm_get_attr(comm, comm_keyval, attribute_val, flag);
    uint64_t t1 = rec_now();
    return log_get_attr(LOG_FN_MPI_Comm_get_attr, ret, t0, t1,
                        (uint32_t)comm, comm_keyval, attribute_val, flag,
                        comm_attr_size(comm_keyval));
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    if (!rec_on)
        return PMPI_Attr_get(comm, keyval, attribute_val, flag);
    uint64_t t0 = rec_now();
    int ret = PMPI_Attr_get(comm, keyval, attribute_val, flag);
    uint64_t t1 = rec_now();
    return log_get_attr(LOG_FN_MPI_Attr_get, ret, t0, t1, (uint32_t)comm,
                        keyval, attribute_val, flag, comm_attr_size(keyval));
}

int MPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val,
                     int *flag)
{
    if (!rec_on)
        return PMPI_Win_get_attr(win, win_keyval, attribute_val, flag);
    uint64_t t0 = rec_now();
    int ret = PMPI_Win_get_attr(win, win_keyval, attribute_val, flag);
    uint64_t t1 = rec_now();
    return log_get_attr(LOG_FN_MPI_Win_get_attr, ret, t0, t1, (uint32_t)win,
                        win_keyval, attribute_val, flag,
                        win_attr_size(win_keyval));
}

/* ---- life cycle -------------------------------------------------------- */

static int log_init(int fn, int ret, uint64_t t0, uint64_t t1, int required,
                    const int *provided)
{
    struct log_rec rec;
    if (fn == LOG_FN_MPI_Init_thread && provided && *provided == MPI_THREAD_MULTIPLE)
        fprintf(stderr,
                "drdb-record: warning: MPI_THREAD_MULTIPLE: calls from several "
                "threads are logged in the order they complete; replay "
                "reproduces that order only if the threads make their MPI "
                "calls in it\n");
    if (!rec_on)
        return ret;
    size_t room = fn == LOG_FN_MPI_Init_thread
                      ? LOG_ARG_ROOM32 + LOG_FIELD_HEAD + 4 : 0;
    if (rec_begin(&rec, fn, 0, ret, t0, t1, room)) {
        if (fn == LOG_FN_MPI_Init_thread) {
            log_put_arg_int(&rec, required);
            rec_put_raw(&rec, 3, 0, provided, 4);
        }
        rec_end(&rec);
    }
    return ret;
}

int MPI_Init(int *argc, char ***argv)
{
    uint64_t t0 = rec_now();
    int ret = PMPI_Init(argc, argv);
    if (ret == MPI_SUCCESS)
        rec_open();
    /* Times are relative to the log's start: Init itself is at 0. */
    (void)t0;
    return log_init(LOG_FN_MPI_Init, ret, 0, rec_on ? rec_now() : 0, 0, NULL);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int ret = PMPI_Init_thread(argc, argv, required, provided);
    if (ret == MPI_SUCCESS)
        rec_open();
    return log_init(LOG_FN_MPI_Init_thread, ret, 0, rec_on ? rec_now() : 0,
                    required, provided);
}

int MPI_Finalize(void)
{
    if (rec_on) {
        /* The record goes first: after PMPI_Finalize nothing may fail. */
        uint64_t t0 = rec_now();
        struct log_rec rec;
        if (rec_begin(&rec, LOG_FN_MPI_Finalize, 0, MPI_SUCCESS, t0, t0, 0))
            rec_end(&rec);
    }
    int ret = PMPI_Finalize();
    rec_close(); /* also after logging stopped early: trims the file */
    return ret;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
    if (rec_on) {
        uint64_t t0 = rec_now();
        struct log_rec rec;
        if (rec_begin(&rec, LOG_FN_MPI_Abort, 0, MPI_SUCCESS, t0, t0,
                      2 * LOG_ARG_ROOM32)) {
            log_put_arg_handle(&rec, (uint32_t)comm);
            log_put_arg_int(&rec, errorcode);
            rec_end(&rec);
        }
    }
    return PMPI_Abort(comm, errorcode);
}
