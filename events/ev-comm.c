/*
 * Communicator identity (events.h: struct ev_comm; the rules in
 * docs/events.md). A communicator is known by its groups' world ranks: the
 * k-th communicator a rank creates with given groups is the same object as
 * the k-th every other member creates with them, so each (groups, k) gets
 * one global id. Each rank's handles are bound to ids per point in time
 * (a handle is reused after MPI_Comm_free): the pass binds them as it
 * reads (ev__comm_lookup() answers "now"), the index keeps every binding
 * for ev_comm_of().
 */
#include <stdlib.h>
#include <string.h>

#include "ev-int.h"

static uint64_t hash_groups(int inter, const int32_t *a, int na,
                            const int32_t *b, int nb)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)inter;
    h = (h ^ (uint64_t)na) * 0x100000001b3ULL;
    h = (h ^ (uint64_t)nb) * 0x100000001b3ULL;
    for (int i = 0; i < na; i++)
        h = (h ^ (uint32_t)a[i]) * 0x100000001b3ULL;
    for (int i = 0; i < nb; i++)
        h = (h ^ (uint32_t)b[i] ^ 0x5a5a0000u) * 0x100000001b3ULL;
    return h ? h : 1;
}

/* Lexicographic order of two groups (then by size). */
static int cmp_group(const int32_t *a, int na, const int32_t *b, int nb)
{
    for (int i = 0; i < na && i < nb; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return na < nb ? -1 : na > nb;
}

static int32_t pool_add(struct ev_index *ix, const int32_t *v, int n)
{
    if (util_grow(&ix->pool, &ix->cappool, ix->npool + (size_t)n + 1,
                  sizeof *ix->pool) < 0) {
        ix->oom = 1;
        return -1;
    }
    if (n)
        memcpy(ix->pool + ix->npool, v, (size_t)n * sizeof *v);
    ix->npool += (size_t)n;
    return 0;
}

static uint64_t key_hash(const struct ev_index *ix, size_t k)
{
    return ix->keys[k].hash;
}

/* The key of these groups (created when new): an index, or -1. */
static int32_t key_of(struct ev_index *ix, int inter, const int32_t *a,
                      int na, const int32_t *b, int nb)
{
    uint64_t h = hash_groups(inter, a, na, b, nb);
    if ((ix->nkeys + 1) * 2 > ix->keytab_cap &&
        ev__itab_grow(&ix->keytab, &ix->keytab_cap, 64, ix, ix->nkeys,
                      key_hash) < 0) {
        ix->oom = 1;
        return -1;
    }
    size_t i = h & (ix->keytab_cap - 1);
    for (; ix->keytab[i] >= 0; i = (i + 1) & (ix->keytab_cap - 1)) {
        struct ev__ckey *k = &ix->keys[ix->keytab[i]];
        if (k->hash == h && k->inter == inter && k->na == na &&
            k->nb == nb &&
            (!na || memcmp(ix->pool + k->aoff, a, (size_t)na * sizeof *a) ==
                        0) &&
            (!nb || memcmp(ix->pool + k->boff, b, (size_t)nb * sizeof *b) ==
                        0))
            return ix->keytab[i];
    }
    if (util_grow(&ix->keys, &ix->capkeys, ix->nkeys + 1,
                  sizeof *ix->keys) < 0) {
        ix->oom = 1;
        return -1;
    }
    struct ev__ckey *k = &ix->keys[ix->nkeys];
    memset(k, 0, sizeof *k);
    k->hash = h;
    k->inter = inter;
    k->na = na;
    k->nb = nb;
    k->cur_rank = -1;
    k->aoff = ix->npool;
    if (pool_add(ix, a, na) < 0)
        return -1;
    k->boff = ix->npool;
    if (pool_add(ix, b, nb) < 0)
        return -1;
    ix->keytab[i] = (int32_t)ix->nkeys;
    return (int32_t)ix->nkeys++;
}

int32_t ev__comm_create(struct ev_index *ix, int rank, uint64_t event,
                        const int32_t *l, int nl, const int32_t *rm, int nr,
                        int *side)
{
    int inter = nr > 0;
    const int32_t *a = l, *b = rm;
    int na = nl, nb = nr;
    *side = 0;
    if (inter && cmp_group(rm, nr, l, nl) < 0) {
        a = rm, na = nr, b = l, nb = nl;
        *side = 1;
    }
    int32_t kid = key_of(ix, inter, a, na, b, nb);
    if (kid < 0)
        return -1;
    struct ev__ckey *k = &ix->keys[kid];
    if (k->cur_rank != rank) {
        k->cur_rank = rank;
        k->cur_count = 0;
    }
    size_t inst = (size_t)k->cur_count++;
    if (inst < k->nids)
        return k->ids[inst];
    /* A new communicator (only the next instance can be new here). */
    if (util_grow(&k->ids, &k->capids, inst + 1, sizeof *k->ids) < 0 ||
        util_grow(&ix->comms, &ix->capcomms, ix->ncomms + 1,
                  sizeof *ix->comms) < 0 ||
        util_grow(&ix->comm_aoff, &ix->capaoff, ix->ncomms + 1,
                  sizeof *ix->comm_aoff) < 0 ||
        util_grow(&ix->comm_boff, &ix->capboff, ix->ncomms + 1,
                  sizeof *ix->comm_boff) < 0) {
        ix->oom = 1;
        return -1;
    }
    while (k->nids < inst)
        k->ids[k->nids++] = -1; /* cannot happen: instances come in order */
    int32_t id = (int32_t)ix->ncomms++;
    struct ev_comm *c = &ix->comms[id];
    memset(c, 0, sizeof *c);
    c->id = id;
    c->inter = inter;
    c->na = na;
    c->nb = nb;
    c->instance = (int)inst;
    c->creator_rank = rank;
    c->creator_event = event;
    ix->comm_aoff[id] = k->aoff;
    ix->comm_boff[id] = k->boff;
    k->ids[k->nids++] = id;
    return id;
}

int32_t ev__world_of(const struct ev_index *ix, int32_t comm, int side,
                     int32_t local)
{
    if (comm < 0 || (size_t)comm >= ix->ncomms || local < 0)
        return -1;
    const struct ev_comm *c = &ix->comms[comm];
    int use_a = !c->inter || side == 1;
    int n = use_a ? c->na : c->nb;
    size_t off = use_a ? ix->comm_aoff[comm] : ix->comm_boff[comm];
    return local < n ? ix->pool[off + (size_t)local] : -1;
}

/* ---- the handles of the rank being read ---------------------------------- */

static void comm_bind(struct ev__pass *p, uint64_t event, uint32_t h,
                      int32_t comm, int side)
{
    struct ev__rank_ix *ri = &p->ix->r[p->rank];
    if (util_grow(&ri->binds, &ri->capbinds, ri->nbinds + 1,
                  sizeof *ri->binds) < 0 ||
        ev__hmap_put(&p->comms, h, (int32_t)ri->nbinds) < 0) {
        p->ix->oom = 1;
        return;
    }
    ri->binds[ri->nbinds++] = (struct ev__bind){event, h, comm, side};
}

void ev__comm_predefined(struct ev__pass *p)
{
    int32_t self = p->rank;
    int side;
    int32_t wid = ev__comm_create(p->ix, p->rank, EV_NONE, p->world,
                                  p->x->world_size, NULL, 0, &side);
    comm_bind(p, 0, EV_COMM_WORLD, wid, side);
    int32_t sid = ev__comm_create(p->ix, p->rank, EV_NONE, &self, 1, NULL, 0,
                                  &side);
    comm_bind(p, 0, EV_COMM_SELF, sid, side);
}

int32_t ev__comm_lookup(struct ev__pass *p, uint32_t h, int *side)
{
    int32_t *b = ev__hmap_get(&p->comms, h);
    *side = 0;
    if (!b)
        return -1;
    const struct ev__bind *bd = &p->ix->r[p->rank].binds[*b];
    *side = bd->side;
    return bd->comm;
}

void ev__comm_new(struct ev__pass *p, const struct log_event *ev, int arg)
{
    struct log_field f;
    size_t cur = 0;
    uint32_t h = 0;
    const uint8_t *mem[2] = {NULL, NULL};
    uint64_t len[2] = {0, 0};
    while (log_event_next_stored(ev, &cur, &f) == 1) {
        if (f.kind == LOG_F_HANDLE && f.arg == (unsigned)arg)
            log_field_handle(&f, &h);
        else if (f.kind == LOG_F_MEMBERS && f.elem < 2) {
            mem[f.elem] = f.data;
            len[f.elem] = f.len;
        }
    }
    if (!h || h == EV_COMM_NULL || !mem[0] || len[0] % 4 || len[1] % 4)
        return;
    size_t nl = len[0] / 4, nr = len[1] / 4;
    if (nl + nr > (1u << 24))
        return;
    int32_t small[256], *v = small;
    if (nl + nr > 256 && !(v = malloc((nl + nr) * sizeof *v))) {
        p->ix->oom = 1;
        return;
    }
    memcpy(v, mem[0], nl * 4);
    if (nr)
        memcpy(v + nl, mem[1], nr * 4);
    int side;
    int32_t id = ev__comm_create(p->ix, p->rank, ev->index, v, (int)nl,
                                 v + nl, (int)nr, &side);
    if (v != small)
        free(v);
    if (id >= 0)
        comm_bind(p, ev->index, h, id, side);
}
