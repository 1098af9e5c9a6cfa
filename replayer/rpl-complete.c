/*
 * Completions: the Wait and Test families, read through log/log-codec.h's
 * completion layout. Each completed request's handle must be the
 * program's; its status and the data it delivered are written back. The
 * mirror of recorder/rec-complete.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "rpl.h"

/* A completion whose STATUS the recorder left out (a request that delivers
 * no data, whose status MPI did not change but for the count): MPI zeroed
 * the count and the cancel bit. */
static void zero_count(MPI_Status *st)
{
    if (st != MPI_STATUS_IGNORE && st != MPI_STATUSES_IGNORE) {
        st->count_lo = 0;
        st->count_hi_and_cancelled = 0;
    }
}

/* The next completion of argument ARG (1), another field (2), the end
 * (0). COUNT bounds the elements (the request array's length). */
static int next(struct rpl_call *c, unsigned arg, int count,
                struct log_done *d, struct log_field *other)
{
    int rc = log_done_next(&c->ev, &c->cursor, arg, d, other);
    if (rc < 0)
        rpl_fail(c, RPL_EXIT_SETUP, "malformed record: a status or data "
                 "of no completed request");
    uint64_t elem = rc == 1 ? d->elem : rc == 2 ? other->elem : 0;
    if (elem >= (uint64_t)(count > 0 ? count : 1))
        rpl_fail(c, RPL_EXIT_SETUP, "malformed record: element %" PRIu64
                 " of %d requests", elem, count);
    return rc;
}

/* Writes completion D back: its status into ST (or zeroes its count), its
 * data into the request's buffer; forgets the request, completed through
 * the program's variable at WHERE. */
static void done(struct rpl_call *c, const struct log_done *d,
                 const MPI_Request *where, MPI_Status *st)
{
    if (!d->has_status)
        zero_count(st);
    else if (st != MPI_STATUS_IGNORE && st != MPI_STATUSES_IGNORE)
        log_status_to_mpi(d->status, st);
    if (d->has_data)
        rpl_req_data(c, (MPI_Request)d->request, where, &d->data);
    rpl_req_done((MPI_Request)d->request, where, 0);
}

/* Wait and Test: argument 0 is the request (RAW: what MPI left in it, when
 * not MPI_REQUEST_NULL), Test's argument 1 the flag. */
static int single(struct rpl_call *c, MPI_Request *request, int *flag,
                  MPI_Status *status)
{
    struct log_done d;
    struct log_field f;
    MPI_Request before = *request;
    int raw = 0, rc;
    while ((rc = next(c, 0, 1, &d, &f)) > 0) {
        if (rc == 1) {
            rpl_same_request(c, (MPI_Request)d.request, before);
            done(c, &d, request, status);
        } else if (f.kind == LOG_F_RAW && f.arg <= 1) {
            rpl_out_raw(c, &f, f.arg == 0 ? (void *)request : (void *)flag,
                        4);
            raw |= f.arg == 0;
        } else {
            rpl_out_other(c, &f);
        }
    }
    /* Left out of the log: a NULL request after. */
    if (!raw)
        *request = MPI_REQUEST_NULL;
    return rpl_end(c, MPI_COMM_WORLD);
}

int rpl_MPI_Wait(struct args_MPI_Wait *a)
{
    struct rpl_call c;
    rpl_begin_MPI_Wait(&c, a);
    return single(&c, a->request, NULL, a->status);
}

int rpl_MPI_Test(struct args_MPI_Test *a)
{
    struct rpl_call c;
    rpl_begin_MPI_Test(&c, a);
    return single(&c, a->request, a->flag, a->status);
}

/* MPI_Request_get_status: the generated layout (RAW flag, STATUS), and
 * the data of a receive that completed here (DATA, argument 0; the
 * recorder's rec_MPI_Request_get_status): the request stays registered,
 * its completion logs no data again. */
int rpl_MPI_Request_get_status(struct args_MPI_Request_get_status *a)
{
    struct rpl_call c;
    struct log_field f;
    rpl_begin_MPI_Request_get_status(&c, a);
    while (rpl_field(&c, &f)) {
        if (f.arg == 1)
            rpl_out_raw(&c, &f, a->flag, 4);
        else if (f.arg == 2)
            rpl_out_status(&c, &f, a->status);
        else if (f.arg == 0 && f.kind == LOG_F_DATA)
            rpl_req_data(&c, a->request, NULL, &f);
        else
            rpl_out_other(&c, &f);
    }
    return rpl_end(&c, MPI_COMM_WORLD);
}

/* ---- the array functions ------------------------------------------------
 * One record layout: the requests after the call (RAW, argument 1), an
 * extra RAW (LOG_ARG_NONE: Testall's flag, Waitany/Testany's index and
 * flag, Waitsome/Testsome's outcount), then each completion (argument 1,
 * elem: its index). MODE says where the K-th completion's status goes.
 */
enum { ST_BY_INDEX, ST_SINGLE, ST_BY_ORDER };

static int completions(struct rpl_call *c, int count, MPI_Request reqs[],
                       int *extra, int nextra, MPI_Status *statuses,
                       int mode, int *indices)
{
    struct log_done d;
    struct log_field f;
    MPI_Request small[64], *before = small;
    int k = 0, raw = 0, rc;
    if (count > 64 && !(before = malloc((size_t)count * sizeof *before)))
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory");
    if (count > 0)
        memcpy(before, reqs, (size_t)count * sizeof *before);
    while ((rc = next(c, 1, count, &d, &f)) > 0) {
        if (rc == 2 && f.kind == LOG_F_RAW && f.arg == 1) {
            rpl_out_raw(c, &f, reqs, (int64_t)count * 4);
            raw = 1;
        } else if (rc == 2 && f.kind == LOG_F_RAW && f.arg == LOG_ARG_NONE) {
            rpl_out_raw(c, &f, extra, nextra * 4);
        } else if (rc == 2) {
            rpl_out_other(c, &f);
        } else {
            rpl_same_request(c, (MPI_Request)d.request, before[d.elem]);
            if (indices)
                indices[k] = (int)d.elem;
            done(c, &d, &reqs[d.elem],
                 statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE
                        : mode == ST_SINGLE             ? statuses
                        : mode == ST_BY_ORDER           ? &statuses[k]
                                                        : &statuses[d.elem]);
            k++;
        }
    }
    /* Left out of the log: every request is MPI_REQUEST_NULL after. */
    if (!raw)
        for (int i = 0; i < count; i++)
            reqs[i] = MPI_REQUEST_NULL;
    if (before != small)
        free(before);
    return rpl_end(c, MPI_COMM_WORLD);
}

int rpl_MPI_Waitall(struct args_MPI_Waitall *a)
{
    struct rpl_call c;
    rpl_begin_MPI_Waitall(&c, a);
    return completions(&c, a->count, a->array_of_requests, NULL, 0,
                       a->array_of_statuses, ST_BY_INDEX, NULL);
}

int rpl_MPI_Testall(struct args_MPI_Testall *a)
{
    struct rpl_call c;
    rpl_begin_MPI_Testall(&c, a);
    return completions(&c, a->count, a->array_of_requests, a->flag, 1,
                       a->array_of_statuses, ST_BY_INDEX, NULL);
}

/* Waitany, Testany: the index and the flag come as one extra field. */
static int any(struct rpl_call *c, int count, MPI_Request reqs[], int *indx,
               int *flag, MPI_Status *status)
{
    int extra[2] = {MPI_UNDEFINED, 1};
    int ret = completions(c, count, reqs, extra, 2, status, ST_SINGLE, NULL);
    *indx = extra[0];
    if (flag)
        *flag = extra[1];
    return ret;
}

int rpl_MPI_Waitany(struct args_MPI_Waitany *a)
{
    struct rpl_call c;
    rpl_begin_MPI_Waitany(&c, a);
    return any(&c, a->count, a->array_of_requests, a->indx, NULL, a->status);
}

int rpl_MPI_Testany(struct args_MPI_Testany *a)
{
    struct rpl_call c;
    rpl_begin_MPI_Testany(&c, a);
    return any(&c, a->count, a->array_of_requests, a->indx, a->flag,
               a->status);
}

/* The recorder logs completions in request order: indices come out
 * increasing, as MPICH reports them. */
int rpl_MPI_Waitsome(struct args_MPI_Waitsome *a)
{
    struct rpl_call c;
    rpl_begin_MPI_Waitsome(&c, a);
    return completions(&c, a->incount, a->array_of_requests, a->outcount, 1,
                       a->array_of_statuses, ST_BY_ORDER,
                       a->array_of_indices);
}

int rpl_MPI_Testsome(struct args_MPI_Testsome *a)
{
    struct rpl_call c;
    rpl_begin_MPI_Testsome(&c, a);
    return completions(&c, a->incount, a->array_of_requests, a->outcount, 1,
                       a->array_of_statuses, ST_BY_ORDER,
                       a->array_of_indices);
}
