/*
 * ev-check-arg.c - arguments against the MPI standard (ev-check.h;
 * docs/check.md, "Arguments"): what a runtime checker validates before
 * each call, validated from the log after the run.
 *
 *   arg.invalid  a call's by-value argument the standard does not allow,
 *                in a call MPI completed or failed with an error the
 *                program ignored (err.ignored's test): a negative count, a
 *                rank outside the communicator, a negative tag,
 *                MPI_ANY_TAG or MPI_ANY_SOURCE in a send, a null
 *                communicator, datatype or op, a predefined op on a
 *                datatype it is not defined for, a derived datatype not
 *                committed or freed, a freed communicator, a NULL buffer
 *                for data, MPI_IN_PLACE in point-to-point, a negative
 *                color; one finding per call site and fault, with how
 *                many calls;
 *   err.fatal    a rank MPI ended inside a call (an error
 *                MPI_ERRORS_ARE_FATAL made fatal; the log's last record
 *                is that call, LOG_REC_DIED): one finding naming the
 *                call, the argument at fault when the rules above find
 *                it, else the error class MPI ended it with. The ranks
 *                killed after it (the launcher ends the job) are not
 *                findings: their logs just stop. A call before MPI_Init
 *                or after MPI_Finalize is said so.
 *   order.no-finalize  a process that exited with MPI initialized and
 *                never finalized (its slot: log_rank_exited).
 *
 * The rules read the function table (roles, slots, names and
 * significance of the arguments: log/mpi-functions.spec), the
 * communicators of the event index (sizes, for ranks and roots), each
 * rank's handles as its calls made, committed and freed them, and the
 * builtin datatypes of MPICH's ABI (log-abi.h), never a function's name.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check.h"
#include "ev-int.h"
#include "log-abi.h"

#define POLL_EVERY 4096

/* A fault: what is wrong, and the argument at fault (desc->args). */
struct fault {
    char what[200];
    int arg;
};

static int word_in(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; p && (p = strstr(p, word)) != NULL; p += n) {
        int before = p == text || !(p[-1] == '_' || (p[-1] >= 'a' &&
                                                     p[-1] <= 'z'));
        char c = p[n];
        if (before && !(c == '_' || (c >= 'a' && c <= 'z')))
            return 1;
    }
    return 0;
}

/* Where by-value argument NAME of D is significant: the `at` of the
 * buffer whose extent it sizes (a rooted collective's), 0 everywhere. */
static int significance(const struct log_func_desc *d, const char *name)
{
    for (int i = 0; i < d->nargs; i++)
        if (d->args[i].at && d->args[i].length &&
            word_in(d->args[i].length, name))
            return d->args[i].at;
    return 0;
}

/* This rank's place in communicator COMM for an argument significant AT:
 * 1 significant, 0 not. ROOT: the call's root argument (or none). */
static int significant(int at, int is_root)
{
    return at != LOG_AT_ROOT ? at != LOG_AT_NONROOT || !is_root : is_root;
}

static int is_count(const struct log_arg_desc *a)
{
    size_t n = strlen(a->name);
    return a->dir == LOG_DIR_VALUE && a->enc != LOG_ENC_HANDLE &&
           a->enc != LOG_ENC_PTR &&
           ((n >= 5 && strcmp(a->name + n - 5, "count") == 0) ||
            strcmp(a->name, "blocklength") == 0);
}

/* What each by-value argument of a function is to the rules, worked out
 * from the names once per function (not per call). */
#define PLAN_ARGS 16
struct plan {
    int ready;
    uint8_t at[PLAN_ARGS];    /* significance() */
    uint8_t count[PLAN_ARGS]; /* is_count() */
    uint8_t type[PLAN_ARGS];  /* an MPI_Datatype */
    uint8_t color[PLAN_ARGS]; /* a communicator constructor's color */
};

static const struct plan *plan_of(const struct log_func_desc *d)
{
    static struct plan plans[DRDB_MPI_FUNC_COUNT];
    ptrdiff_t k = d - log_funcs;
    if (k < 0 || k >= DRDB_MPI_FUNC_COUNT || d->nargs > PLAN_ARGS)
        return NULL;
    struct plan *p = &plans[k];
    if (!p->ready) {
        for (int i = 0; i < d->nargs; i++) {
            const struct log_arg_desc *a = &d->args[i];
            p->at[i] = (uint8_t)significance(d, a->name);
            p->count[i] = (uint8_t)is_count(a);
            p->type[i] = !strcmp(a->ctype, "MPI_Datatype");
            p->color[i] = d->kind == LOG_K_COMM_CTOR &&
                          !strcmp(a->name, "color");
        }
        p->ready = 1;
    }
    return p;
}

static const char *type_name(uint32_t t, char *buf, size_t len)
{
    const char *n = log_mpi_handle_name("MPI_Datatype", t);
    if (n)
        return n;
    snprintf(buf, len, "0x%08" PRIx32, t);
    return buf;
}

/* Whether predefined op OP is defined for builtin datatype T (MPI 4.0
 * section 6.9.2): 1 yes, 0 no, -1 not known (a user op or type). */
static int op_defined(uint32_t op, uint32_t t)
{
    const char *o = log_mpi_handle_name("MPI_Op", op);
    const struct log_mpi_type *ty = log_mpi_type_of(t);
    int pair = !ty && log_mpi_handle_name("MPI_Datatype", t) &&
               strstr(log_mpi_handle_name("MPI_Datatype", t), "_INT");
    if (!o || (!ty && !pair) || !strcmp(o, "MPI_REPLACE") ||
        !strcmp(o, "MPI_NO_OP"))
        return -1;
    if (!strcmp(o, "MPI_MAXLOC") || !strcmp(o, "MPI_MINLOC"))
        return pair || (ty && ty->kind == 'p');
    if (pair || (ty && (ty->kind == 'p' || ty->kind == 'b')))
        return ty && ty->kind == 'b' && (!strcmp(o, "MPI_BAND") ||
                                         !strcmp(o, "MPI_BOR") ||
                                         !strcmp(o, "MPI_BXOR"));
    char k = ty->kind;
    if (!strcmp(o, "MPI_MAX") || !strcmp(o, "MPI_MIN"))
        return k == 'i' || k == 'u' || k == 'f' || k == 'c';
    if (!strcmp(o, "MPI_SUM") || !strcmp(o, "MPI_PROD"))
        return k == 'i' || k == 'u' || k == 'f' || k == 'z' || k == 'c';
    if (!strcmp(o, "MPI_LAND") || !strcmp(o, "MPI_LOR") ||
        !strcmp(o, "MPI_LXOR"))
        return k == 'i' || k == 'u' || k == 'l' || k == 'c';
    if (!strcmp(o, "MPI_BAND") || !strcmp(o, "MPI_BOR") ||
        !strcmp(o, "MPI_BXOR"))
        return k == 'i' || k == 'u' || k == 'c';
    return -1;
}

/* The size of the group ranks of a call on handle COMM name (the remote
 * one of an intercommunicator), this rank's rank there, and whether it is
 * an intercommunicator; 0 when the communicator is not known. */
static int comm_shape(struct ev_run *x, int r, uint64_t n, uint32_t h,
                      int *size, int *me, int *inter)
{
    int side = 0;
    int id = ev_comm_of(x, r, n, h, &side);
    const struct ev_comm *c = id >= 0 ? ev_comm_at(x, id) : NULL;
    if (!c)
        return 0;
    *inter = c->inter;
    *size = c->inter ? (side ? c->na : c->nb) : c->na;
    const int32_t *g = side ? c->b : c->a;
    int ng = side ? c->nb : c->na;
    *me = -1;
    for (int i = 0; i < ng; i++)
        if (g[i] == r)
            *me = i;
    return 1;
}

/* ---- handles as the calls so far left them ------------------------------- */

/* A derived datatype or a freed communicator of one rank. */
struct hstate {
    int key;        /* the handle */
    int state;      /* H_* */
    uint64_t event; /* where it was made (datatypes) or freed */
    int fn;         /* the call that did */
};
enum { H_UNCOMMITTED = 1, H_COMMITTED, H_FREED };

static int arg_typed(const struct log_func_desc *d, int dir, const char *ct)
{
    for (int i = 0; i < d->nargs; i++)
        if ((int)d->args[i].dir == dir && !strcmp(d->args[i].ctype, ct))
            return i;
    return -1;
}

/* What call EV (which succeeded) does to rank R's handles in T: a
 * datatype made (uncommitted, or a duplicate's state), committed, freed;
 * a communicator freed, or made again. 0, or -1 out of memory. */
static int track(struct util_htab *t, const struct log_event *ev)
{
    const struct log_func_desc *d = ev->desc;
    struct hstate n = {0, 0, ev->index, ev->fn};
    if (d->kind == LOG_K_TYPE_CTOR && !(d->roles & LOG_R_MPI_OWNED)) {
        n.key = (int)ev__out_handle(ev, d->slot[LOG_S_NEWTYPE]);
        n.state = H_UNCOMMITTED;
        /* MPI_Type_dup: the old type's state (a predefined one is
         * committed) */
        int old = d->slot[LOG_S_OLDTYPE];
        if (old >= 0 && d->nargs == 2 && d->args[old].vpos >= 0) {
            const struct hstate *o =
                util_htab_find(t, (int)log_event_arg(ev, old));
            n.state = o ? o->state : H_COMMITTED;
        }
    } else if (d->roles & LOG_R_COMMIT) {
        struct hstate *e = util_htab_find(
            t, (int)ev__out_handle(ev, arg_typed(d, LOG_DIR_INOUT,
                                                 "MPI_Datatype *")));
        if (e && e->state == H_UNCOMMITTED)
            e->state = H_COMMITTED;
        return 0;
    } else if (d->roles & LOG_R_FREE) {
        struct log_field fl;
        uint32_t h;
        int fa = d->slot[LOG_S_FREED];
        if (fa < 0 || !log_event_find(ev, LOG_ARG_NONE, LOG_F_REQUEST, &fl) ||
            log_field_handle(&fl, &h) < 0)
            return 0;
        struct hstate *e = util_htab_find(t, (int)h);
        if (!strcmp(d->args[fa].ctype, "MPI_Datatype *") && !e)
            return 0; /* not one the log saw made */
        if (strcmp(d->args[fa].ctype, "MPI_Datatype *") &&
            strcmp(d->args[fa].ctype, "MPI_Comm *"))
            return 0;
        n.key = (int)h;
        n.state = H_FREED;
    } else if (d->kind == LOG_K_COMM_CTOR && d->slot[LOG_S_NEWCOMM] >= 0) {
        struct hstate *e = util_htab_find(
            t, (int)ev__out_handle(ev, d->slot[LOG_S_NEWCOMM]));
        if (e)
            util_htab_remove(t, e);
        return 0;
    }
    if (!n.key || n.key == -1)
        return 0;
    return util_htab_put(t, &n);
}

/* Rank R's handles as its events before UPTO left them, into T. */
static int track_to(struct ev_run *x, int r, uint64_t upto,
                    struct util_htab *t)
{
    for (uint64_t e = 0; e < upto; e++) {
        struct log_event ev;
        if (ev_event(x, r, e, &ev, NULL, 0) < 0)
            return 0;
        if (ev.desc && !ev.ret && !ev.cb_entry &&
            !(ev.flags & (LOG_REC_TRUNC | LOG_REC_REPEAT)) &&
            track(t, &ev) < 0)
            return -1;
    }
    return 0;
}

/* Calls that move data of their datatypes (a datatype of theirs must be
 * committed: MPI 4.0 5.1.9). */
static int moves_data(const struct log_func_desc *d)
{
    switch (d->kind) {
    case LOG_K_SEND: case LOG_K_RECV: case LOG_K_SENDRECV: case LOG_K_MRECV:
    case LOG_K_COLL: case LOG_K_RMA: case LOG_K_FILE: case LOG_K_PARTITIONED:
        return 1;
    default:
        return 0;
    }
}

#define FAULT(i, ...)                                                      \
    do {                                                                   \
        snprintf(f->what, sizeof f->what, __VA_ARGS__);                    \
        f->arg = (i);                                                      \
        return 1;                                                          \
    } while (0)

/* The first fault of call EV of rank R, whose handles are as T says: 1
 * with *F, 0 none. */
static int validate(struct ev_run *x, int r, const struct log_event *ev,
                    const struct util_htab *t, struct fault *f)
{
    const struct log_func_desc *d = ev->desc;
    int64_t v[32];
    int nv = log_event_args(ev, v, 32);
    if (!d || nv > 32)
        return 0;
#define VAL(i) (d->args[i].vpos >= 0 ? v[d->args[i].vpos] : 0)
    int sc = d->slot[LOG_S_COMM], size = -1, me = -1, inter = 0;
    if (sc >= 0 && d->args[sc].vpos >= 0) {
        uint32_t h = (uint32_t)VAL(sc);
        if (h == DRDB_MPI_COMM_NULL)
            FAULT(sc, "%s is MPI_COMM_NULL",
                  d->args[sc].name);
        const struct hstate *e = util_htab_find(t, (int)h);
        if (e && e->state == H_FREED)
            FAULT(sc, "%s 0x%08" PRIx32 " was freed by %s at event %" PRIu64
                  " (MPI 4.0 7.4.3: a freed handle is MPI_COMM_NULL)",
                  d->args[sc].name, h, log_func_name(e->fn), e->event);
        if (!comm_shape(x, r, ev->index, h, &size, &me, &inter))
            size = -1;
    }
    char sz[32] = ""; /* " (size N)" when known */
    if (size >= 0)
        snprintf(sz, sizeof sz, " (size %d)", size);
    int sroot = d->slot[LOG_S_ROOT], is_root = 0;
    if (sroot >= 0 && d->args[sroot].vpos >= 0) {
        int64_t root = VAL(sroot);
        is_root = inter ? root == DRDB_MPI_ROOT : root == me;
        int ok = inter ? root == DRDB_MPI_ROOT || root == DRDB_MPI_PROC_NULL ||
                             (root >= 0 && (size < 0 || root < size))
                       : root >= 0 && (size < 0 || root < size);
        if (!ok)
            FAULT(sroot, "root %" PRId64 " is not a rank of the "
                  "communicator%s%s", root,
                  inter ? "'s other group, MPI_ROOT or MPI_PROC_NULL" : "",
                  sz);
    }
    int send = d->kind == LOG_K_SEND;
    int recv = d->kind == LOG_K_RECV || d->kind == LOG_K_PROBE ||
               d->kind == LOG_K_MPROBE;
    int sendrecv = d->kind == LOG_K_SENDRECV;
    int sd = d->slot[LOG_S_DEST], ss = d->slot[LOG_S_SOURCE];
    if ((send || sendrecv) && sd >= 0) {
        int64_t dest = VAL(sd);
        if (dest != DRDB_MPI_PROC_NULL &&
            (dest < 0 || (size >= 0 && dest >= size)))
            FAULT(sd, "%s %" PRId64 "%s is not a rank of the "
                  "communicator%s nor MPI_PROC_NULL", d->args[sd].name, dest,
                  dest == DRDB_MPI_ANY_SOURCE ? " (MPI_ANY_SOURCE)" : "",
                  sz);
    }
    if ((recv || sendrecv) && ss >= 0) {
        int64_t src = VAL(ss);
        if (src != DRDB_MPI_PROC_NULL && src != DRDB_MPI_ANY_SOURCE &&
            (src < 0 || (size >= 0 && src >= size)))
            FAULT(ss, "%s %" PRId64 " is not a rank of the communicator%s, "
                  "MPI_ANY_SOURCE nor MPI_PROC_NULL", d->args[ss].name, src,
                  sz);
    }
    int st = d->slot[LOG_S_TAG], srt = d->slot[LOG_S_RECVTAG];
    if ((send || sendrecv) && st >= 0 && VAL(st) < 0)
        FAULT(st, "%s %" PRId64 "%s in a send: a send's "
              "tag is from 0 to MPI_TAG_UB", d->args[st].name, VAL(st),
              VAL(st) == DRDB_MPI_ANY_TAG ? " (MPI_ANY_TAG)" : "");
    int rt = recv ? st : sendrecv ? srt : -1;
    if (rt >= 0 && VAL(rt) < 0 && VAL(rt) != DRDB_MPI_ANY_TAG)
        FAULT(rt, "%s %" PRId64 " is negative and not "
              "MPI_ANY_TAG", d->args[rt].name, VAL(rt));
    const struct plan *pl = plan_of(d);
    for (int i = 0; pl && i < d->nargs; i++) {
        const struct log_arg_desc *a = &d->args[i];
        if (a->vpos < 0 || !significant(pl->at[i], is_root))
            continue;
        if (pl->count[i] && VAL(i) < 0)
            FAULT(i, "%s %" PRId64 " is negative",
                  a->name, VAL(i));
        int empty = i > 0 && pl->count[i - 1] && VAL(i - 1) == 0;
        if (pl->type[i] && !empty) {
            uint32_t ty = (uint32_t)VAL(i);
            const struct hstate *e = util_htab_find(t, (int)ty);
            if (ty == DRDB_MPI_DATATYPE_NULL)
                FAULT(i, "%s is MPI_DATATYPE_NULL", a->name);
            if (e && e->state == H_FREED)
                FAULT(i, "%s 0x%08" PRIx32 " was freed by %s at event %"
                      PRIu64, a->name, ty, log_func_name(e->fn), e->event);
            if (e && e->state == H_UNCOMMITTED && moves_data(d))
                FAULT(i, "%s 0x%08" PRIx32 ", made by %s at event %" PRIu64
                      ", is not committed (MPI 4.0 5.1.9: a datatype is "
                      "committed before it is used in communication)",
                      a->name, ty, log_func_name(e->fn), e->event);
        }
        if (pl->color[i] && VAL(i) < 0 && VAL(i) != DRDB_MPI_UNDEFINED)
            FAULT(i, "color %" PRId64 " is negative and "
                  "not MPI_UNDEFINED", VAL(i));
    }
    int so = d->slot[LOG_S_OP], sdt = d->slot[LOG_S_DATATYPE];
    if (so >= 0 && d->args[so].vpos >= 0) {
        uint32_t op = (uint32_t)VAL(so);
        char tb[16];
        if (op == DRDB_MPI_OP_NULL)
            FAULT(so, "%s is MPI_OP_NULL", d->args[so].name);
        if (sdt >= 0 && d->args[sdt].vpos >= 0 &&
            op_defined(op, (uint32_t)VAL(sdt)) == 0)
            FAULT(so, "%s is not defined for datatype %s "
                  "(MPI 4.0 section 6.9.2)",
                  log_mpi_handle_name("MPI_Op", op),
                  type_name((uint32_t)VAL(sdt), tb, sizeof tb));
    }
    /* the buffers the record carries: a NULL one for data of a builtin
     * type (MPI_BOTTOM needs absolute addresses: a derived type's), and
     * MPI_IN_PLACE, which no point-to-point call takes */
    for (int b = 0; b < d->nbufs; b++) {
        struct log_bufaddr ba;
        if (log_event_bufaddr(ev, b, &ba) != 1)
            break;
        const struct log_arg_desc *a = &d->args[d->bufs[b]];
        if (ba.addr == UINT64_MAX && (send || recv || sendrecv))
            FAULT(d->bufs[b], "%s is MPI_IN_PLACE, "
                  "which a point-to-point call does not take", a->name);
        if (ba.addr != 0 || !a->length ||
            !significant(a->at, is_root))
            continue;
        /* its "COUNT x TYPE": both by-value arguments */
        for (int c = 0; c + 1 < d->nargs; c++)
            if (is_count(&d->args[c]) && d->args[c].vpos >= 0 &&
                !strcmp(d->args[c + 1].ctype, "MPI_Datatype") &&
                word_in(a->length, d->args[c].name) && VAL(c) > 0 &&
                log_mpi_type_of((uint32_t)VAL(c + 1)))
                FAULT(d->bufs[b], "%s is NULL for "
                      "%" PRId64 " elements of %s", a->name, VAL(c),
                      log_mpi_handle_name("MPI_Datatype",
                                          (uint32_t)VAL(c + 1)));
    }
    return 0;
#undef VAL
}

/* ---- arg.invalid ---------------------------------------------------------- */

/* A fault already reported: by call site (or function) and argument. */
struct seen {
    int fn, arg;
    uint32_t obj;
    uint64_t off;
    uint64_t calls;
    int first_rank;
    uint64_t first_event;
    char what[200];
};

static int run_invalid(struct ev_check_ctx *c, char *err, size_t errlen)
{
    struct ev_run *x = c->x;
    struct seen *seen = NULL;
    size_t nseen = 0, cap = 0;
    char e[256];
    int rc = 0;
    struct util_htab hs = UTIL_HTAB_INIT(struct hstate, key, -1);
    ev__check_note_unlogged(c, "arg.invalid", MISSING_WHY ": its calls are "
                            "not checked");
    for (int i = 0; i < x->nlogged; i++) {
        int r = x->logged[i];
        if (!x->ranks[r].present)
            continue;
        uint64_t n = x->ranks[r].log.nevents;
        util_htab_clear(&hs);
        for (uint64_t ev_no = 0; ev_no < n; ev_no++) {
            struct log_event ev;
            if (c->interrupted && *c->interrupted && ev_no % POLL_EVERY == 0)
                goto out;
            if (ev_event(x, r, ev_no, &ev, e, sizeof e) < 0)
                break;
            /* the call a rank died in is err.fatal's */
            if ((ev.flags & (LOG_REC_TRUNC | LOG_REC_REPEAT)) ||
                ev.cb_entry || !ev.desc)
                continue;
            struct fault f;
            int bad = validate(x, r, &ev, &hs, &f);
            if (!ev.ret && track(&hs, &ev) < 0) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
                goto out;
            }
            if (!bad)
                continue;
            /* MPI returned an error for it, and the program looked at the
             * error (or stopped): a fault detected and handled */
            if (ev.flags & LOG_REC_RET) {
                int st = ev__err_ignored(c, r, &ev);
                if (st < 0)
                    goto out;
                if (!st)
                    continue;
            }
            size_t k = 0;
            while (k < nseen &&
                   !(seen[k].fn == ev.desc->classic && seen[k].arg == f.arg &&
                     seen[k].obj == ev.site_obj && seen[k].off == ev.site_off))
                k++;
            if (k == nseen) {
                if (util_grow(&seen, &cap, nseen + 1, sizeof *seen) < 0) {
                    snprintf(err, errlen, "out of memory");
                    rc = -1;
                    goto out;
                }
                struct seen *s = &seen[nseen++];
                memset(s, 0, sizeof *s);
                s->fn = ev.desc->classic;
                s->arg = f.arg;
                s->obj = ev.site_obj;
                s->off = ev.site_off;
                s->first_rank = r;
                s->first_event = ev_no;
                snprintf(s->what, sizeof s->what, "%s", f.what);
            }
            seen[k].calls++;
        }
    }
out:
    for (size_t k = 0; rc == 0 && k < nseen; k++) {
        struct seen *s = &seen[k];
        struct log_event ev;
        if (ev_event(x, s->first_rank, s->first_event, &ev, e, sizeof e) < 0)
            continue;
        struct ev_check_site site = {s->first_rank, s->first_event,
                                     "called here"};
        struct ev_check_finding fd = {.check = "arg.invalid",
                                      .severity = EV_CHECK_ERROR,
                                      .sites = &site, .nsites = 1};
        char more[64] = "";
        if (s->calls > 1)
            snprintf(more, sizeof more, " (%" PRIu64 " calls from this "
                     "line)", s->calls);
        snprintf(fd.message, sizeof fd.message, "%s: %s%s%s",
                 ev.desc->name, s->what,
                 ev.flags & LOG_REC_RET ? "; MPI returned an error the "
                                          "program went on from" : "",
                 more);
        c->emit(c->ud, &fd);
    }
    free(seen);
    util_htab_release(&hs);
    return rc;
}

/* ---- err.fatal ------------------------------------------------------------ */

/* Whether D initializes MPI's world model (MPI_Init, MPI_Init_thread),
 * which a process may do once; a session's initialization (an MPI_Session
 * output) as often as it likes. */
static int world_init(const struct log_func_desc *d)
{
    if (d->kind != LOG_K_LIFECYCLE ||
        (d->roles & (LOG_R_FINALIZE | LOG_R_ABORT)))
        return 0;
    for (int i = 0; i < d->nargs; i++)
        if (!strcmp(d->args[i].ctype, "MPI_Session *"))
            return 0;
    return 1;
}

/* Where rank R's event N, a call of D, stands in MPI's life, into BUF:
 * " after MPI_Finalize" (an earlier call finalized MPI), " before
 * MPI_Init" (none initialized it), " a second time" (an MPI_Init of an
 * initialized MPI), "" between: MPI 4.0 section 11.2 allows only a few
 * calls outside, and one initialization (11.2.1). */
static const char *when(struct ev_run *x, int r, uint64_t n,
                        const struct log_func_desc *d, char *buf,
                        size_t len)
{
    int init = 0;
    for (uint64_t e = 0; e < n; e++) {
        int fn = ev_fn(x, r, e);
        const struct log_func_desc *f = fn > 0 ? log_func_by_id(fn) : NULL;
        if (!f || f->kind != LOG_K_LIFECYCLE)
            continue;
        if (f->roles & LOG_R_FINALIZE)
            return " after MPI_Finalize";
        if (!(f->roles & LOG_R_ABORT))
            init = 1;
        if (world_init(f) && world_init(d)) {
            snprintf(buf, len, " a second time (%s at event %" PRIu64
                     " initialized MPI, which a process may do once: MPI "
                     "4.0 section 11.2.1)", f->name, e);
            return buf;
        }
    }
    return init ? "" : " before MPI_Init";
}

static int run_fatal(struct ev_check_ctx *c, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    struct ev_run *x = c->x;
    char e[256];
    for (int i = 0; i < x->nlogged; i++) {
        int r = x->logged[i];
        const struct log_rank *lg = &x->ranks[r].log;
        if (!x->ranks[r].present || !lg->died || !lg->nevents)
            continue;
        struct log_event ev;
        if (ev_event(x, r, lg->nevents - 1, &ev, e, sizeof e) < 0 ||
            !ev.desc)
            continue;
        struct fault f;
        struct util_htab hs = UTIL_HTAB_INIT(struct hstate, key, -1);
        int found = track_to(x, r, ev.index, &hs) == 0 &&
                    validate(x, r, &ev, &hs, &f);
        util_htab_release(&hs);
        if (!found && ev.desc->kind == LOG_K_RMA)
            found = ev__rma_explain(c, r, ev.index, f.what,
                                    sizeof f.what) > 0;
        char code[80] = "", es[64];
        if (ev.ret)
            snprintf(code, sizeof code, " with %s",
                     log_mpi_err_str(es, sizeof es, ev.ret));
        int sig = log_rank_signal(x->dir, lg);
        const char *abbrev = sig ? sigabbrev_np(sig) : NULL;
        char how[160];
        if (sig)
            snprintf(how, sizeof how, "it crashed there (SIG%s)",
                     abbrev ? abbrev : "?");
        else if (found)
            snprintf(how, sizeof how, "MPI ended the rank there%s", code);
        else
            snprintf(how, sizeof how, "MPI ended the rank there%s (an error "
                     "the default handler, MPI_ERRORS_ARE_FATAL, made "
                     "fatal)", code);
        struct ev_check_site site = {r, ev.index, "died here"};
        struct ev_check_finding fd = {.check = "err.fatal",
                                      .severity = EV_CHECK_ERROR,
                                      .sites = &site, .nsites = 1};
        char wbuf[200];
        const char *w = when(x, r, ev.index, ev.desc, wbuf, sizeof wbuf);
        if (found)
            snprintf(fd.message, sizeof fd.message,
                     "rank %d died in %s%.140s: %.220s; %.120s", r,
                     ev.desc->name, w, f.what, how);
        else
            snprintf(fd.message, sizeof fd.message,
                     "rank %d died in %s%.140s: %s", r, ev.desc->name, w,
                     how);
        c->emit(c->ud, &fd);
    }
    return 0;
}

/* ---- order.no-finalize ---------------------------------------------------- */

/* A rank whose process exited with MPI initialized and never finalized
 * (its slot says so: log_rank_exited). */
static int run_no_finalize(struct ev_check_ctx *c, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    struct ev_run *x = c->x;
    for (int i = 0; i < x->nlogged; i++) {
        int r = x->logged[i];
        const struct log_rank *lg = &x->ranks[r].log;
        if (!x->ranks[r].present || !log_rank_exited(x->dir, lg))
            continue;
        struct ev_check_site site = {r, lg->nevents ? lg->nevents - 1
                                                    : EV_NONE,
                                     "its last call"};
        struct ev_check_finding fd = {.check = "order.no-finalize",
                                      .severity = EV_CHECK_ERROR,
                                      .sites = &site, .nsites = 1};
        snprintf(fd.message, sizeof fd.message, "rank %d exited without "
                 "calling MPI_Finalize: its process ended with MPI "
                 "initialized (MPI 4.0 section 11.2.2: every process that "
                 "initialized MPI must finalize it before it exits)", r);
        c->emit(c->ud, &fd);
    }
    return 0;
}

const struct ev_check_def ev_check_arg_defs[] = {
    {"arg.invalid", EV_CHECK_ERROR,
     "an argument the MPI standard does not allow (count, rank, root, tag, "
     "null handle, op for the datatype, buffer)", run_invalid},
    {"err.fatal", EV_CHECK_ERROR,
     "a rank MPI ended inside a call (an error made fatal), with the "
     "argument at fault", run_fatal},
    {"order.no-finalize", EV_CHECK_ERROR,
     "a process that exited with MPI initialized, never finalized",
     run_no_finalize},
    {NULL, 0, NULL, NULL},
};
