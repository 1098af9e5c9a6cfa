/* ev-check-coll-nbr.c - coll.signature on neighbourhood collectives
 * (ev-check-coll-nbr.h): each member's blocks to its out-neighbours against
 * the blocks they receive from it, paired by the rules of MPI 4.0
 * section 8.6 from the neighbour lists the recorder logged
 * (LOG_F_NEIGHBORS). */
#include <stdlib.h>
#include <string.h>

#include "ev-check-coll-nbr.h"
#include "ev-check-coll.h"
#include "ev-int.h"

/* One member's neighbours (kind 0: none in its record). */
struct nbr {
    struct log_neighbors nb;
    int32_t *v; /* what nb points into */
};

/* Decodes member M's LOG_F_NEIGHBORS field into T: 0, or -1 when its
 * record has none (or a malformed one). */
static int read_nbr(struct ev_run *x, const struct ev__nbr_member *m,
                    struct nbr *t)
{
    struct log_event ev;
    struct log_field f;
    char err[128];
    memset(t, 0, sizeof *t);
    if (ev_event(x, m->rank, m->event, &ev, err, sizeof err) < 0 ||
        !log_event_find(&ev, LOG_ARG_NONE, LOG_F_NEIGHBORS, &f) ||
        !(t->v = malloc((f.len + 1) * sizeof *t->v)))
        return -1;
    if (log_field_neighbors(&f, t->v, f.len + 1, &t->nb) < 0) {
        free(t->v);
        memset(t, 0, sizeof *t);
        return -1;
    }
    return 0;
}

/* The block of receiver R in which it gets sender S's block I (S's local
 * rank SL), -1 when R's neighbours do not list S there (a topology the
 * members disagree on: not compared). */
static int paired_block(const struct log_neighbors *s, int sl, int i,
                        const struct log_neighbors *r)
{
    if (s->kind != r->kind)
        return -1;
    if (s->kind == LOG_TOPO_CART) {
        /* Example 8.10's code: the block sent to the source of dimension
         * k (2k) is received in the receiver's block of its destination
         * (2k+1), and the reverse. In a periodic dimension of size 1 or 2
         * both neighbours are one process: only this tells the blocks
         * apart (MPI 4.0 Annex B.1.1, the erratum to 3.1). */
        int j = i ^ 1;
        return j < r->in && r->src[j] == sl ? j : -1;
    }
    /* Graphs: the t-th edge to a process is its t-th edge from us. */
    int nth = 0;
    for (int k = 0; k < i; k++)
        nth += s->dst[k] == s->dst[i];
    for (int j = 0; j < r->in; j++)
        if (r->src[j] == sl && nth-- == 0)
            return j;
    return -1;
}

/* Element J of member M's array W; -1 when not logged. */
static int64_t elem(const struct ev__nbr_member *m, int w, int j)
{
    return m->arr[w] && j >= 0 && j < m->narr[w] ? m->arr[w][j] : -1;
}

/* Member M's count (W 0 send, 1 receive) or type (2, 3) for its block
 * J: from its array when the function has one (logged whenever the
 * neighbours are), else the one by-value argument SCALAR. */
static int64_t piece_of(const struct ev__nbr_member *m, int w, int j,
                        int64_t scalar)
{
    return m->arr[w] ? elem(m, w, j) : scalar;
}

int ev__nbr_signature(struct ev_run *x, const struct ev__nbr_member *m,
                      int n, ev__nbr_compare cmp, void *ud)
{
    int maxlocal = -1, missing = 0;
    for (int i = 0; i < n; i++)
        maxlocal = m[i].local > maxlocal ? m[i].local : maxlocal;
    struct nbr *t = calloc((size_t)n + 1, sizeof *t);
    int *by_local = malloc(((size_t)maxlocal + 2) * sizeof *by_local);
    if (!t || !by_local) {
        free(t);
        free(by_local);
        return -1;
    }
    for (int l = 0; l <= maxlocal; l++)
        by_local[l] = -1;
    for (int i = 0; i < n; i++)
        if (m[i].local >= 0) {
            by_local[m[i].local] = i;
            missing |= read_nbr(x, &m[i], &t[i]) < 0;
        }
    for (int i = 0; i < n && !missing; i++) {
        const struct ev__nbr_member *s = &m[i];
        for (int k = 0; k < t[i].nb.out; k++) {
            int dl = t[i].nb.dst[k];
            int r = dl >= 0 && dl <= maxlocal ? by_local[dl] : -1;
            int j = r >= 0 ? paired_block(&t[i].nb, s->local, k, &t[r].nb)
                           : -1;
            if (j < 0)
                continue; /* MPI_PROC_NULL, or no log of that member */
            int64_t sc = piece_of(s, 0, k, s->count);
            int64_t st = piece_of(s, 2, k, s->type);
            int64_t rc = piece_of(&m[r], 1, j, m[r].rcount);
            int64_t rt = piece_of(&m[r], 3, j, m[r].rtype);
            if (sc >= 0 && st >= 0 && rc >= 0 && rt >= 0 &&
                cmp(ud, i, sc, (uint32_t)st, r, rc, (uint32_t)rt))
                break;
        }
    }
    for (int i = 0; i < n; i++)
        free(t[i].v);
    free(t);
    free(by_local);
    return missing;
}

/* ---- neighbourhood collectives: per pair of neighbours ----------------- */

/* ev__nbr_compare over the instance in UD (a struct scan). */
static int nbr_compare(void *ud, int snd, int64_t sc, uint32_t st, int rcv,
                       int64_t rc, uint32_t rt)
{
    struct scan *s = ud;
    int before = s->shown + s->more;
    struct piece a = {&s->mem[rcv], rc, rt}, b = {&s->mem[snd], sc, st};
    ev__coll_compare_piece(s, &a, &b);
    return s->shown + s->more != before;
}

void ev__coll_nbr_signature(struct scan *s)
{
    struct ev__nbr_member *nm = malloc(((size_t)s->n + 1) * sizeof *nm);
    if (!nm)
        return;
    for (int i = 0; i < s->n; i++) {
        const struct member *m = &s->mem[i];
        nm[i] = (struct ev__nbr_member){m->k->rank, m->k->event, m->local,
                                        m->count, m->rcount, m->type,
                                        m->rtype, {NULL}, {0}};
        memcpy(nm[i].arr, m->arr, sizeof nm[i].arr);
        memcpy(nm[i].narr, m->narr, sizeof nm[i].narr);
    }
    if (ev__nbr_signature(s->c->x, nm, s->n, nbr_compare, s) == 1)
        s->no_arrays++;
    free(nm);
}
