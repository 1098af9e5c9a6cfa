/* ev-check-coll.c - the coll.* checks (ev-check.h): collectives: members
 * that disagree within an instance, members that never join.
 *
 * A collective instance is the k-th collective call of each member on one
 * communicator (ev_instance, ev_coll.instance): MPI matches collectives by
 * their order on a communicator, so the members of one instance must call
 * the same operation (blocking and nonblocking forms do not match each
 * other; the large-count _c forms match the others), with the same root
 * and reduction op, and move the same type signature between each pair of
 * members: MPI 4.0 section 6.1 ("the type signature associated with
 * sendcount, sendtype at a process must be equal to the type signature
 * associated with recvcount, recvtype at the root"; Bcast, Reduce,
 * Allreduce, Scan, Exscan, Reduce_scatter_block: count and datatype at
 * every member). Unlike point to point, the amounts must be equal, not a
 * prefix.
 *
 * The v- and w-forms and Reduce_scatter are compared per pair from their
 * logged count and datatype arrays (LOG_F_ARRAY); neighbourhood
 * collectives per pair of topology neighbours (ev-check-coll-nbr.c). A
 * send piece that is MPI_IN_PLACE (the root's own piece of Gather(v),
 * Scatter(v)'s receive piece at the root, Allgather(v)'s and Alltoall's)
 * is told from the record's buffer addresses where it has them (a call
 * that starts a request; a blocking one only while one was pending):
 * without them the root's own piece is not compared, and a zero count or
 * MPI_DATATYPE_NULL is taken for MPI_IN_PLACE. User-defined ops are handles
 * of each process: only a predefined op against another op is compared.
 * Intercommunicators' roots and signatures follow their own rules
 * (ev-check-coll-inter.c).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev-check-coll.h"
#include "log-abi.h"

static const char *const names[] = {"coll.operation", "coll.root", "coll.op",
                                    "coll.signature", "coll.missing-member"};

/* Findings of one check on one communicator listed before the rest are
 * only counted (a member that skipped a call shifts every later instance). */
#define MAX_PER_COMM 8

static const char *const arr_names[4] = {"sendcounts", "recvcounts",
                                         "sendtypes", "recvtypes"};

static int64_t val(const struct log_event *ev, int slot)
{
    return slot >= 0 ? log_event_arg(ev, slot) : 0;
}

/* Reads member I's call. 0, or -1 when unreadable. */
static int read_member(struct scan *s, struct member *m, int32_t ci)
{
    struct log_event ev;
    char err[128];
    m->k = ev_coll_at(s->c->x, ci);
    if (ev_event(s->c->x, m->k->rank, m->k->event, &ev, err, sizeof err) < 0 ||
        !ev.desc)
        return -1;
    const struct log_func_desc *d = m->d = ev.desc;
    m->count = val(&ev, d->slot[LOG_S_COUNT]);
    m->rcount = val(&ev, d->slot[LOG_S_RECVCOUNT]);
    m->type = (uint32_t)val(&ev, d->slot[LOG_S_DATATYPE]);
    m->rtype = (uint32_t)val(&ev, d->slot[LOG_S_RECVTYPE]);
    m->root = d->slot[LOG_S_ROOT] >= 0 ? val(&ev, d->slot[LOG_S_ROOT]) : -1;
    m->op = (uint32_t)val(&ev, d->slot[LOG_S_OP]);
    m->local = s->local && m->k->rank < s->c->x->world_size
                   ? s->local[m->k->rank] : -1;
    m->group = m->local >= 0 ? s->group[m->k->rank] : 0;
    m->idle = s->cm && s->cm->inter && d->slot[LOG_S_ROOT] >= 0 &&
              m->root == DRDB_MPI_PROC_NULL;
    memset(m->arr, 0, sizeof m->arr);
    memset(m->narr, 0, sizeof m->narr);
    m->has_arrays = 0;
    m->in_place = -1;
    if (s->want != K_SIGNATURE)
        return 0;
    /* MPI_IN_PLACE among its buffers' logged addresses (LOG_REC_SITE). */
    for (int b = 0; b < d->nbufs; b++) {
        struct log_bufaddr ba;
        if (log_event_bufaddr(&ev, b, &ba) != 1)
            break;
        m->in_place = m->in_place == 1 || ba.addr == UINT64_MAX;
    }
    /* The count and datatype arrays: ARRAY fields of argument none, elem
     * the argument's number (log-format.h). */
    for (int a = 0; a < d->nargs; a++) {
        int w = 0;
        while (w < 4 && strcmp(d->args[a].name, arr_names[w]))
            w++;
        struct log_field f;
        size_t cur = 0;
        int found = 0;
        if (w == 4 || d->args[a].vpos >= 0)
            continue;
        while (!found && log_event_next_stored(&ev, &cur, &f) == 1)
            found = f.kind == LOG_F_ARRAY && f.arg == LOG_ARG_NONE &&
                    f.elem == (uint64_t)a;
        if (!found)
            continue;
        int enc = w >= 2 ? LOG_ENC_HANDLE
                  : strstr(d->args[a].ctype, "MPI_Count") ? LOG_ENC_AINT
                                                           : LOG_ENC_INT;
        int64_t *v = malloc((f.len + 1) * sizeof *v);
        const uint8_t *p = f.data, *end = f.data + f.len;
        int n = 0;
        while (v && p < end && log_get_array_elem(&p, end, enc, &v[n]) == 0)
            n++;
        m->arr[w] = v;
        m->narr[w] = n;
        m->has_arrays = 1;
    }
    return 0;
}

static void free_members(struct scan *s)
{
    for (int i = 0; i < s->n; i++)
        for (int w = 0; w < 4; w++)
            free(s->mem[i].arr[w]);
}

/* Whether A and B are the same operation: one function, or a function
 * and its large-count twin (MPI_Allreduce, MPI_Allreduce_c). */
static int same_operation(const struct log_func_desc *a,
                          const struct log_func_desc *b)
{
    return a->classic == b->classic;
}

static void site(struct scan *s, int rank, uint64_t event, const char *role)
{
    if (s->nsites < MAX_SITES)
        s->sites[s->nsites++] = (struct ev_check_site){rank, event, role};
}

void ev__coll_member_site(struct scan *s, const struct member *m)
{
    int root = m->d->slot[LOG_S_ROOT] >= 0 &&
               (s->cm->inter ? m->root == DRDB_MPI_ROOT
                             : m->local >= 0 && m->local == m->root);
    site(s, m->k->rank, m->k->event, root ? "root" : "member");
}

void ev__coll_call(struct scan *s, const struct member *m, char *buf,
                   size_t len)
{
    ev__call_str(s->c->x, s->t, m->k->rank, m->k->event, buf, len);
}

void ev__coll_emit(struct scan *s, const char *fmt, ...)
{
    if (s->shown >= MAX_PER_COMM) {
        s->more++;
        s->nsites = 0;
        return;
    }
    struct ev_check_finding f;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f.message, sizeof f.message, fmt, ap);
    va_end(ap);
    f.check = names[s->want];
    f.severity = EV_CHECK_ERROR;
    f.sites = s->sites;
    f.nsites = s->nsites;
    s->c->emit(s->c->ud, &f);
    s->shown++;
    s->nsites = 0;
}

/* "collective #3 on MPI_COMM_WORLD" (numbered from 0). */
void ev__coll_instance_str(const struct scan *s, char *buf, size_t len)
{
    if (s->comm == 0)
        snprintf(buf, len, "collective #%d on MPI_COMM_WORLD",
                 s->mem[0].k->instance);
    else
        snprintf(buf, len, "collective #%d on comm #%d",
                 s->mem[0].k->instance, s->comm);
}

/* ---- disagreements within an instance ----------------------------------- */

/* The member that sets what the others must agree with: the root (as the
 * first member names it) for a rooted collective, else the first. */
static int reference(const struct scan *s)
{
    const struct member *m = &s->mem[0];
    if (m->d->slot[LOG_S_ROOT] < 0 || s->cm->inter)
        return 0;
    for (int i = 0; i < s->n; i++)
        if (s->mem[i].local >= 0 && s->mem[i].local == m->root)
            return i;
    return 0;
}

/*
 * One finding when some member's call DIFFERS from the reference member
 * REF's: sites the reference and each member that differs; the message
 * says WHAT they disagree on and names the reference's call and the first
 * that differs.
 */
static void disagreement(struct scan *s, int ref,
                         int (*differs)(const struct member *,
                                        const struct member *),
                         const char *what)
{
    int bad = -1;
    for (int i = 0; i < s->n; i++)
        if (i != ref && differs(&s->mem[ref], &s->mem[i])) {
            if (bad < 0)
                ev__coll_member_site(s, &s->mem[ref]);
            bad = bad < 0 ? i : bad;
            ev__coll_member_site(s, &s->mem[i]);
        }
    if (bad < 0)
        return;
    char inst[64], a[200], b[200];
    ev__coll_instance_str(s, inst, sizeof inst);
    ev__coll_call(s, &s->mem[ref], a, sizeof a);
    ev__coll_call(s, &s->mem[bad], b, sizeof b);
    ev__coll_emit(s, "%s: the members %s: %s at rank %d, %s at rank %d", inst,
                  what, a, s->mem[ref].k->rank, b, s->mem[bad].k->rank);
}

static int other_operation(const struct member *a, const struct member *b)
{
    return !same_operation(a->d, b->d);
}

static int other_root(const struct member *a, const struct member *b)
{
    return a->root != b->root;
}

/* Ops differ where one is predefined: user-defined ops are handles of
 * each process, not comparable. An idle member's op is not significant. */
static int other_op(const struct member *a, const struct member *b)
{
    return a->op != b->op && !a->idle && !b->idle &&
           (log_mpi_handle_name("MPI_Op", a->op) ||
            log_mpi_handle_name("MPI_Op", b->op));
}

static void check_operation(struct scan *s)
{
    disagreement(s, 0, other_operation, "call different operations");
}

static void check_root(struct scan *s)
{
    if (s->mem[0].d->slot[LOG_S_ROOT] < 0)
        return;
    if (s->cm->inter)
        ev__coll_inter_root(s);
    else
        disagreement(s, reference(s), other_root, "name different roots");
}

static void check_op(struct scan *s)
{
    int ref = 0;
    while (ref + 1 < s->n && s->mem[ref].idle)
        ref++;
    if (s->mem[0].d->slot[LOG_S_OP] >= 0)
        disagreement(s, ref, other_op, "reduce with different ops");
}

/* Whether the function's counts are arrays (v- and w-forms,
 * Reduce_scatter). */
int ev__coll_has_count_arrays(const struct log_func_desc *d)
{
    for (int i = 0; i < d->nargs; i++)
        if (d->args[i].vpos < 0 && strstr(d->args[i].name, "counts"))
            return 1;
    return 0;
}

/* Where the buffer described by datatype argument T is significant
 * (enum log_at; 0 unqualified: everywhere). */
int ev__coll_buffer_at(const struct log_func_desc *d, int t)
{
    const char *tn = d->args[t].name;
    for (int i = 0; i < d->nargs; i++) {
        const char *l = d->args[i].length;
        const char *x = l ? strstr(l, " x ") : NULL;
        if (x && !strncmp(x + 3, tn, strlen(tn)) &&
            !isalnum((unsigned char)x[3 + strlen(tn)]))
            return d->args[i].at;
    }
    return 0;
}

/* Compares piece B with the reference A; a finding when they differ. */
void ev__coll_compare_piece(struct scan *s, const struct piece *a,
                          const struct piece *b)
{
    struct ev__sig sa, sb;
    ev__type_sig(s->t, a->m->k->rank, a->m->k->event, a->type, &sa);
    ev__type_sig(s->t, b->m->k->rank, b->m->k->event, b->type, &sb);
    if (ev__sig_has_packed(&sa) || ev__sig_has_packed(&sb))
        return;
    int64_t ba = ev__sig_bytes(&sa, a->count);
    int64_t bb = ev__sig_bytes(&sb, b->count);
    struct ev__sigdiff d = {0};
    char inst[64], ca[200], cb[200], why[160];
    if (ba >= 0 && bb >= 0 && ba != bb) {
        snprintf(why, sizeof why, "%" PRId64 " bytes against %" PRId64
                 " bytes", ba, bb);
    } else {
        if (ev__sig_compare(&sa, a->count, &sb, b->count, ba, &d) < 0 ||
            !d.differ)
            return;
        const char *ta = log_mpi_handle_name("MPI_Datatype", d.ta);
        const char *tb = log_mpi_handle_name("MPI_Datatype", d.tb);
        snprintf(why, sizeof why, "%s type signatures differ at byte %"
                 PRId64 " (%s against %s)", ba >= 0 ? "the same bytes, but the"
                 : "the", d.offset, ta ? ta : "?", tb ? tb : "?");
    }
    ev__coll_member_site(s, a->m);
    ev__coll_member_site(s, b->m);
    ev__coll_instance_str(s, inst, sizeof inst);
    ev__coll_call(s, a->m, ca, sizeof ca);
    ev__coll_call(s, b->m, cb, sizeof cb);
    ev__coll_emit(s, "%s: %s at rank %d and %s at rank %d do not move the "
                  "same data: %s", inst, ca, a->m->k->rank, cb, b->m->k->rank,
                  why);
}

/* Whether M's send piece is not MPI_IN_PLACE. Where the log does not say
 * (no buffer addresses), a zero count or MPI_DATATYPE_NULL stands for it. */
static int sends(const struct member *m)
{
    return m->in_place == 0 ||
           (m->in_place < 0 && m->count > 0 &&
            m->type != DRDB_MPI_DATATYPE_NULL);
}

/* ---- v- and w-forms: per-peer counts (and types) from logged arrays ----- */

/* Element J of member M's array W (0 sendcounts .. 3 recvtypes); -1 when
 * not logged. */
int64_t ev__coll_arr_at(const struct member *m, int w, int j)
{
    return m->arr[w] && j >= 0 && j < m->narr[w] ? m->arr[w][j] : -1;
}

/* Compares the piece sender S sends to receiver R with the piece R
 * expects from S (Alltoallv/w: S's sendcounts[r] against R's
 * recvcounts[s]; in place, S sends what its receive arrays say). */
void ev__coll_vpair(struct scan *s, const struct member *snd,
                  const struct member *rcv, int w_form)
{
    int sw = snd->arr[0] ? 0 : 1; /* no sendcounts logged: in place */
    int64_t sc = ev__coll_arr_at(snd, sw, rcv->local);
    int64_t rc = ev__coll_arr_at(rcv, 1, snd->local);
    int64_t st = w_form ? ev__coll_arr_at(snd, sw + 2, rcv->local)
                 : sw ? snd->rtype : snd->type;
    int64_t rt = w_form ? ev__coll_arr_at(rcv, 3, snd->local) : rcv->rtype;
    if (sc < 0 || rc < 0 || st < 0 || rt < 0)
        return;
    struct piece a = {rcv, rc, (uint32_t)rt}, b = {snd, sc, (uint32_t)st};
    ev__coll_compare_piece(s, &a, &b);
}

static void check_vsignature(struct scan *s)
{
    const struct log_func_desc *d = s->mem[0].d;
    int has[4] = {0}, any = 0;
    for (int a = 0; a < d->nargs; a++)
        for (int w = 0; w < 4; w++)
            has[w] |= !strcmp(d->args[a].name, arr_names[w]);
    for (int i = 0; i < s->n; i++)
        any |= s->mem[i].has_arrays;
    if (!any) {
        s->no_arrays++;
        return;
    }
    int ref = reference(s);
    const struct member *r = &s->mem[ref];
    int rooted = d->slot[LOG_S_ROOT] >= 0;
    for (int i = 0; i < s->n; i++) {
        const struct member *m = &s->mem[i];
        int before = s->shown + s->more; /* one finding per member */
        if (m->local < 0)
            continue;
        if (rooted && (i != ref || r->in_place == 0) && has[1]) { /* Gatherv */
            struct piece a = {r, ev__coll_arr_at(r, 1, m->local), r->rtype};
            struct piece b = {m, m->count, m->type};
            if (a.count >= 0)
                ev__coll_compare_piece(s, &a, &b);
        } else if (rooted && (i != ref || r->in_place == 0) && has[0]) {
            /* Scatterv */
            struct piece a = {r, ev__coll_arr_at(r, 0, m->local), r->type};
            struct piece b = {m, m->rcount, m->rtype};
            if (a.count >= 0)
                ev__coll_compare_piece(s, &a, &b);
        } else if (!rooted && has[0]) { /* Alltoallv, Alltoallw */
            for (int j = 0; j < s->n && s->shown + s->more == before; j++)
                if (s->mem[j].local >= 0)
                    ev__coll_vpair(s, m, &s->mem[j], has[2]);
        } else if (!rooted && d->slot[LOG_S_COUNT] >= 0) { /* Allgatherv */
            if (!sends(m))
                continue; /* in place */
            struct piece b = {m, m->count, m->type};
            for (int j = 0; j < s->n && s->shown + s->more == before; j++) {
                const struct member *q = &s->mem[j];
                struct piece a = {q, ev__coll_arr_at(q, 1, m->local),
                                  q->rtype};
                if (j != i && a.count >= 0)
                    ev__coll_compare_piece(s, &a, &b);
            }
        } else if (!rooted && i != ref) { /* Reduce_scatter */
            for (int k = 0; k < r->narr[1] && s->shown + s->more == before;
                 k++) {
                struct piece a = {r, ev__coll_arr_at(r, 1, k), r->type};
                struct piece b = {m, ev__coll_arr_at(m, 1, k), m->type};
                if (b.count >= 0)
                    ev__coll_compare_piece(s, &a, &b);
            }
        }
    }
}

static void check_signature(struct scan *s)
{
    const struct log_func_desc *d = s->mem[0].d;
    if (d->roles & LOG_R_NEIGHBOR) {
        ev__coll_nbr_signature(s);
        return;
    }
    int t = d->slot[LOG_S_DATATYPE], rt = d->slot[LOG_S_RECVTYPE];
    if (s->cm->inter) {
        ev__coll_inter_signature(s);
        return;
    }
    if (ev__coll_has_count_arrays(d)) {
        check_vsignature(s);
        return;
    }
    if (rt < 0)
        return;
    int ref = reference(s);
    int rooted = d->slot[LOG_S_ROOT] >= 0;
    if (t < 0 || t == rt) {
        /* One count and datatype, the same at every member. */
        struct piece a = {&s->mem[ref], s->mem[ref].rcount, s->mem[ref].rtype};
        for (int i = 0; i < s->n; i++) {
            struct piece b = {&s->mem[i], s->mem[i].rcount, s->mem[i].rtype};
            if (i != ref)
                ev__coll_compare_piece(s, &a, &b);
        }
        return;
    }
    /* A send piece and a receive piece: where each is significant. */
    int send_at = ev__coll_buffer_at(d, t);
    int recv_at = ev__coll_buffer_at(d, rt);
    const struct member *r = &s->mem[ref];
    if (rooted && send_at == LOG_AT_ROOT) { /* Scatter */
        struct piece a = {r, r->count, r->type};
        for (int i = 0; i < s->n; i++) {
            struct piece b = {&s->mem[i], s->mem[i].rcount, s->mem[i].rtype};
            if (i != ref || r->in_place == 0) /* the root's own piece */
                ev__coll_compare_piece(s, &a, &b);
        }
    } else if (rooted && recv_at == LOG_AT_ROOT) { /* Gather */
        struct piece a = {r, r->rcount, r->rtype};
        for (int i = 0; i < s->n; i++) {
            struct piece b = {&s->mem[i], s->mem[i].count, s->mem[i].type};
            if (i != ref || r->in_place == 0)
                ev__coll_compare_piece(s, &a, &b);
        }
    } else if (!rooted) { /* Allgather, Alltoall */
        struct piece a = {r, r->rcount, r->rtype};
        for (int i = 0; i < s->n; i++) {
            const struct member *m = &s->mem[i];
            struct piece rb = {m, m->rcount, m->rtype};
            struct piece sb = {m, m->count, m->type};
            int before = s->shown + s->more;
            if (i != ref)
                ev__coll_compare_piece(s, &a, &rb);
            if (s->shown + s->more == before && sends(m))
                ev__coll_compare_piece(s, &a, &sb); /* one finding per
                                                     * member */
        }
    }
}

/* ---- members that never join -------------------------------------------- */

/* Rank W's communicators with a failed collective call, -1 ended (NULL:
 * none, or no memory). */
static const int32_t *failed_comms(struct scan *s, int w)
{
    struct ev_run *x = s->c->x;
    if (s->failed[w])
        return s->failed[w];
    int32_t *list = NULL;
    size_t n = 0, cap = 0;
    uint64_t nev = x->ranks[w].log.nevents;
    for (uint64_t e = 0; e < nev; e++) {
        int fn = ev_fn(x, w, e);
        const struct ev__fninfo *fi = ev__fn(x->ix, fn);
        struct log_event ev;
        char err[128];
        if (!fi->coll || fi->comm < 0 ||
            ev_event(x, w, e, &ev, err, sizeof err) < 0 || ev.ret == 0)
            continue;
        int64_t a[24];
        int side;
        log_event_args(&ev, a, 24);
        int32_t c = ev_comm_of(x, w, e, (uint32_t)a[fi->comm], &side);
        if (util_grow(&list, &cap, n + 2, sizeof *list) < 0)
            break;
        list[n++] = c;
    }
    if (util_grow(&list, &cap, n + 1, sizeof *list) == 0)
        list[n] = -1;
    s->failed[w] = list;
    return list;
}


/* Whether rank W's log ends in a collective call it is blocked in (its
 * call slot: a hung run). */
static int blocked_in_coll(struct ev_run *x, int w)
{
    struct log_call_slot sl;
    if (!x->ranks[w].present ||
        log_call_in_progress(x->dir, &x->ranks[w].log, &sl) <= 0)
        return 0;
    const struct log_func_desc *d = log_func_by_id((int)sl.fn);
    return d && (d->kind == LOG_K_COLL || d->kind == LOG_K_COMM_CTOR);
}

/* Whether rank W made a collective call on COMM that failed: it called
 * something there, MPI said no (err.* looks at ignored errors). */
static int failed_on(struct scan *s, int w, int32_t comm)
{
    const int32_t *l = failed_comms(s, w);
    for (; l && *l >= 0; l++)
        if (*l == comm)
            return 1;
    return 0;
}

static void check_missing(struct scan *s)
{
    struct ev_run *x = s->c->x;
    const struct ev_comm *cm = s->cm;
    int done = 0;
    for (int i = 0; i < s->n && !done; i++)
        done = s->mem[i].k->done != EV_NONE;
    if (!done || s->n >= cm->na + cm->nb)
        return;
    int nmissing = 0, first_missing = -1;
    for (int g = 0; g < cm->na + cm->nb; g++) {
        int w = g < cm->na ? cm->a[g] : cm->b[g - cm->na];
        int joined = 0;
        for (int i = 0; i < s->n && !joined; i++)
            joined = s->mem[i].k->rank == w;
        if (joined || w < 0 || w >= x->world_size)
            continue;
        char why[160];
        enum log_ending e = x->ranks[w].present
                                ? log_rank_ending(&x->ranks[w].log, why,
                                                  sizeof why)
                                : LOG_END_CORRUPT;
        if (e == LOG_END_TRUNCATED || e == LOG_END_CORRUPT ||
            failed_on(s, w, s->comm) || blocked_in_coll(x, w))
            continue; /* its log cannot say (noted once per rank), its
                       * call failed, or it is blocked in a collective
                       * (coll.blocked-mismatch's: it may be this one) */
        uint64_t nev = x->ranks[w].log.nevents;
        if (first_missing < 0) {
            for (int i = 0; i < s->n; i++)
                ev__coll_member_site(s, &s->mem[i]);
            first_missing = w;
        }
        site(s, w, nev ? nev - 1 : EV_NONE, "never joined; its last call");
        nmissing++;
    }
    if (!nmissing)
        return;
    char inst[64], a[200];
    ev__coll_instance_str(s, inst, sizeof inst);
    ev__coll_call(s, &s->mem[0], a, sizeof a);
    uint64_t nev = x->ranks[first_missing].log.nevents;
    int lastfn = nev ? ev_fn(x, first_missing, nev - 1) : -1;
    ev__coll_emit(s, "%s: %s at rank %d (%d of %d members called it, and it "
         "completed) is never called by %d member%s: rank %d's log ends "
         "%s%s", inst, a, s->mem[0].k->rank, s->n, cm->na + cm->nb,
         nmissing, nmissing > 1 ? "s" : "", first_missing,
         lastfn >= 0 ? "in " : "with no call",
         lastfn >= 0 ? log_func_name(lastfn) : "");
}

/* ---- the scan over instances -------------------------------------------- */

/* Says what the last communicator had past MAX_PER_COMM. */
static void flush_comm(struct scan *s)
{
    s->more_total += (size_t)s->more;
    s->shown = s->more = 0;
}

/* Sets up communicator COMM for its instances. */
static void enter_comm(struct scan *s, int32_t comm)
{
    flush_comm(s);
    s->comm = comm;
    s->cm = ev_comm_at(s->c->x, comm);
    for (int w = 0; w < s->c->x->world_size; w++)
        s->local[w] = -1;
    /* An intercommunicator's groups are disjoint: each member has one
     * group and its rank there. */
    for (int side = 0; s->cm && side < 2; side++) {
        const int32_t *v = side ? s->cm->b : s->cm->a;
        for (int g = 0; g < (side ? s->cm->nb : s->cm->na); g++)
            if (v[g] >= 0 && v[g] < s->c->x->world_size) {
                s->local[v[g]] = g;
                s->group[v[g]] = (int8_t)side;
            }
    }
}

static void one_compare(struct scan *s);

static void one_instance(struct scan *s, const int32_t *ci, int n)
{
    s->n = 0;
    s->nsites = 0;
    for (int i = 0; i < n; i++)
        if (read_member(s, &s->mem[s->n], ci[i]) == 0)
            s->n++;
    if (!s->n || !s->cm)
        return;
    one_compare(s);
    free_members(s);
}

/* The checks of the instance read into S. */
static void one_compare(struct scan *s)
{
    if (s->want == K_MISSING) {
        check_missing(s);
        return;
    }
    /* Two calls of one rank in one instance: a numbering the index could
     * not make (a rank whose log is cut): nothing to compare. */
    for (int i = 1; i < s->n; i++)
        if (s->mem[i].k->rank == s->mem[i - 1].k->rank)
            return;
    if (s->want == K_OPERATION) {
        check_operation(s);
        return;
    }
    for (int i = 1; i < s->n; i++)
        if (!same_operation(s->mem[0].d, s->mem[i].d))
            return; /* coll.operation's */
    if (s->want == K_ROOT)
        check_root(s);
    else if (s->want == K_OP)
        check_op(s);
    else
        check_signature(s);
}

static int run(struct ev_check_ctx *c, int want, char *err, size_t errlen)
{
    struct ev_run *x = c->x;
    struct ev_index *ix = x->ix;
    struct scan s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.want = want;
    s.comm = -1;
    s.local = malloc(((size_t)x->world_size + 1) * sizeof *s.local);
    s.group = malloc(((size_t)x->world_size + 1) * sizeof *s.group);
    s.mem = malloc(((size_t)x->world_size + 1) * 2 * sizeof *s.mem);
    s.failed = calloc((size_t)x->world_size + 1, sizeof *s.failed);
    s.t = ev__types_build(x); /* signatures, and derived types' names */
    if (!s.local || !s.group || !s.mem || !s.t || !s.failed) {
        free(s.local);
        free(s.group);
        free(s.mem);
        free(s.failed);
        ev__types_free(s.t);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t n = ix->ncolls, i = 0;
    while (i < n) {
        if (c->interrupted && *c->interrupted)
            break;
        const struct ev_coll *k = &ix->colls[ix->coll_sorted[i]];
        size_t j = i + 1;
        while (j < n && ix->colls[ix->coll_sorted[j]].comm == k->comm &&
               ix->colls[ix->coll_sorted[j]].instance == k->instance)
            j++;
        if (k->comm >= 0 && k->instance >= 0) {
            if (k->comm != s.comm)
                enter_comm(&s, k->comm);
            size_t cnt = j - i;
            if (cnt > (size_t)x->world_size * 2)
                cnt = (size_t)x->world_size * 2;
            one_instance(&s, ix->coll_sorted + i, (int)cnt);
        }
        i = j;
    }
    flush_comm(&s);
    if (s.no_arrays) {
        char msg[240];
        snprintf(msg, sizeof msg, "%zu v-, w- or neighbourhood collective "
                 "instance%s not compared: %s count arrays or topology "
                 "neighbours are not in the log (recorded by an older drdb)",
                 s.no_arrays, s.no_arrays > 1 ? "s" : "",
                 s.no_arrays > 1 ? "their" : "its");
        c->note(c->ud, names[want], msg);
    }
    if (s.more_total) {
        char msg[200];
        snprintf(msg, sizeof msg, "%zu more findings not listed (at most %d "
                 "per communicator: a member that skipped a collective "
                 "shifts every later one)", s.more_total, MAX_PER_COMM);
        c->note(c->ud, names[want], msg);
    }
    if (want == K_MISSING)
        ev__check_note_unlogged(c, names[want], ": whether it joined its "
                                "collectives is not known");
    for (int k = 0; want == K_MISSING && k < x->nlogged; k++) {
        char why[160], msg[256];
        int r = x->logged[k];
        if (!x->ranks[r].present)
            snprintf(msg, sizeof msg, "rank %d has no log: whether it "
                     "joined its collectives is not known", r);
        else if (log_rank_ending(&x->ranks[r].log, why, sizeof why) ==
                     LOG_END_TRUNCATED ||
                 log_rank_ending(&x->ranks[r].log, why, sizeof why) ==
                     LOG_END_CORRUPT)
            snprintf(msg, sizeof msg, "rank %d's log is %s: the "
                     "collectives it did not log are not reported", r,
                     why);
        else
            continue;
        c->note(c->ud, names[want], msg);
    }
    for (int r = 0; r < x->world_size; r++)
        free(s.failed[r]);
    free(s.failed);
    free(s.local);
    free(s.group);
    free(s.mem);
    ev__types_free(s.t);
    return 0;
}

static int run_operation(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, K_OPERATION, err, errlen);
}

static int run_root(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, K_ROOT, err, errlen);
}

static int run_op(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, K_OP, err, errlen);
}

static int run_signature(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, K_SIGNATURE, err, errlen);
}

static int run_missing(struct ev_check_ctx *c, char *err, size_t errlen)
{
    return run(c, K_MISSING, err, errlen);
}

const struct ev_check_def ev_check_coll_defs[] = {
    {"coll.operation", EV_CHECK_ERROR,
     "the members of one collective instance call different operations "
     "(MPI_Bcast against MPI_Reduce, blocking against nonblocking)",
     run_operation},
    {"coll.root", EV_CHECK_ERROR,
     "the members of one rooted collective instance name different roots "
     "(on an intercommunicator, other than MPI_ROOT at the root, "
     "MPI_PROC_NULL in the rest of its group, its rank in the other group)",
     run_root},
    {"coll.op", EV_CHECK_ERROR,
     "the members of one reduction instance name different ops", run_op},
    {"coll.signature", EV_CHECK_ERROR,
     "the members of one collective instance do not move the same type "
     "signature x count (different bytes, or the same bytes of other types)",
     run_signature},
    {"coll.missing-member", EV_CHECK_ERROR,
     "members of a communicator that never call a collective the others "
     "called and completed", run_missing},
    {NULL, 0, NULL, NULL},
};
