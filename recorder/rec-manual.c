/*
 * Hand-written wrappers: the functions whose logging does not follow from
 * the spec's annotations (class 'manual'). They replace the generated weak
 * wrappers of the same name.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rec.h"

void rec_open(void);
void rec_close(void);

/* ---- the request-to-buffer table --------------------------------------- */

struct req_entry {
    MPI_Request req; /* MPI_REQUEST_NULL: free slot */
    int fn;
    int persistent;
    void *buf;
    int64_t n;
    MPI_Datatype type;
};

/* Open addressing with linear probing; grows (rarely) by doubling. */
static struct req_entry *reqs;
static size_t reqs_cap, reqs_used;

static size_t req_hash(MPI_Request r)
{
    return ((unsigned)r * 2654435761u) & (reqs_cap - 1);
}

static struct req_entry *req_find(MPI_Request r)
{
    if (!reqs_cap || r == MPI_REQUEST_NULL)
        return NULL;
    for (size_t i = req_hash(r);; i = (i + 1) & (reqs_cap - 1)) {
        if (reqs[i].req == r)
            return &reqs[i];
        if (reqs[i].req == MPI_REQUEST_NULL)
            return NULL;
    }
}

static void req_remove(struct req_entry *e)
{
    /* Backward-shift deletion keeps probe chains intact. */
    size_t i = (size_t)(e - reqs);
    reqs[i].req = MPI_REQUEST_NULL;
    reqs_used--;
    for (size_t j = (i + 1) & (reqs_cap - 1); reqs[j].req != MPI_REQUEST_NULL;
         j = (j + 1) & (reqs_cap - 1)) {
        struct req_entry moved = reqs[j];
        reqs[j].req = MPI_REQUEST_NULL;
        reqs_used--;
        size_t k = req_hash(moved.req);
        while (reqs[k].req != MPI_REQUEST_NULL)
            k = (k + 1) & (reqs_cap - 1);
        reqs[k] = moved;
        reqs_used++;
    }
}

static void req_insert(const struct req_entry *e)
{
    if ((reqs_used + 1) * 2 > reqs_cap) {
        size_t old_cap = reqs_cap;
        struct req_entry *old = reqs;
        reqs_cap = reqs_cap ? reqs_cap * 2 : 1024;
        reqs = malloc(reqs_cap * sizeof *reqs);
        if (!reqs) {
            fputs("drdb-record: out of memory for the request table\n",
                  stderr);
            abort();
        }
        for (size_t i = 0; i < reqs_cap; i++)
            reqs[i].req = MPI_REQUEST_NULL;
        reqs_used = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].req != MPI_REQUEST_NULL)
                req_insert(&old[i]);
        free(old);
    }
    struct req_entry *cur = req_find(e->req);
    if (cur) {
        *cur = *e;
        return;
    }
    size_t i = req_hash(e->req);
    while (reqs[i].req != MPI_REQUEST_NULL)
        i = (i + 1) & (reqs_cap - 1);
    reqs[i] = *e;
    reqs_used++;
}

void rec_req_register(MPI_Request req, int fn, void *buf, int64_t n,
                      MPI_Datatype type, MPI_Comm comm, int persistent)
{
    (void)comm;
    struct req_entry e = {req, fn, persistent, buf, n, type};
    if (req != MPI_REQUEST_NULL)
        req_insert(&e);
}

/* ---- completions --------------------------------------------------------
 * Every Wait/Test function logs, for each request it completed: a REQUEST
 * field (the handle before the call), its STATUS, and for a receive the DATA
 * the request delivered. Element numbers are indices into the user's arrays.
 */

/* Room needed to log the completion of request R with status ST. */
static size_t done_room(MPI_Request r, const MPI_Status *st,
                        int64_t *bytes)
{
    struct req_entry *e = req_find(r);
    *bytes = 0;
    if (e && st)
        *bytes = rec_status_bytes(st, e->n, e->type);
    return 2 * LOG_FIELD_HEAD + 4 + LOG_STATUS_ROOM +
           (*bytes ? rec_pack_room(*bytes, e->type) : 0);
}

static void put_done(struct log_rec *rec, unsigned arg, uint64_t elem,
                     MPI_Request r, const MPI_Status *st, int64_t bytes)
{
    struct req_entry *e = req_find(r);
    rec_put_field(rec, arg, LOG_F_REQUEST, elem, &r, 4);
    if (st)
        log_put_status(rec, arg, elem, st);
    if (e) {
        if (bytes)
            rec_put_data(rec, arg, e->buf, e->n, e->type, bytes);
        if (!e->persistent)
            req_remove(e);
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
                           int64_t *bytes)
{
    size_t room = 4 + LOG_FIELD_HEAD + (size_t)count * 4 + extra_len +
                  LOG_FIELD_HEAD;
    for (int i = 0; i < count; i++)
        if (done[i])
            room += done_room(before[i], &st[i], &bytes[i]);
    struct log_rec rec;
    if (!rec_begin(&rec, fn, 0, ret, t0, t1, room))
        return ret;
    log_put_u32(&rec, (uint32_t)count);
    /* The requests after the call (completed ones become NULL). */
    rec_put_raw(&rec, 1, 0, after, (size_t)count * 4);
    if (extra_len)
        rec_put_raw(&rec, LOG_ARG_NONE, 0, extra, extra_len);
    for (int i = 0; i < count; i++)
        if (done[i])
            put_done(&rec, 1, (uint64_t)i, before[i], &st[i], bytes[i]);
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
    if (4 + 2 * LOG_FIELD_HEAD + (size_t)count * 4 + extra_len > sizeof img)
        return 0;
    struct log_rec rec = {img, img};
    log_put_u32(&rec, (uint32_t)count);
    rec_put_raw(&rec, 1, 0, after, (size_t)count * 4);
    if (extra_len)
        rec_put_raw(&rec, LOG_ARG_NONE, 0, extra, extra_len);
    rec_poll(fn, img, (size_t)(rec.p - img), t0, t1);
    return 1;
}

/* Scratch arrays: on the stack for small counts. */
struct scratch {
    MPI_Request req[SMALL];
    MPI_Status st[SMALL];
    int done[SMALL];
    int64_t bytes[SMALL];
    MPI_Request *preq;
    MPI_Status *pst;
    int *pdone;
    int64_t *pbytes;
};

static int scratch_init(struct scratch *s, int count)
{
    if (count <= SMALL) {
        s->preq = s->req;
        s->pst = s->st;
        s->pdone = s->done;
        s->pbytes = s->bytes;
        return 0;
    }
    s->preq = malloc((size_t)count * sizeof *s->preq);
    s->pst = malloc((size_t)count * sizeof *s->pst);
    s->pdone = calloc((size_t)count, sizeof *s->pdone);
    s->pbytes = calloc((size_t)count, sizeof *s->pbytes);
    return s->preq && s->pst && s->pdone && s->pbytes ? 0 : -1;
}

static void scratch_release(struct scratch *s)
{
    if (s->preq != s->req) {
        free(s->preq);
        free(s->pst);
        free(s->pdone);
        free(s->pbytes);
    }
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    if (!rec_on)
        return PMPI_Wait(request, status);
    MPI_Status local, *st = use_status(status, &local);
    MPI_Request before = *request;
    uint64_t t0 = rec_now();
    int ret = PMPI_Wait(request, st);
    uint64_t t1 = rec_now();
    int64_t bytes;
    struct log_rec rec;
    if (rec_begin(&rec, LOG_FN_MPI_Wait, 0, ret, t0, t1,
                  LOG_FIELD_HEAD + 4 + done_room(before, st, &bytes))) {
        rec_put_raw(&rec, 0, 0, request, 4);
        put_done(&rec, 0, 0, before, st, bytes);
        rec_end(&rec);
    }
    return ret;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (!rec_on)
        return PMPI_Test(request, flag, status);
    MPI_Status local, *st = use_status(status, &local);
    MPI_Request before = *request;
    uint64_t t0 = rec_now();
    int ret = PMPI_Test(request, flag, st);
    uint64_t t1 = rec_now();
    if (ret == MPI_SUCCESS && !*flag) {
        uint8_t img[32];
        struct log_rec rec = {img, img};
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
        rec_put_raw(&rec, 0, 0, request, 4);
        rec_put_raw(&rec, 1, 0, flag, 4);
        if (*flag)
            put_done(&rec, 0, 0, before, st, bytes);
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
    log_put_u32(&rec, (uint32_t)source);
    log_put_u32(&rec, (uint32_t)tag);
    log_put_u32(&rec, (uint32_t)comm);
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
                          s.pdone, flag, flag ? 4 : 0, s.pbytes);
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
                          s.pdone, extra, sizeof extra, s.pbytes);
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
                          s.pdone, extra, sizeof extra, s.pbytes);
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
    struct req_entry *e = rec_on ? req_find(*request) : NULL;
    if (e)
        req_remove(e);
    if (!rec_on)
        return PMPI_Request_free(request);
    MPI_Request before = *request;
    uint64_t t0 = rec_now();
    int ret = PMPI_Request_free(request);
    uint64_t t1 = rec_now();
    struct log_rec rec;
    if (rec_begin(&rec, LOG_FN_MPI_Request_free, 0, ret, t0, t1,
                  2 * LOG_FIELD_HEAD + 8)) {
        rec_put_field(&rec, 0, LOG_F_REQUEST, 0, &before, 4);
        rec_put_raw(&rec, 0, 0, request, 4);
        rec_end(&rec);
    }
    return ret;
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
    size_t room = fn == LOG_FN_MPI_Init_thread ? 4 + LOG_FIELD_HEAD + 4 : 0;
    if (rec_begin(&rec, fn, 0, ret, t0, t1, room)) {
        if (fn == LOG_FN_MPI_Init_thread) {
            log_put_u32(&rec, (uint32_t)required);
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
        if (rec_begin(&rec, LOG_FN_MPI_Abort, 0, MPI_SUCCESS, t0, t0, 8)) {
            log_put_u32(&rec, (uint32_t)comm);
            log_put_u32(&rec, (uint32_t)errorcode);
            rec_end(&rec);
        }
    }
    return PMPI_Abort(comm, errorcode);
}
