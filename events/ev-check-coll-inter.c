/* ev-check-coll-inter.c - coll.root and coll.signature on
 * intercommunicators (ev-check-coll.h; the rules in docs/check.md).
 *
 * An intercommunicator collective moves data between its two groups, not
 * within one (MPI 4.0 section 6.2.2). A rooted one (Bcast, Gather(v),
 * Scatter(v), Reduce) has its root in one group: the root passes
 * MPI_ROOT, the rest of its group MPI_PROC_NULL (they take no part), and
 * every member of the other group the root's rank in the root's group.
 * The data flows between the root and each member of the other group;
 * Allgather(v) and Alltoall(v,w) from each member to every member of the
 * other group (the v- and w-forms' arrays indexed by the rank in the
 * remote group); Allreduce has one count x datatype in both groups;
 * Reduce_scatter(_block): the members of one group provide the same
 * recvcount(s), and a group's whole vector (its size x recvcount, or the
 * sum of its recvcounts) is as long as the other group's (MPI 4.0 sections
 * 6.9.1, 6.11.1, 6.11.2).
 *
 * Each member's group and rank there come from the communicator's groups
 * as its creation logged them (ev-comm.c: MPI_Intercomm_create's local and
 * remote groups, in rank order).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ev-check-coll.h"
#include "log-abi.h"

/* ---- roots -------------------------------------------------------------- */

static void root_str(int64_t root, char *buf, size_t len)
{
    if (root == DRDB_MPI_ROOT)
        snprintf(buf, len, "MPI_ROOT");
    else if (root == DRDB_MPI_PROC_NULL)
        snprintf(buf, len, "MPI_PROC_NULL");
    else
        snprintf(buf, len, "root %" PRId64, root);
}

/*
 * The root of instance S: its group *G and its rank there *R, and the
 * member that says so, or -1 when no member does. The member passing
 * MPI_ROOT says so; without one, the members that name a rank do: those
 * of the group where more of them do (the other group), the first of them.
 */
static int root_of(const struct scan *s, int *g, int64_t *r)
{
    int first[2] = {-1, -1}, count[2] = {0, 0};
    for (int i = 0; i < s->n; i++) {
        const struct member *m = &s->mem[i];
        if (m->local < 0)
            continue;
        if (m->root == DRDB_MPI_ROOT) {
            *g = m->group;
            *r = m->local;
            return i;
        }
        if (m->root >= 0) {
            if (first[m->group] < 0)
                first[m->group] = i;
            count[m->group]++;
        }
    }
    int naming = count[1] > count[0];
    if (!count[naming])
        return -1;
    *g = !naming;
    *r = s->mem[first[naming]].root;
    return first[naming];
}

/* What member M must pass when the root is rank R of group G. */
static int64_t expected_root(const struct member *m, int g, int64_t r)
{
    if (m->group != g)
        return r;
    return m->local == r ? DRDB_MPI_ROOT : DRDB_MPI_PROC_NULL;
}

/* Two members pass MPI_ROOT: one finding (sites: each of them). */
static int two_roots(struct scan *s)
{
    int first = -1, second = -1, n = 0;
    for (int i = 0; i < s->n; i++)
        if (s->mem[i].local >= 0 && s->mem[i].root == DRDB_MPI_ROOT) {
            ev__coll_member_site(s, &s->mem[i]);
            first = first < 0 ? i : first;
            second = n == 1 ? i : second;
            n++;
        }
    if (n < 2) {
        s->nsites = 0;
        return 0;
    }
    char inst[64], a[200], b[200];
    ev__coll_instance_str(s, inst, sizeof inst);
    ev__coll_call(s, &s->mem[first], a, sizeof a);
    ev__coll_call(s, &s->mem[second], b, sizeof b);
    ev__coll_emit(s, "%s: %d members pass MPI_ROOT: %s at rank %d and %s at "
                  "rank %d (on an intercommunicator only the root passes "
                  "MPI_ROOT, the rest of its group MPI_PROC_NULL)", inst, n,
                  a, s->mem[first].k->rank, b, s->mem[second].k->rank);
    return 1;
}

void ev__coll_inter_root(struct scan *s)
{
    int g = 0;
    int64_t r = 0;
    if (two_roots(s))
        return;
    int ref = root_of(s, &g, &r), bad = -1;
    if (ref < 0)
        return; /* every member passes MPI_PROC_NULL: nothing moves */
    for (int i = 0; i < s->n; i++) {
        const struct member *m = &s->mem[i];
        if (i == ref || m->local < 0 || m->root == expected_root(m, g, r))
            continue;
        if (bad < 0)
            ev__coll_member_site(s, &s->mem[ref]);
        bad = bad < 0 ? i : bad;
        ev__coll_member_site(s, m);
    }
    if (bad < 0)
        return;
    const struct member *m = &s->mem[bad];
    char inst[64], a[200], b[200], got[32], want[96];
    ev__coll_instance_str(s, inst, sizeof inst);
    ev__coll_call(s, &s->mem[ref], a, sizeof a);
    ev__coll_call(s, m, b, sizeof b);
    root_str(m->root, got, sizeof got);
    if (m->group != g)
        snprintf(want, sizeof want, "the root is rank %" PRId64 " of the "
                 "other group", r);
    else if (m->local == r)
        snprintf(want, sizeof want, "the root passes MPI_ROOT: the other "
                 "group names it");
    else
        snprintf(want, sizeof want, "the rest of the root's group passes "
                 "MPI_PROC_NULL");
    ev__coll_emit(s, "%s: %s at rank %d passes %s, but %s (%s at rank %d)",
                  inst, b, m->k->rank, got, want, a, s->mem[ref].k->rank);
}

/* ---- signatures --------------------------------------------------------- */

static int has_arg(const struct log_func_desc *d, const char *name)
{
    for (int a = 0; a < d->nargs; a++)
        if (!strcmp(d->args[a].name, name))
            return 1;
    return 0;
}

/* Whether some finding was made since BEFORE (s->shown + s->more). */
static int found(const struct scan *s, int before)
{
    return s->shown + s->more != before;
}

/* A rooted collective: the root's piece against each member of the other
 * group that names it. */
static void rooted(struct scan *s)
{
    const struct log_func_desc *d = s->mem[0].d;
    int t = d->slot[LOG_S_DATATYPE], rt = d->slot[LOG_S_RECVTYPE];
    const struct member *r = NULL;
    for (int i = 0; i < s->n; i++)
        if (s->mem[i].local >= 0 && s->mem[i].root == DRDB_MPI_ROOT) {
            if (r)
                return; /* two roots: coll.root's */
            r = &s->mem[i];
        }
    if (!r || rt < 0)
        return;
    int gatherv = has_arg(d, "recvcounts"), scatterv = has_arg(d,
                                                                "sendcounts");
    if ((gatherv && !r->arr[1]) || (scatterv && !r->arr[0])) {
        s->no_arrays++;
        return;
    }
    int send_at = t >= 0 ? ev__coll_buffer_at(d, t) : 0;
    for (int i = 0; i < s->n; i++) {
        const struct member *m = &s->mem[i];
        struct piece a = {r, r->rcount, r->rtype}; /* Bcast, Reduce */
        struct piece b = {m, m->rcount, m->rtype};
        if (m->local < 0 || m->group == r->group || m->root != r->local)
            continue; /* in the root's group, or coll.root's */
        if (gatherv) {
            a.count = ev__coll_arr_at(r, 1, m->local);
            b = (struct piece){m, m->count, m->type};
        } else if (scatterv) {
            a = (struct piece){r, ev__coll_arr_at(r, 0, m->local), r->type};
        } else if (t >= 0 && t != rt && send_at == LOG_AT_ROOT) {
            a = (struct piece){r, r->count, r->type}; /* Scatter */
        } else if (t >= 0 && t != rt) {
            b = (struct piece){m, m->count, m->type}; /* Gather */
        }
        if (a.count >= 0)
            ev__coll_compare_piece(s, &a, &b);
    }
}

/* Reduce_scatter(_block): within each group the members' recvcount(s) are
 * the first member's; the groups' whole vectors are as long. */
static void reduce_scatter(struct scan *s, int arrays)
{
    const struct member *first[2] = {NULL, NULL};
    int64_t total[2] = {0, 0};
    int size[2] = {s->cm->na, s->cm->nb};
    for (int i = 0; i < s->n; i++) {
        const struct member *m = &s->mem[i];
        if (m->local < 0)
            continue;
        const struct member *f = first[m->group];
        if (!f) {
            first[m->group] = m;
            continue;
        }
        int before = s->shown + s->more;
        /* recvcounts has one element per member of the caller's group (the
         * log may hold more: the recorder sizes it by the remote group). */
        for (int k = 0; arrays && k < size[m->group] && !found(s, before);
             k++) {
            struct piece a = {f, ev__coll_arr_at(f, 1, k), f->type};
            struct piece b = {m, ev__coll_arr_at(m, 1, k), m->type};
            if (a.count >= 0 && b.count >= 0)
                ev__coll_compare_piece(s, &a, &b);
        }
        if (!arrays) {
            struct piece a = {f, f->rcount, f->rtype};
            struct piece b = {m, m->rcount, m->rtype};
            ev__coll_compare_piece(s, &a, &b);
        }
    }
    if (!first[0] || !first[1])
        return;
    for (int g = 0; g < 2; g++) {
        const struct member *f = first[g];
        if (!arrays)
            total[g] = (int64_t)size[g] * f->rcount;
        for (int k = 0; arrays && k < size[g]; k++) {
            int64_t c = ev__coll_arr_at(f, 1, k);
            if (c < 0)
                return; /* not logged */
            total[g] += c;
        }
    }
    struct piece a = {first[0], total[0], first[0]->rtype};
    struct piece b = {first[1], total[1], first[1]->rtype};
    ev__coll_compare_piece(s, &a, &b);
}

void ev__coll_inter_signature(struct scan *s)
{
    const struct log_func_desc *d = s->mem[0].d;
    int rt = d->slot[LOG_S_RECVTYPE];
    if (d->slot[LOG_S_ROOT] >= 0) {
        rooted(s);
        return;
    }
    int arrays = ev__coll_has_count_arrays(d);
    if ((!arrays && rt < 0) || (d->roles & LOG_R_NEIGHBOR))
        return; /* Barrier; a topology needs an intracommunicator */
    for (int i = 0; arrays && i < s->n; i++)
        if (!s->mem[i].has_arrays) {
            s->no_arrays++;
            return;
        }
    if (has_arg(d, "op")) { /* (Scan and Exscan: not on intercomms) */
        if (arrays || d->slot[LOG_S_COUNT] < 0) {
            reduce_scatter(s, arrays);
            return;
        }
        for (int i = 1; i < s->n; i++) { /* Allreduce */
            struct piece a = {&s->mem[0], s->mem[0].rcount, s->mem[0].rtype};
            struct piece b = {&s->mem[i], s->mem[i].rcount, s->mem[i].rtype};
            ev__coll_compare_piece(s, &a, &b);
        }
        return;
    }
    /* Allgather(v), Alltoall(v,w): what each receiver Q expects from each
     * member M of the other group against what M sends it (a finding per
     * receiver at most). */
    int w_form = has_arg(d, "sendtypes"), all_to_all = has_arg(d,
                                                               "sendcounts");
    for (int j = 0; j < s->n; j++) {
        const struct member *q = &s->mem[j];
        int before = s->shown + s->more;
        for (int i = 0; i < s->n && q->local >= 0 && !found(s, before); i++) {
            const struct member *m = &s->mem[i];
            if (m->local < 0 || m->group == q->group)
                continue;
            if (all_to_all) {
                ev__coll_vpair(s, m, q, w_form);
                continue;
            }
            /* Allgather, Alltoall */
            struct piece a = {q, q->rcount, q->rtype};
            struct piece b = {m, m->count, m->type};
            if (arrays) /* Allgatherv */
                a.count = ev__coll_arr_at(q, 1, m->local);
            if (a.count >= 0)
                ev__coll_compare_piece(s, &a, &b);
        }
    }
}
