/*
 * ev-check-err.c - the err.* checks (ev-check.h): calls that returned an
 * error code (MPI_ERRORS_RETURN, or an error handler that returned) after
 * which the program went on as if nothing happened. docs/check.md,
 * "Errors returned and ignored", defines it; in short, for a call F of
 * rank R that returned an error (its record's RET flag):
 *
 *   err.output-used  a later call of R passes as an input a handle F left
 *                    in one of its outputs (what MPI left there: the
 *                    program's own stale value; never a predefined
 *                    handle), before a successful call outputs that
 *                    handle anew: an error (the output is undefined).
 *   err.ignored      R neither looked at the error nor stopped: no error
 *                    handler of the program ran inside F; after F, before
 *                    R's next failed call, no MPI_Error_class or
 *                    MPI_Error_string of F's code, no *_call_errhandler
 *                    with it, no MPI_Abort; and R made MPI calls after F
 *                    other than MPI_Finalize; and no output of F was
 *                    used (that is err.output-used's finding): a warning
 *                    (the program may have tested the code in C and gone
 *                    another way, which a log cannot see).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ev-check.h"
#include "ev-int.h"
#include "log-abi.h"
#include "log-codec.h"

/* Looked at between this many events. */
#define POLL_EVERY 4096

/* A failed call's code as "0x1c0a0006 (class 6)": MPICH keeps the class in
 * the code's low 7 bits (ERROR_CLASS_MASK in its mpir_err.h). */
static void code_str(char *buf, size_t len, int32_t ret)
{
    snprintf(buf, len, "0x%08" PRIx32 " (class %d)", (uint32_t)ret,
             (int)(ret & 0x7f));
}

/* A failed call of the program or of a callback: RET set, not the TRUNC
 * record (which holds an errno), not a callback entry. */
static int failed(const struct log_event *ev)
{
    return (ev->flags & LOG_REC_RET) && !(ev->flags & LOG_REC_TRUNC) &&
           !ev->cb_entry && ev->desc;
}

static const char *fname(const struct log_event *ev)
{
    return ev->desc ? ev->desc->name : "?";
}

static int stopped(const struct ev_check_ctx *c, uint64_t e)
{
    return c->interrupted && *c->interrupted && e % POLL_EVERY == 0;
}

/* 1 when the program's error handler ran inside failed call EV (N): a
 * callback entry of kind "error handler" among the records just before
 * it that are nested deeper. */
static int handler_ran(struct ev_run *x, int r, const struct log_event *ev)
{
    char err[256];
    for (uint64_t e = ev->index; e-- > 0;) {
        struct log_event b;
        struct log_cb cb;
        if (ev_event(x, r, e, &b, err, sizeof err) < 0 ||
            !(b.flags & LOG_REC_CALLBACK) || b.depth <= ev->depth)
            return 0;
        if (b.depth == ev->depth + 1 && log_event_cb(&b, &cb) == 0 &&
            cb.what == LOG_CB_ERRHANDLER)
            return 1;
    }
    return 0;
}

/* 1 when event EV looks at error code CODE (a call that examines the
 * code in its errorcode slot: MPI_Error_class, MPI_Error_string, the
 * *_call_errhandler functions) or stops the program (abort: MPI_Abort). */
static int examines(const struct log_event *ev, int32_t code)
{
    const struct log_func_desc *d = ev->desc;
    if (!d)
        return 0;
    if (d->roles & LOG_R_ABORT)
        return 1;
    return (d->roles & LOG_R_EXAMINES) &&
           log_event_arg(ev, d->slot[LOG_S_ERRORCODE]) == code;
}

/* The handles failed call F left in its outputs (HANDLE fields that are
 * no predefined handle), into H (at most MAX) with their argument in
 * ARG; how many. */
static int left_handles(const struct log_event *f, uint32_t *h,
                        unsigned *arg, int max)
{
    struct log_field fl;
    size_t cur = 0;
    int k = 0;
    while (k < max && log_event_next_stored(f, &cur, &fl) > 0) {
        uint32_t v;
        if (fl.kind != LOG_F_HANDLE || fl.arg >= (unsigned)f->desc->nargs ||
            log_field_handle(&fl, &v) < 0)
            continue;
        if (log_mpi_handle_name(f->desc->args[fl.arg].ctype, v))
            continue;
        h[k] = v;
        arg[k++] = fl.arg;
    }
    return k;
}

/* How event EV treats handle H: 1 passes it as an input (a by-value
 * handle, a completion's request, an inout handle), 2 outputs it anew
 * (a successful call's HANDLE output), 0 neither. */
static int handle_use(const struct log_event *ev, uint32_t h)
{
    const struct log_func_desc *d = ev->desc;
    if (!d)
        return 0;
    for (int i = 0; i < d->nargs; i++)
        if (d->args[i].enc == LOG_ENC_HANDLE &&
            (uint32_t)log_event_arg(ev, i) == h)
            return 1;
    struct log_field fl;
    size_t cur = 0;
    while (log_event_next_stored(ev, &cur, &fl) > 0) {
        uint32_t v;
        if ((fl.kind != LOG_F_REQUEST && fl.kind != LOG_F_HANDLE) ||
            log_field_handle(&fl, &v) < 0 || v != h)
            continue;
        if (fl.kind == LOG_F_REQUEST ||
            (fl.arg < (unsigned)d->nargs &&
             d->args[fl.arg].dir == LOG_DIR_INOUT))
            return 1;
        if (!(ev->flags & LOG_REC_RET))
            return 2;
    }
    return 0;
}

/* The first later use of a handle failed call F of rank R left in its
 * outputs: 1 with the using event in *USE and the handle and its argument
 * in *H, *ARG; 0 none; -1 interrupted. */
static int first_use(struct ev_check_ctx *c, int r, const struct log_event *f,
                     uint64_t *use, uint32_t *h, unsigned *arg)
{
    struct ev_run *x = c->x;
    uint32_t hs[8];
    unsigned args[8];
    int k = left_handles(f, hs, args, 8);
    uint64_t n = x->ranks[r].log.nevents;
    char err[256];
    *use = EV_NONE;
    for (int i = 0; i < k; i++) {
        for (uint64_t e = f->index + 1; e < n && e < *use; e++) {
            struct log_event ev;
            if (stopped(c, e))
                return -1;
            if (ev_event(x, r, e, &ev, err, sizeof err) < 0)
                break;
            int u = handle_use(&ev, hs[i]);
            if (u == 2)
                break;
            if (u == 1) {
                *use = e;
                *h = hs[i];
                *arg = args[i];
                break;
            }
        }
    }
    return *use != EV_NONE;
}

static int report_output_used(struct ev_check_ctx *c, int r,
                              const struct log_event *f)
{
    uint64_t e;
    uint32_t h;
    unsigned arg;
    int st = first_use(c, r, f, &e, &h, &arg);
    if (st <= 0)
        return st;
    char err[256], code[48];
    struct log_event u;
    if (ev_event(c->x, r, e, &u, err, sizeof err) < 0)
        return 0;
    code_str(code, sizeof code, f->ret);
    struct ev_check_site s[2] = {
        {r, f->index, "failed here"},
        {r, e, "used its output"},
    };
    struct ev_check_finding fd = {.check = "err.output-used",
                                  .severity = EV_CHECK_ERROR, .sites = s,
                                  .nsites = 2};
    snprintf(fd.message, sizeof fd.message,
             "%s returned error %s, leaving its output %s undefined "
             "(0x%08" PRIx32 "); %s used it as if the call had succeeded",
             fname(f), code, f->desc->args[arg].name, h, fname(&u));
    c->emit(c->ud, &fd);
    return 0;
}

/* Every failed call of every rank with a log, to FN. */
static int each_failed(struct ev_check_ctx *c, const char *check,
                       int (*fn)(struct ev_check_ctx *, int,
                                 const struct log_event *))
{
    struct ev_run *x = c->x;
    char err[256];
    ev__check_note_unlogged(c, check, MISSING_WHY ": its calls are not "
                            "checked");
    for (int i = 0; i < x->nlogged; i++) {
        int r = x->logged[i];
        if (!x->ranks[r].present) {
            char msg[400];
            snprintf(msg, sizeof msg, "rank %d has no log (%s): its calls "
                     "are not checked", r, ev_rank_missing(x, r));
            c->note(c->ud, check, msg);
            continue;
        }
        uint64_t n = x->ranks[r].log.nevents;
        for (uint64_t e = 0; e < n; e++) {
            struct log_event ev;
            if (stopped(c, e))
                return 0;
            if (ev_event(x, r, e, &ev, err, sizeof err) < 0) {
                char msg[400];
                snprintf(msg, sizeof msg, "rank %d's log cannot be read from "
                         "event %" PRIu64 " (%s): its later calls are not "
                         "checked", r, e, err);
                c->note(c->ud, check, msg);
                break;
            }
            if (failed(&ev) && fn(c, r, &ev) < 0)
                return 0;
        }
    }
    return 0;
}

/* err.ignored for failed call F of rank R: 1 to report, 0 not, -1 when
 * interrupted (ev-int.h). */
int ev__err_ignored(struct ev_check_ctx *c, int r, const struct log_event *f)
{
    struct ev_run *x = c->x;
    uint64_t n = x->ranks[r].log.nevents;
    char err[256];
    int went_on = 0;
    uint64_t use;
    uint32_t h;
    unsigned arg;
    if (handler_ran(x, r, f))
        return 0;
    /* a used output is err.output-used's finding */
    int st = first_use(c, r, f, &use, &h, &arg);
    if (st)
        return st < 0 ? -1 : 0;
    for (uint64_t e = f->index + 1; e < n; e++) {
        struct log_event ev;
        if (stopped(c, e))
            return -1;
        if (ev_event(x, r, e, &ev, err, sizeof err) < 0)
            break;
        if (ev.cb_entry)
            continue;
        if (examines(&ev, f->ret))
            return 0;
        if (failed(&ev))
            return 1;
        if (!ev.desc || !(ev.desc->roles & LOG_R_FINALIZE))
            went_on = 1;
    }
    return went_on;
}

static int report_ignored(struct ev_check_ctx *c, int r,
                          const struct log_event *f)
{
    int st = ev__err_ignored(c, r, f);
    if (st <= 0)
        return st;
    char code[48];
    code_str(code, sizeof code, f->ret);
    struct ev_check_site s = {r, f->index, "failed here"};
    struct ev_check_finding fd = {.check = "err.ignored",
                                  .severity = EV_CHECK_WARNING, .sites = &s,
                                  .nsites = 1};
    snprintf(fd.message, sizeof fd.message,
             "%s returned error %s and the program went on: no error "
             "handler of its own ran, no MPI_Error_class or "
             "MPI_Error_string of the code, no MPI_Abort", fname(f), code);
    c->emit(c->ud, &fd);
    return 0;
}

static int run_ignored(struct ev_check_ctx *c, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return each_failed(c, "err.ignored", report_ignored);
}

static int run_output_used(struct ev_check_ctx *c, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return each_failed(c, "err.output-used", report_output_used);
}

const struct ev_check_def ev_check_err_defs[] = {
    {"err.output-used", EV_CHECK_ERROR,
     "a handle a failed call left in its output used by a later call",
     run_output_used},
    {"err.ignored", EV_CHECK_WARNING,
     "an error code returned and neither examined nor acted on",
     run_ignored},
    {NULL, 0, NULL, NULL},
};
