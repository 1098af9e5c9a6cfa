/*
 * The event index of a run: communicator identity, message matching and
 * collective instances, built in one pass over each rank's log (events.h; the
 * rules are in docs/events.md).
 *
 * Everything lives in flat arrays that grow by doubling: messages,
 * collectives, communicators, and per rank a sorted table of the events
 * that refer to them. Handles are looked up in small open-addressing hash
 * tables. Nothing is allocated per event.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "log-abi.h"
#include "log-codec.h"
#include "util.h"

/* ---- what each function is ---------------------------------------------- */

enum cls {
    C_NONE,
    C_SEND,       /* Send, Ssend, Bsend, Rsend */
    C_ISEND,      /* their I- forms */
    C_RECV,
    C_IRECV,
    C_SENDRECV,   /* Sendrecv, Sendrecv_replace */
    C_ISENDRECV,
    C_PSEND,      /* Send_init, Ssend_init, ... */
    C_PRECV,      /* Recv_init */
    C_START,
    C_STARTALL,
    C_PROBE,      /* Probe, Iprobe: look, do not take */
    C_MPROBE,     /* Mprobe, Improbe */
    C_MRECV,
    C_IMRECV,
    C_DONE1,      /* Wait, Test: request argument 0 */
    C_DONEN,      /* Waitall, ...: the request array is argument 1 */
    C_REQFREE,
    C_OTHER,      /* only its collective part or new communicator counts */
};

/* fninfo.coll */
enum { K_BLOCKING = 1, K_NONBLOCKING, K_PERSISTENT };

struct fninfo {
    uint8_t cls, coll;
    /* by-value argument positions (log_event_args order), -1 none */
    int8_t count, type, dest, tag, rcount, rtype, source, rtag, comm;
    /* argument indices (field args) */
    int8_t req_arg, newcomm_arg;
};

static struct fninfo *fninfo;
static int fninfo_max;

/* The position among the by-value arguments (log_event_args order) of the
 * argument in slot S, -1 when D has none. */
static int8_t val_pos(const struct log_func_desc *d, enum log_slot s)
{
    int i = d->slot[s];
    return (int8_t)(i >= 0 ? d->args[i].vpos : -1);
}

/* What the index does with a call, from its roles in the spec. */
static void classify(const struct log_func_desc *d, struct fninfo *fi)
{
    int nb = (d->roles & LOG_R_NB) != 0;
    int persistent = (d->roles & LOG_R_PERSISTENT) != 0;
    memset(fi, -1, sizeof *fi);
    fi->coll = 0;
    switch (d->kind) {
    case LOG_K_SEND:
        fi->cls = persistent ? C_PSEND : nb ? C_ISEND : C_SEND;
        break;
    case LOG_K_RECV:
        fi->cls = persistent ? C_PRECV : nb ? C_IRECV : C_RECV;
        break;
    case LOG_K_SENDRECV: fi->cls = nb ? C_ISENDRECV : C_SENDRECV; break;
    case LOG_K_START: fi->cls = C_START; break;
    case LOG_K_STARTALL: fi->cls = C_STARTALL; break;
    case LOG_K_PROBE: fi->cls = C_PROBE; break;
    case LOG_K_MPROBE: fi->cls = C_MPROBE; break;
    case LOG_K_MRECV: fi->cls = nb ? C_IMRECV : C_MRECV; break;
    case LOG_K_COMPLETION:
        fi->cls = d->slot[LOG_S_REQUESTS] >= 0 ? C_DONEN : C_DONE1;
        break;
    case LOG_K_REQUEST_FREE: fi->cls = C_REQFREE; break;
    default: fi->cls = C_NONE; break;
    }
    /* Collective instances: collectives, and communicator constructors
     * collective over their communicator. */
    if (d->kind == LOG_K_COLL)
        fi->coll = persistent ? K_PERSISTENT : nb ? K_NONBLOCKING : K_BLOCKING;
    else if (d->kind == LOG_K_COMM_CTOR &&
             !(d->roles & (LOG_R_GROUP | LOG_R_DYNAMIC)))
        fi->coll = nb ? K_NONBLOCKING : K_BLOCKING;
    fi->newcomm_arg = d->kind == LOG_K_COMM_CTOR ? d->slot[LOG_S_NEWCOMM] : -1;
    /* Others that create requests are tracked too: a handle in use again
     * ends the request that had it. */
    int req = d->slot[LOG_S_REQUEST];
    int new_request = req >= 0 && d->args[req].dir == LOG_DIR_OUT &&
                      d->kind != LOG_K_CANCEL;
    if (fi->cls == C_NONE && (fi->coll || fi->newcomm_arg >= 0 || new_request))
        fi->cls = C_OTHER;
    if (fi->cls == C_NONE)
        return;
    fi->req_arg = (int8_t)req;
    fi->count = val_pos(d, LOG_S_COUNT);
    fi->type = val_pos(d, LOG_S_DATATYPE);
    fi->dest = val_pos(d, LOG_S_DEST);
    fi->tag = val_pos(d, LOG_S_TAG);
    fi->rcount = val_pos(d, LOG_S_RECVCOUNT);
    fi->rtype = val_pos(d, LOG_S_RECVTYPE);
    fi->source = val_pos(d, LOG_S_SOURCE);
    fi->rtag = val_pos(d, LOG_S_RECVTAG);
    fi->comm = val_pos(d, LOG_S_COMM);
}

static int fninfo_init(void)
{
    if (fninfo)
        return 0;
    int max = 0;
    for (int i = 0; i < log_funcs_count; i++)
        if (log_funcs[i].id > max)
            max = log_funcs[i].id;
    struct fninfo *t = calloc((size_t)max + 1, sizeof *t);
    if (!t)
        return -1;
    for (int i = 0; i < log_funcs_count; i++)
        classify(&log_funcs[i], &t[log_funcs[i].id]);
    fninfo_max = max;
    fninfo = t;
    return 0;
}

static const struct fninfo *info_of(int fn)
{
    static const struct fninfo none = {C_NONE, 0, -1, -1, -1, -1, -1, -1,
                                       -1, -1, -1, -1, -1};
    return fn >= 0 && fn <= fninfo_max ? &fninfo[fn] : &none;
}

/* ---- small containers --------------------------------------------------- */

/* The handle maps: handle -> int32 in a util table. 0 is no communicator
 * or request handle in MPICH: it marks a free slot. */
struct hent {
    int32_t h;
    int32_t v;
};
#define HMAP_INIT UTIL_HTAB_INIT(struct hent, h, 0)

static int32_t *hmap_get(struct util_htab *m, uint32_t h)
{
    struct hent *e = util_htab_find(m, (int32_t)h);
    return e ? &e->v : NULL;
}

static int hmap_put(struct util_htab *m, uint32_t h, int32_t v)
{
    struct hent e = {(int32_t)h, v};
    return util_htab_put(m, &e);
}

/* ---- the index ---------------------------------------------------------- */

/* An event's reference to a message or collective (sorted by event). */
struct xref {
    uint64_t event;
    int32_t i;
    int32_t role;
};

/* A communicator handle bound at an event. */
struct bind {
    uint64_t event;
    uint32_t handle;
    int32_t comm;
    int32_t side;
};

struct rank_ix {
    struct xref *refs;
    size_t nrefs, caprefs;
    struct bind *binds;
    size_t nbinds, capbinds;
};

/* A communicator's groups, as a key: the k-th with this key is one id. */
struct ckey {
    uint64_t hash;
    int inter, na, nb;
    size_t aoff, boff; /* into the member pool */
    int cur_rank, cur_count;
    int32_t *ids;      /* the global id of each instance */
    size_t nids, capids;
};

/* A point-to-point channel: (communicator, sender, receiver, tag). */
struct chan {
    int32_t comm, src, dst, tag;
    uint32_t s_first, s_n, r_first, r_n;
};

struct ev_index {
    struct ev_msg *msgs;
    size_t nmsgs, capmsgs;
    struct ev_coll *colls;
    size_t ncolls, capcolls;
    struct ev_comm *comms;
    size_t ncomms, capcomms;
    size_t *comm_aoff, *comm_boff; /* parallel to comms */
    size_t capaoff, capboff;
    int32_t *pool;
    size_t npool, cappool;
    struct ckey *keys;
    size_t nkeys, capkeys;
    int32_t *keytab; /* open addressing over keys */
    size_t keytab_cap;
    struct chan *chans;
    size_t nchans, capchans;
    int32_t *chantab;
    size_t chantab_cap;
    int32_t *sorder, *rorder; /* message indices, grouped by channel */
    int32_t *coll_sorted;     /* by (comm, instance, rank) */
    struct rank_ix *r;
    int oom;
};

static void set_err(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    if (!err || !len)
        return;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

int ev_open(struct ev_run *x, const char *dir, char *err, size_t errlen)
{
    struct log_run run;
    memset(x, 0, sizeof *x);
    if (log_run_open(&run, dir, err, errlen) < 0)
        return -1;
    snprintf(x->dir, sizeof x->dir, "%s", dir);
    x->world_size = run.world_size;
    log_run_release(&run);
    x->ranks = calloc((size_t)x->world_size, sizeof *x->ranks);
    if (!x->ranks) {
        set_err(err, errlen, "out of memory opening '%s'", dir);
        return -1;
    }
    for (int r = 0; r < x->world_size; r++) {
        char path[4200];
        struct ev_rank *rk = &x->ranks[r];
        log_path(path, sizeof path, dir, r);
        rk->log.fd = -1;
        if (log_rank_open(&rk->log, path, rk->err, sizeof rk->err) == 0)
            rk->present = 1;
        else if (access(path, F_OK) < 0)
            snprintf(rk->err, sizeof rk->err, "'%s' has no rank-%d.log "
                     "(drdb record --ranks leaves ranks out)", dir, r);
    }
    return 0;
}

static void ix_free(struct ev_index *ix, int world_size)
{
    if (!ix)
        return;
    free(ix->msgs);
    free(ix->colls);
    free(ix->comms);
    free(ix->comm_aoff);
    free(ix->comm_boff);
    free(ix->pool);
    for (size_t i = 0; i < ix->nkeys; i++)
        free(ix->keys[i].ids);
    free(ix->keys);
    free(ix->keytab);
    free(ix->chans);
    free(ix->chantab);
    free(ix->sorder);
    free(ix->rorder);
    free(ix->coll_sorted);
    if (ix->r)
        for (int r = 0; r < world_size; r++) {
            free(ix->r[r].refs);
            free(ix->r[r].binds);
        }
    free(ix->r);
    free(ix);
}

void ev_close(struct ev_run *x)
{
    ix_free(x->ix, x->world_size);
    if (x->ranks)
        for (int r = 0; r < x->world_size; r++)
            if (x->ranks[r].present)
                log_rank_release(&x->ranks[r].log);
    free(x->ranks);
    memset(x, 0, sizeof *x);
}

int ev_event(struct ev_run *x, int rank, uint64_t n, struct log_event *ev,
             char *err, size_t errlen)
{
    if (rank < 0 || rank >= x->world_size) {
        set_err(err, errlen, "no rank %d: the run has ranks 0-%d", rank,
                x->world_size - 1);
        return -1;
    }
    struct ev_rank *rk = &x->ranks[rank];
    if (!rk->present) {
        set_err(err, errlen, "rank %d was not recorded: %s", rank, rk->err);
        return -1;
    }
    if (n >= rk->log.nevents) {
        if (rk->log.nevents)
            set_err(err, errlen, "rank %d has no event %llu: its events are "
                    "0-%llu", rank, (unsigned long long)n,
                    (unsigned long long)rk->log.nevents - 1);
        else
            set_err(err, errlen, "rank %d has no event %llu: its log has no "
                    "events", rank, (unsigned long long)n);
        return -1;
    }
    char why[200];
    if (log_rank_event(&rk->log, n, ev, why, sizeof why) < 0) {
        set_err(err, errlen, "rank %d event %llu: %s", rank,
                (unsigned long long)n, why);
        return -1;
    }
    return 0;
}

int ev_fn(struct ev_run *x, int rank, uint64_t n)
{
    if (rank < 0 || rank >= x->world_size || !x->ranks[rank].present ||
        n >= x->ranks[rank].log.nevents)
        return -1;
    /* The index only holds records that were checked when it was built. */
    const struct log_rank *lr = &x->ranks[rank].log;
    uint16_t fn;
    memcpy(&fn, lr->map + lr->offsets[n] + 8, 2);
    return fn;
}

uint64_t ev_walltime(struct ev_run *x, int rank, uint64_t n)
{
    if (rank < 0 || rank >= x->world_size || !x->ranks[rank].present)
        return 0;
    const struct log_rank *lr = &x->ranks[rank].log;
    return lr->hdr.start_ns + (n < lr->nevents ? lr->enter[n] : 0);
}

/* ---- communicators ------------------------------------------------------ */

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

static int keytab_rehash(struct ev_index *ix)
{
    size_t cap = ix->keytab_cap ? ix->keytab_cap * 2 : 64;
    int32_t *t = malloc(cap * sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < cap; i++)
        t[i] = -1;
    for (size_t k = 0; k < ix->nkeys; k++) {
        size_t i = ix->keys[k].hash & (cap - 1);
        while (t[i] >= 0)
            i = (i + 1) & (cap - 1);
        t[i] = (int32_t)k;
    }
    free(ix->keytab);
    ix->keytab = t;
    ix->keytab_cap = cap;
    return 0;
}

/* The key of these groups (created when new): an index, or -1. */
static int32_t key_of(struct ev_index *ix, int inter, const int32_t *a,
                      int na, const int32_t *b, int nb)
{
    uint64_t h = hash_groups(inter, a, na, b, nb);
    if ((ix->nkeys + 1) * 2 > ix->keytab_cap && keytab_rehash(ix) < 0) {
        ix->oom = 1;
        return -1;
    }
    size_t i = h & (ix->keytab_cap - 1);
    for (; ix->keytab[i] >= 0; i = (i + 1) & (ix->keytab_cap - 1)) {
        struct ckey *k = &ix->keys[ix->keytab[i]];
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
    struct ckey *k = &ix->keys[ix->nkeys];
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

/* Rank RANK creates (at EVENT) a communicator with local group L and
 * remote group R (NR 0: an intracommunicator): its global id, or -1.
 * *SIDE: 0 when L is group a. */
static int32_t comm_create(struct ev_index *ix, int rank, uint64_t event,
                           const int32_t *l, int nl, const int32_t *rm,
                           int nr, int *side)
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
    struct ckey *k = &ix->keys[kid];
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

/* World rank of rank LOCAL of the group a rank on side SIDE of COMM
 * addresses (the remote group of an intercommunicator): -1 if none. */
static int32_t world_of(struct ev_index *ix, int32_t comm, int side,
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

/* ---- the build: one rank ------------------------------------------------ */

enum rq_type { RQ_P2P = 1, RQ_PSEND, RQ_PRECV, RQ_COLL, RQ_PCOLL, RQ_IMRECV,
               RQ_OTHER };

/* A live request of the rank being read. */
struct req {
    uint32_t handle;
    int32_t next;       /* next request with the same handle, -1 */
    int type;
    int active;         /* persistent: started by MPI_Start */
    int32_t m0, m1;     /* messages (m1: Isendrecv's receive) */
    int32_t coll;
    uint64_t event;     /* the call that created it */
    uint64_t last_done; /* persistent: its last completion (or init) */
    /* persistent template */
    int32_t comm, side, peer_local, tag;
    int64_t count;
    uint32_t datatype;
    int send;
    int fn;             /* Imrecv: its function */
};

/* A Startall whose requests the log does not list. */
struct startall {
    uint64_t event;
    int left;
};

struct pass {
    struct ev_run *x;
    struct ev_index *ix;
    int rank;
    struct util_htab comms; /* handle -> binding index (rank_ix.binds) */
    struct util_htab reqs;  /* handle -> first request (chain), -1 */
    struct req *rq;
    size_t nrq, caprq;
    int32_t *rq_free;
    size_t nfree, capfree;
    struct startall *sa;
    size_t nsa, capsa;
    int32_t *probed;     /* messages matched by Mprobe, not yet received */
    size_t nprobed, capprobed;
    int32_t *coll_count; /* per global communicator */
    size_t capcount;
    int32_t *world;      /* 0 .. world_size - 1 */
};

static void add_ref(struct pass *p, uint64_t event, int role, int32_t i)
{
    struct rank_ix *ri = &p->ix->r[p->rank];
    if (util_grow(&ri->refs, &ri->caprefs, ri->nrefs + 1,
                  sizeof *ri->refs) < 0) {
        p->ix->oom = 1;
        return;
    }
    ri->refs[ri->nrefs++] = (struct xref){event, i, role};
}

/* The communicator handle H at this point: global id and side. */
static int32_t comm_lookup(struct pass *p, uint32_t h, int *side)
{
    int32_t *b = hmap_get(&p->comms, h);
    *side = 0;
    if (!b)
        return -1;
    const struct bind *bd = &p->ix->r[p->rank].binds[*b];
    *side = bd->side;
    return bd->comm;
}

static void comm_bind(struct pass *p, uint64_t event, uint32_t h,
                      int32_t comm, int side)
{
    struct rank_ix *ri = &p->ix->r[p->rank];
    if (util_grow(&ri->binds, &ri->capbinds, ri->nbinds + 1,
                  sizeof *ri->binds) < 0 ||
        hmap_put(&p->comms, h, (int32_t)ri->nbinds) < 0) {
        p->ix->oom = 1;
        return;
    }
    ri->binds[ri->nbinds++] = (struct bind){event, h, comm, side};
}

static int32_t new_msg(struct pass *p, uint64_t event, int fn, int send)
{
    struct ev_index *ix = p->ix;
    if (util_grow(&ix->msgs, &ix->capmsgs, ix->nmsgs + 1,
                  sizeof *ix->msgs) < 0) {
        ix->oom = 1;
        return -1;
    }
    struct ev_msg *m = &ix->msgs[ix->nmsgs];
    memset(m, 0, sizeof *m);
    m->event = m->order = m->done = event;
    m->init = EV_NONE;
    m->bytes = -1;
    m->rank = p->rank;
    m->peer = m->peer_local = -1;
    m->tag = -1;
    m->comm = -1;
    m->match = -1;
    m->fn = (uint16_t)fn;
    m->flags = send ? EV_M_SEND : 0;
    return (int32_t)ix->nmsgs++;
}

/* Sets a send's peer from its destination DEST on COMM (side SIDE). */
static void send_peer(struct pass *p, struct ev_msg *m, int32_t comm,
                      int side, int32_t dest)
{
    m->comm = comm;
    m->peer_local = dest;
    int64_t sz = log_mpi_type_size(m->datatype);
    m->bytes = sz ? m->count * sz : -1;
    if (dest == EV_PROC_NULL)
        m->flags |= EV_M_PROC_NULL;
    else if ((m->peer = world_of(p->ix, comm, side, dest)) < 0)
        m->flags |= EV_M_UNKNOWN;
}

/* Applies a receive's status ST (5 ints) on COMM (side SIDE). */
static void recv_status(struct pass *p, struct ev_msg *m, int side,
                        const int32_t st[LOG_ST_N])
{
    m->flags &= (uint16_t)~EV_M_NOSTATUS;
    if (log_status_cancelled(st)) {
        /* MPI leaves the rest of a cancelled receive's status alone. */
        m->flags |= EV_M_CANCELLED;
        return;
    }
    m->flags &= (uint16_t)~EV_M_UNKNOWN;
    m->peer = -1;
    m->peer_local = st[LOG_ST_SOURCE];
    m->tag = st[LOG_ST_TAG];
    m->bytes = log_status_bytes(st);
    if (st[LOG_ST_SOURCE] == EV_PROC_NULL)
        m->flags |= EV_M_PROC_NULL;
    else if (st[LOG_ST_SOURCE] < 0 || st[LOG_ST_TAG] < 0 ||
             (m->peer = world_of(p->ix, m->comm, side, st[LOG_ST_SOURCE])) < 0)
        m->flags |= EV_M_UNKNOWN;
}

/* A receive posted without its status yet: SOURCE and TAG as asked. */
static void recv_posted(struct pass *p, struct ev_msg *m, int32_t comm,
                        int side, int32_t source, int32_t tag)
{
    m->comm = comm;
    m->flags |= EV_M_NOSTATUS;
    m->peer_local = source;
    if (source == EV_PROC_NULL) {
        m->flags |= EV_M_PROC_NULL;
        return;
    }
    /* Until a status says otherwise: a specific source and tag are where
     * it stands in its channel; a wildcard is nowhere. */
    m->tag = tag;
    if (source < 0 || tag < 0 ||
        (m->peer = world_of(p->ix, comm, side, source)) < 0) {
        m->peer = -1;
        m->flags |= EV_M_UNKNOWN;
    }
}

/* ---- requests of the rank being read ------------------------------------ */

static int32_t req_new(struct pass *p, uint32_t h, int type, uint64_t event)
{
    int32_t i;
    if (!h || h == EV_REQUEST_NULL)
        return -1;
    if (p->nfree)
        i = p->rq_free[--p->nfree];
    else {
        if (util_grow(&p->rq, &p->caprq, p->nrq + 1, sizeof *p->rq) < 0) {
            p->ix->oom = 1;
            return -1;
        }
        i = (int32_t)p->nrq++;
    }
    struct req *q = &p->rq[i];
    memset(q, 0, sizeof *q);
    q->handle = h;
    q->type = type;
    q->m0 = q->m1 = q->coll = -1;
    q->event = q->last_done = event;
    int32_t *head = hmap_get(&p->reqs, h);
    /* A handle in use again means its former request is gone (a leaked or
     * freed one), except MPICH's builtin handles, which several completed
     * requests share. */
    if (head && !DRDB_MPI_HANDLE_BUILTIN(h)) {
        for (int32_t j = *head; j >= 0; j = p->rq[j].next) {
            if (util_grow(&p->rq_free, &p->capfree, p->nfree + 1,
                          sizeof *p->rq_free) < 0) {
                p->ix->oom = 1;
                break;
            }
            p->rq_free[p->nfree++] = j;
        }
        *head = -1;
    }
    q->next = head ? *head : -1;
    if (hmap_put(&p->reqs, h, i) < 0)
        p->ix->oom = 1;
    return i;
}

/* The live request with handle H (the latest), or -1. */
static int32_t req_find(struct pass *p, uint32_t h)
{
    int32_t *head = hmap_get(&p->reqs, h);
    return head ? *head : -1;
}

static void req_drop(struct pass *p, int32_t i)
{
    int32_t *head = hmap_get(&p->reqs, p->rq[i].handle);
    if (!head)
        return;
    if (*head == i)
        *head = p->rq[i].next;
    else
        for (int32_t j = *head; j >= 0; j = p->rq[j].next)
            if (p->rq[j].next == i) {
                p->rq[j].next = p->rq[i].next;
                break;
            }
    if (util_grow(&p->rq_free, &p->capfree, p->nfree + 1,
                  sizeof *p->rq_free) < 0) {
        p->ix->oom = 1;
        return;
    }
    p->rq_free[p->nfree++] = i;
}

/* The request handle the call at EV returned (a HANDLE or RAW field of
 * argument ARG), 0 when none. */
static uint32_t out_handle(const struct log_event *ev, int arg)
{
    struct log_field f;
    size_t cur = 0;
    uint32_t h;
    if (arg < 0)
        return 0;
    while (log_event_field(ev, &cur, &f) == 1) {
        if (f.arg != (unsigned)arg)
            continue;
        if (f.kind == LOG_F_HANDLE && log_field_handle(&f, &h) == 0)
            return h;
        if (f.kind == LOG_F_RAW && f.len == 4) {
            memcpy(&h, f.data, 4);
            return h;
        }
    }
    return 0;
}

/* The first STATUS field of EV into ST: 1, or 0 when none. */
static int first_status(const struct log_event *ev, int32_t st[LOG_ST_N])
{
    struct log_field f;
    size_t cur = 0;
    while (log_event_field(ev, &cur, &f) == 1)
        if (f.kind == LOG_F_STATUS && log_field_status(&f, st) == 0)
            return 1;
    return 0;
}

/* A persistent request's instance, started at EVENT. */
static int32_t instance_new(struct pass *p, struct req *q, uint64_t event,
                            int fn)
{
    int32_t mi = new_msg(p, event, fn, q->send);
    if (mi < 0)
        return -1;
    struct ev_msg *m = &p->ix->msgs[mi];
    m->flags |= EV_M_NONBLOCKING | EV_M_PERSISTENT;
    m->count = q->count;
    m->datatype = q->datatype;
    m->done = EV_NONE;
    m->init = q->event;
    if (q->send) {
        m->tag = q->tag;
        send_peer(p, m, q->comm, q->side, q->peer_local);
    } else {
        recv_posted(p, m, q->comm, q->side, q->peer_local, q->tag);
    }
    add_ref(p, event, EV_CALL, mi);
    return mi;
}

/* MPI_Start(H) at EVENT (also each request of a Startall that lists
 * them). */
static void start_req(struct pass *p, uint32_t h, uint64_t event, int fn)
{
    int32_t qi = req_find(p, h);
    if (qi < 0)
        return;
    struct req *q = &p->rq[qi];
    if (q->type == RQ_PCOLL) {
        q->active = 1;
        return;
    }
    if (q->type != RQ_PSEND && q->type != RQ_PRECV)
        return;
    int32_t mi = instance_new(p, q, event, fn);
    if (mi < 0)
        return;
    p->rq[qi].m0 = mi;
    p->rq[qi].active = 1;
}

/* An inactive persistent request completed: the Startall (after its last
 * completion) that started it, or EV_NONE when none did (a Wait on an
 * inactive request). */
static uint64_t startall_take(struct pass *p, uint64_t after)
{
    for (size_t k = p->nsa; k-- > 0;) {
        struct startall *s = &p->sa[k];
        if (s->event <= after)
            break;
        if (s->left > 0) {
            s->left--;
            return s->event;
        }
    }
    return EV_NONE;
}

/* Completes message MI at EVENT (element ELEM of the call's arrays) with
 * status ST (NULL when not logged). */
static void msg_done(struct pass *p, int32_t mi, uint64_t event,
                     uint64_t elem, const int32_t *st, int side)
{
    struct ev_msg *m = &p->ix->msgs[mi];
    m->done = event;
    m->done_elem = (uint32_t)elem;
    if (m->flags & EV_M_SEND) {
        if (st && log_status_cancelled(st))
            m->flags |= EV_M_CANCELLED;
    } else if (st) {
        recv_status(p, m, side, st);
    }
    add_ref(p, event, EV_DONE, mi);
}

/* The oldest message matched by Mprobe whose source and tag are ST's
 * (else the oldest): removed from the list; -1 when none. */
static int32_t probed_take(struct pass *p, const int32_t *st)
{
    size_t k = 0;
    if (!p->nprobed)
        return -1;
    if (st)
        for (size_t j = 0; j < p->nprobed; j++) {
            const struct ev_msg *m = &p->ix->msgs[p->probed[j]];
            if (m->peer_local == st[LOG_ST_SOURCE] &&
                m->tag == st[LOG_ST_TAG]) {
                k = j;
                break;
            }
        }
    int32_t mi = p->probed[k];
    memmove(p->probed + k, p->probed + k + 1,
            (p->nprobed - k - 1) * sizeof *p->probed);
    p->nprobed--;
    return mi;
}

/* The request H completed at EVENT (element ELEM), with status ST or
 * NULL. */
static void complete(struct pass *p, uint32_t h, uint64_t event,
                     uint64_t elem, const int32_t *st)
{
    int32_t qi = req_find(p, h);
    if (qi < 0)
        return;
    struct req *q = &p->rq[qi];
    switch (q->type) {
    case RQ_P2P:
        if (q->m0 >= 0)
            msg_done(p, q->m0, event, elem, q->m1 >= 0 ? NULL : st,
                     q->side);
        if (q->m1 >= 0)
            msg_done(p, q->m1, event, elem, st, q->side);
        req_drop(p, qi);
        break;
    case RQ_IMRECV: {
        int32_t mi = probed_take(p, st);
        if (mi >= 0) {
            struct ev_msg *m = &p->ix->msgs[mi];
            m->event = q->event;
            m->fn = (uint16_t)q->fn;
            m->count = q->count;
            m->datatype = q->datatype;
            m->flags |= EV_M_NONBLOCKING;
            add_ref(p, q->event, EV_CALL, mi);
            add_ref(p, event, EV_DONE, mi);
            m->done = event;
            m->done_elem = (uint32_t)elem;
        }
        req_drop(p, qi);
        break;
    }
    case RQ_PSEND:
    case RQ_PRECV: {
        int32_t mi = -1;
        if (q->active) {
            mi = q->m0;
        } else if (!(q->type == RQ_PRECV && st &&
                     st[LOG_ST_SOURCE] == EV_ANY_SOURCE &&
                     st[LOG_ST_TAG] == EV_ANY_TAG)) {
            uint64_t sa = startall_take(p, q->last_done);
            if (sa != EV_NONE)
                mi = instance_new(p, q, sa, LOG_FN_MPI_Startall);
        }
        q->active = 0;
        if (mi >= 0) {
            q->last_done = event;
            msg_done(p, mi, event, elem, st, q->side);
        }
        break;
    }
    case RQ_COLL:
        if (q->coll >= 0) {
            p->ix->colls[q->coll].done = event;
            p->ix->colls[q->coll].done_elem = (uint32_t)elem;
            add_ref(p, event, EV_COLL_DONE, q->coll);
        }
        req_drop(p, qi);
        break;
    case RQ_PCOLL:
        if (q->active)
            q->active = 0;
        else if (startall_take(p, q->last_done) == EV_NONE)
            break;
        q->last_done = event;
        break;
    default:
        req_drop(p, qi);
        break;
    }
}

/* The completions a Wait/Test-family record logged: REQUEST, [STATUS], in
 * element order, for argument ARG. */
static void completions(struct pass *p, const struct log_event *ev,
                        unsigned arg)
{
    struct log_field f;
    size_t cur = 0;
    uint32_t h = 0;
    uint64_t elem = 0;
    int32_t st[LOG_ST_N];
    int have = 0, have_st = 0;
    while (log_event_field(ev, &cur, &f) == 1) {
        if (f.arg != arg)
            continue;
        if (f.kind == LOG_F_REQUEST) {
            if (have)
                complete(p, h, ev->index, elem, have_st ? st : NULL);
            have = log_field_handle(&f, &h) == 0;
            have_st = 0;
            elem = f.elem;
        } else if (f.kind == LOG_F_STATUS && have && f.elem == elem) {
            have_st = log_field_status(&f, st) == 0;
        }
    }
    if (have)
        complete(p, h, ev->index, elem, have_st ? st : NULL);
}

/* A new collective call. */
static int32_t coll_new(struct pass *p, const struct log_event *ev,
                        int32_t comm, uint32_t datatype, int nonblocking)
{
    struct ev_index *ix = p->ix;
    if (util_grow(&ix->colls, &ix->capcolls, ix->ncolls + 1,
                  sizeof *ix->colls) < 0) {
        ix->oom = 1;
        return -1;
    }
    int32_t inst = -1;
    if (comm >= 0) {
        size_t old = p->capcount;
        if (util_grow(&p->coll_count, &p->capcount, (size_t)comm + 1,
                      sizeof *p->coll_count) < 0) {
            ix->oom = 1;
            return -1;
        }
        if (p->capcount > old)
            memset(p->coll_count + old, 0,
                   (p->capcount - old) * sizeof *p->coll_count);
        inst = p->coll_count[comm]++;
    }
    struct ev_coll *c = &ix->colls[ix->ncolls];
    c->event = ev->index;
    c->done = nonblocking ? EV_NONE : ev->index;
    c->rank = p->rank;
    c->comm = comm;
    c->instance = inst;
    c->datatype = datatype;
    c->done_elem = 0;
    c->fn = (uint16_t)ev->fn;
    c->nonblocking = (uint16_t)nonblocking;
    add_ref(p, ev->index, EV_COLL, (int32_t)ix->ncolls);
    return (int32_t)ix->ncolls++;
}

/* A call that returned a new communicator (HANDLE at argument ARG, and its
 * MEMBERS): binds the handle. */
static void new_comm(struct pass *p, const struct log_event *ev, int arg)
{
    struct log_field f;
    size_t cur = 0;
    uint32_t h = 0;
    const uint8_t *mem[2] = {NULL, NULL};
    uint64_t len[2] = {0, 0};
    while (log_event_field(ev, &cur, &f) == 1) {
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
    int32_t id = comm_create(p->ix, p->rank, ev->index, v, (int)nl, v + nl,
                             (int)nr, &side);
    if (v != small)
        free(v);
    if (id >= 0)
        comm_bind(p, ev->index, h, id, side);
}

/* One event of the rank being read. */
static void one_event(struct pass *p, const struct log_event *ev)
{
    const struct fninfo *fi = info_of(ev->fn);
    int64_t a[24];
    int ok = ev->ret == 0;
    uint64_t n = ev->index;
    int side = 0;
    int32_t comm = -1;
    int32_t st[LOG_ST_N];

    log_event_args(ev, a, 24);
#define ARG(k) ((k) >= 0 && (k) < 24 ? a[(int)(k)] : 0)
    if (fi->comm >= 0)
        comm = comm_lookup(p, (uint32_t)ARG(fi->comm), &side);

    switch (fi->cls) {
    case C_SEND:
    case C_ISEND:
    case C_SENDRECV:
    case C_ISENDRECV: {
        if (!ok)
            break;
        int nb = fi->cls == C_ISEND || fi->cls == C_ISENDRECV;
        int32_t si = new_msg(p, n, ev->fn, 1), ri = -1;
        if (si < 0)
            break;
        struct ev_msg *m = &p->ix->msgs[si];
        m->count = ARG(fi->count);
        m->datatype = (uint32_t)ARG(fi->type);
        m->tag = (int32_t)ARG(fi->tag);
        send_peer(p, m, comm, side, (int32_t)ARG(fi->dest));
        if (nb) {
            m->flags |= EV_M_NONBLOCKING;
            m->done = EV_NONE;
        }
        add_ref(p, n, EV_CALL, si);
        if (fi->cls == C_SENDRECV || fi->cls == C_ISENDRECV) {
            ri = new_msg(p, n, ev->fn, 0);
            if (ri < 0)
                break;
            m = &p->ix->msgs[ri];
            m->count = ARG(fi->rcount);
            m->datatype = (uint32_t)ARG(fi->rtype);
            recv_posted(p, m, comm, side, (int32_t)ARG(fi->source),
                        (int32_t)ARG(fi->rtag));
            if (nb) {
                m->flags |= EV_M_NONBLOCKING;
                m->done = EV_NONE;
            } else if (first_status(ev, st)) {
                recv_status(p, m, side, st);
            }
            add_ref(p, n, EV_CALL, ri);
        }
        if (nb) {
            int32_t qi = req_new(p, out_handle(ev, fi->req_arg), RQ_P2P, n);
            if (qi >= 0) {
                p->rq[qi].m0 = si;
                p->rq[qi].m1 = ri;
                p->rq[qi].side = side;
            }
        }
        break;
    }
    case C_RECV:
    case C_IRECV: {
        if (!ok && !(fi->cls == C_RECV && first_status(ev, st)))
            break;
        int32_t mi = new_msg(p, n, ev->fn, 0);
        if (mi < 0)
            break;
        struct ev_msg *m = &p->ix->msgs[mi];
        m->count = ARG(fi->count);
        m->datatype = (uint32_t)ARG(fi->type);
        recv_posted(p, m, comm, side, (int32_t)ARG(fi->source),
                    (int32_t)ARG(fi->tag));
        if (fi->cls == C_RECV) {
            if (first_status(ev, st))
                recv_status(p, m, side, st);
        } else {
            m->flags |= EV_M_NONBLOCKING;
            m->done = EV_NONE;
            int32_t qi = req_new(p, out_handle(ev, fi->req_arg), RQ_P2P, n);
            if (qi >= 0) {
                p->rq[qi].m0 = mi;
                p->rq[qi].side = side;
            }
        }
        add_ref(p, n, EV_CALL, mi);
        break;
    }
    case C_PSEND:
    case C_PRECV: {
        if (!ok)
            break;
        int32_t qi = req_new(p, out_handle(ev, fi->req_arg),
                             fi->cls == C_PSEND ? RQ_PSEND : RQ_PRECV, n);
        if (qi < 0)
            break;
        struct req *q = &p->rq[qi];
        q->send = fi->cls == C_PSEND;
        q->comm = comm;
        q->side = side;
        q->count = ARG(fi->count);
        q->datatype = (uint32_t)ARG(fi->type);
        q->peer_local = (int32_t)(q->send ? ARG(fi->dest) : ARG(fi->source));
        q->tag = (int32_t)ARG(fi->tag);
        break;
    }
    case C_START:
        if (ok)
            start_req(p, out_handle(ev, 0), n, ev->fn);
        break;
    case C_STARTALL: {
        if (!ok)
            break;
        int count = (int)ARG(0);
        struct log_field f;
        /* A Startall that lists its requests (RAW, argument 1). */
        if (count > 0 && log_event_find(ev, 1, LOG_F_RAW, &f) &&
            f.len == 4 * (uint64_t)count) {
            for (int k = 0; k < count; k++) {
                uint32_t h;
                memcpy(&h, f.data + 4 * k, 4);
                start_req(p, h, n, ev->fn);
            }
            break;
        }
        if (count > 0 &&
            util_grow(&p->sa, &p->capsa, p->nsa + 1, sizeof *p->sa) == 0)
            p->sa[p->nsa++] = (struct startall){n, count};
        break;
    }
    case C_MPROBE: {
        struct log_field f;
        int32_t flag = 1;
        if (log_event_find(ev, 3, LOG_F_RAW, &f) && f.len == 4)
            memcpy(&flag, f.data, 4); /* Improbe's flag */
        if (!ok || !flag || !first_status(ev, st) ||
            st[LOG_ST_SOURCE] == EV_PROC_NULL)
            break;
        int32_t mi = new_msg(p, n, ev->fn, 0);
        if (mi < 0)
            break;
        struct ev_msg *m = &p->ix->msgs[mi];
        m->comm = comm;
        m->done = EV_NONE;
        recv_status(p, m, side, st);
        m->flags |= EV_M_PROBED;
        add_ref(p, n, EV_PROBE, mi);
        if (util_grow(&p->probed, &p->capprobed, p->nprobed + 1,
                      sizeof *p->probed) < 0) {
            p->ix->oom = 1;
            break;
        }
        p->probed[p->nprobed++] = mi;
        break;
    }
    case C_MRECV: {
        if (!first_status(ev, st))
            break;
        int32_t mi;
        if (st[LOG_ST_SOURCE] == EV_PROC_NULL) {
            /* MPI_MESSAGE_NO_PROC: a receive from MPI_PROC_NULL */
            if ((mi = new_msg(p, n, ev->fn, 0)) < 0)
                break;
            p->ix->msgs[mi].flags |= EV_M_PROC_NULL;
            p->ix->msgs[mi].peer_local = EV_PROC_NULL;
        } else if ((mi = probed_take(p, st)) < 0) {
            break;
        }
        struct ev_msg *m = &p->ix->msgs[mi];
        m->event = m->done = n;
        m->fn = (uint16_t)ev->fn;
        m->flags &= (uint16_t)~EV_M_NONBLOCKING;
        m->count = ARG(fi->count);
        m->datatype = (uint32_t)ARG(fi->type);
        add_ref(p, n, EV_CALL, mi);
        break;
    }
    case C_IMRECV: {
        if (!ok)
            break;
        int32_t qi = req_new(p, out_handle(ev, fi->req_arg), RQ_IMRECV, n);
        if (qi >= 0) {
            p->rq[qi].fn = ev->fn;
            p->rq[qi].count = ARG(fi->count);
            p->rq[qi].datatype = (uint32_t)ARG(fi->type);
        }
        break;
    }
    case C_DONE1:
        completions(p, ev, 0);
        break;
    case C_DONEN:
        completions(p, ev, 1);
        break;
    case C_REQFREE: {
        struct log_field f;
        uint32_t h;
        if (ok && log_event_find(ev, 0, LOG_F_REQUEST, &f) &&
            log_field_handle(&f, &h) == 0) {
            int32_t qi = req_find(p, h);
            if (qi >= 0)
                req_drop(p, qi);
        }
        break;
    }
    default:
        break;
    }

    if (fi->coll && ok) {
        int32_t ci = coll_new(p, ev, comm, (uint32_t)ARG(fi->rtype),
                              fi->coll == K_NONBLOCKING);
        if (ci >= 0 && fi->coll != K_BLOCKING) {
            int32_t qi = req_new(p, out_handle(ev, fi->req_arg),
                                 fi->coll == K_PERSISTENT ? RQ_PCOLL
                                                          : RQ_COLL, n);
            if (qi >= 0)
                p->rq[qi].coll = fi->coll == K_PERSISTENT ? -1 : ci;
        }
    } else if (fi->req_arg >= 0 && ok && fi->cls == C_OTHER) {
        req_new(p, out_handle(ev, fi->req_arg), RQ_OTHER, n);
    }
    if (fi->newcomm_arg >= 0 && ok)
        new_comm(p, ev, fi->newcomm_arg);
#undef ARG
}

static int cmp_xref(const void *a, const void *b)
{
    const struct xref *x = a, *y = b;
    if (x->event != y->event)
        return x->event < y->event ? -1 : 1;
    if (x->role != y->role)
        return x->role < y->role ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static void read_rank(struct pass *p)
{
    struct ev_run *x = p->x;
    const struct log_rank *lr = &x->ranks[p->rank].log;
    int side;

    util_htab_clear(&p->comms);
    util_htab_clear(&p->reqs);
    p->nrq = p->nfree = p->nsa = p->nprobed = 0;
    if (p->capcount)
        memset(p->coll_count, 0, p->capcount * sizeof *p->coll_count);

    /* MPI_COMM_WORLD and MPI_COMM_SELF exist from the start. */
    int32_t self = p->rank;
    int32_t wid = comm_create(p->ix, p->rank, EV_NONE, p->world,
                              x->world_size, NULL, 0, &side);
    comm_bind(p, 0, EV_COMM_WORLD, wid, side);
    int32_t sid = comm_create(p->ix, p->rank, EV_NONE, &self, 1, NULL, 0,
                              &side);
    comm_bind(p, 0, EV_COMM_SELF, sid, side);

    for (uint64_t n = 0; n < lr->nevents && !p->ix->oom; n++) {
        struct log_event ev;
        if (log_rank_event(lr, n, &ev, NULL, 0) < 0)
            continue;
        if (ev.flags & (LOG_REC_REPEAT | LOG_REC_TRUNC))
            continue;
        if (info_of(ev.fn)->cls == C_NONE)
            continue;
        one_event(p, &ev);
    }

    struct rank_ix *ri = &p->ix->r[p->rank];
    for (size_t k = 1; k < ri->nrefs; k++)
        if (cmp_xref(&ri->refs[k - 1], &ri->refs[k]) > 0) {
            qsort(ri->refs, ri->nrefs, sizeof *ri->refs, cmp_xref);
            break;
        }
}

/* ---- matching ----------------------------------------------------------- */

static uint32_t chan_hash(int32_t comm, int32_t src, int32_t dst,
                          int32_t tag)
{
    uint32_t h = util_hash32((uint32_t)comm * 0x9e3779b1u ^ (uint32_t)src);
    h = util_hash32(h ^ (uint32_t)dst * 0x85ebca6bu);
    return util_hash32(h ^ (uint32_t)tag);
}

static int chantab_rehash(struct ev_index *ix)
{
    size_t cap = ix->chantab_cap ? ix->chantab_cap * 2 : 256;
    int32_t *t = malloc(cap * sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < cap; i++)
        t[i] = -1;
    for (size_t c = 0; c < ix->nchans; c++) {
        const struct chan *ch = &ix->chans[c];
        size_t i = chan_hash(ch->comm, ch->src, ch->dst, ch->tag) & (cap - 1);
        while (t[i] >= 0)
            i = (i + 1) & (cap - 1);
        t[i] = (int32_t)c;
    }
    free(ix->chantab);
    ix->chantab = t;
    ix->chantab_cap = cap;
    return 0;
}

/* The channel (created when CREATE), or -1. */
static int32_t chan_of(struct ev_index *ix, int32_t comm, int32_t src,
                       int32_t dst, int32_t tag, int create)
{
    if (create && (ix->nchans + 1) * 2 > ix->chantab_cap &&
        chantab_rehash(ix) < 0) {
        ix->oom = 1;
        return -1;
    }
    if (!ix->chantab_cap)
        return -1;
    size_t i = chan_hash(comm, src, dst, tag) & (ix->chantab_cap - 1);
    for (; ix->chantab[i] >= 0; i = (i + 1) & (ix->chantab_cap - 1)) {
        const struct chan *ch = &ix->chans[ix->chantab[i]];
        if (ch->comm == comm && ch->src == src && ch->dst == dst &&
            ch->tag == tag)
            return ix->chantab[i];
    }
    if (!create)
        return -1;
    if (util_grow(&ix->chans, &ix->capchans, ix->nchans + 1,
                  sizeof *ix->chans) < 0) {
        ix->oom = 1;
        return -1;
    }
    ix->chans[ix->nchans] = (struct chan){comm, src, dst, tag, 0, 0, 0, 0};
    ix->chantab[i] = (int32_t)ix->nchans;
    return (int32_t)ix->nchans++;
}

/* Whether message M can match at all, and its channel's ends. */
static int matchable(const struct ev_msg *m, int32_t *src, int32_t *dst)
{
    if (m->flags & (EV_M_PROC_NULL | EV_M_CANCELLED | EV_M_UNKNOWN))
        return 0;
    if (m->comm < 0 || m->peer < 0 || m->tag < 0)
        return 0;
    *src = m->flags & EV_M_SEND ? m->rank : m->peer;
    *dst = m->flags & EV_M_SEND ? m->peer : m->rank;
    return 1;
}

/* qsort_r comparators over message (or collective) indices; ARG is the
 * array they index. */
static int cmp_order(const void *a, const void *b, void *arg)
{
    const struct ev_msg *msgs = arg;
    const struct ev_msg *x = &msgs[*(const int32_t *)a];
    const struct ev_msg *y = &msgs[*(const int32_t *)b];
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return (*(const int32_t *)a > *(const int32_t *)b) -
           (*(const int32_t *)a < *(const int32_t *)b);
}

/* Sorts V[0..N) by order unless it already is. */
static void sort_by_order(const struct ev_msg *msgs, int32_t *v, size_t n)
{
    for (size_t k = 1; k < n; k++)
        if (msgs[v[k - 1]].order > msgs[v[k]].order ||
            (msgs[v[k - 1]].order == msgs[v[k]].order && v[k - 1] > v[k])) {
            qsort_r(v, n, sizeof *v, cmp_order, (void *)msgs);
            return;
        }
}

static void match_p2p(struct ev_index *ix)
{
    size_t n = ix->nmsgs;
    int32_t *chan = malloc((n ? n : 1) * sizeof *chan);
    ix->sorder = malloc((n ? n : 1) * sizeof *ix->sorder);
    ix->rorder = malloc((n ? n : 1) * sizeof *ix->rorder);
    if (!chan || !ix->sorder || !ix->rorder) {
        free(chan);
        ix->oom = 1;
        return;
    }
    /* Channels and their sizes. */
    for (size_t i = 0; i < n && !ix->oom; i++) {
        int32_t src, dst;
        struct ev_msg *m = &ix->msgs[i];
        chan[i] = -1;
        if (!matchable(m, &src, &dst))
            continue;
        chan[i] = chan_of(ix, m->comm, src, dst, m->tag, 1);
        if (chan[i] < 0)
            continue;
        if (m->flags & EV_M_SEND)
            ix->chans[chan[i]].s_n++;
        else
            ix->chans[chan[i]].r_n++;
    }
    if (ix->oom) {
        free(chan);
        return;
    }
    uint32_t s = 0, r = 0;
    for (size_t c = 0; c < ix->nchans; c++) {
        ix->chans[c].s_first = s;
        ix->chans[c].r_first = r;
        s += ix->chans[c].s_n;
        r += ix->chans[c].r_n;
        ix->chans[c].s_n = ix->chans[c].r_n = 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (chan[i] < 0)
            continue;
        struct chan *ch = &ix->chans[chan[i]];
        if (ix->msgs[i].flags & EV_M_SEND)
            ix->sorder[ch->s_first + ch->s_n++] = (int32_t)i;
        else
            ix->rorder[ch->r_first + ch->r_n++] = (int32_t)i;
    }
    free(chan);
    /* The k-th send of a channel matches its k-th receive. */
    for (size_t c = 0; c < ix->nchans; c++) {
        struct chan *ch = &ix->chans[c];
        sort_by_order(ix->msgs, ix->sorder + ch->s_first, ch->s_n);
        sort_by_order(ix->msgs, ix->rorder + ch->r_first, ch->r_n);
        uint32_t k = ch->s_n < ch->r_n ? ch->s_n : ch->r_n;
        for (uint32_t j = 0; j < k; j++) {
            int32_t si = ix->sorder[ch->s_first + j];
            int32_t ri = ix->rorder[ch->r_first + j];
            ix->msgs[si].match = ri;
            ix->msgs[ri].match = si;
        }
    }
}

static int cmp_coll(const void *a, const void *b, void *arg)
{
    const struct ev_coll *colls = arg;
    const struct ev_coll *x = &colls[*(const int32_t *)a];
    const struct ev_coll *y = &colls[*(const int32_t *)b];
    if (x->comm != y->comm)
        return x->comm < y->comm ? -1 : 1;
    if (x->instance != y->instance)
        return x->instance < y->instance ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

static void match_colls(struct ev_index *ix)
{
    ix->coll_sorted = malloc((ix->ncolls ? ix->ncolls : 1) *
                             sizeof *ix->coll_sorted);
    if (!ix->coll_sorted) {
        ix->oom = 1;
        return;
    }
    for (size_t i = 0; i < ix->ncolls; i++)
        ix->coll_sorted[i] = (int32_t)i;
    qsort_r(ix->coll_sorted, ix->ncolls, sizeof *ix->coll_sorted, cmp_coll,
            ix->colls);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ev_build(struct ev_run *x, char *err, size_t errlen)
{
    if (x->ix)
        return 0;
    double t0 = now_s();
    struct ev_index *ix = calloc(1, sizeof *ix);
    if (!ix || fninfo_init() < 0 ||
        !(ix->r = calloc((size_t)x->world_size, sizeof *ix->r))) {
        free(ix);
        set_err(err, errlen, "out of memory indexing '%s'", x->dir);
        return -1;
    }
    /* MPI_COMM_WORLD is communicator 0: created here first (by no rank),
     * then by each rank as its first communicator. */
    struct pass p;
    memset(&p, 0, sizeof p);
    p.comms = (struct util_htab)HMAP_INIT;
    p.reqs = (struct util_htab)HMAP_INIT;
    p.x = x;
    p.ix = ix;
    p.world = malloc((size_t)x->world_size * sizeof *p.world);
    if (p.world) {
        int side;
        for (int r = 0; r < x->world_size; r++)
            p.world[r] = r;
        comm_create(ix, -1, EV_NONE, p.world, x->world_size, NULL, 0, &side);
    } else {
        ix->oom = 1;
    }
    for (int r = 0; r < x->world_size && !ix->oom; r++) {
        if (!x->ranks[r].present)
            continue;
        p.rank = r;
        read_rank(&p);
    }
    util_htab_release(&p.comms);
    util_htab_release(&p.reqs);
    free(p.rq);
    free(p.rq_free);
    free(p.sa);
    free(p.probed);
    free(p.coll_count);
    free(p.world);

    if (!ix->oom)
        match_p2p(ix);
    if (!ix->oom)
        match_colls(ix);
    if (ix->oom) {
        ix_free(ix, x->world_size);
        set_err(err, errlen, "out of memory indexing '%s'", x->dir);
        return -1;
    }
    for (size_t c = 0; c < ix->ncomms; c++) {
        ix->comms[c].a = ix->pool + ix->comm_aoff[c];
        ix->comms[c].b = ix->pool + ix->comm_boff[c];
    }
    x->ix = ix;
    x->build_s = now_s() - t0;
    return 0;
}

/* ---- queries ------------------------------------------------------------ */

static struct ev_index *index_of(struct ev_run *x)
{
    return x->ix || ev_build(x, NULL, 0) == 0 ? x->ix : NULL;
}

size_t ev_nmsgs(struct ev_run *x)
{
    struct ev_index *ix = index_of(x);
    return ix ? ix->nmsgs : 0;
}

const struct ev_msg *ev_msg_at(struct ev_run *x, int32_t i)
{
    struct ev_index *ix = index_of(x);
    return ix && i >= 0 && (size_t)i < ix->nmsgs ? &ix->msgs[i] : NULL;
}

size_t ev_ncolls(struct ev_run *x)
{
    struct ev_index *ix = index_of(x);
    return ix ? ix->ncolls : 0;
}

const struct ev_coll *ev_coll_at(struct ev_run *x, int32_t i)
{
    struct ev_index *ix = index_of(x);
    return ix && i >= 0 && (size_t)i < ix->ncolls ? &ix->colls[i] : NULL;
}

int ev_ncomms(struct ev_run *x)
{
    struct ev_index *ix = index_of(x);
    return ix ? (int)ix->ncomms : 0;
}

const struct ev_comm *ev_comm_at(struct ev_run *x, int id)
{
    struct ev_index *ix = index_of(x);
    return ix && id >= 0 && (size_t)id < ix->ncomms ? &ix->comms[id] : NULL;
}

int ev_uses(struct ev_run *x, int rank, uint64_t n, struct ev_use *out,
            int max)
{
    struct ev_index *ix = index_of(x);
    if (!ix || rank < 0 || rank >= x->world_size)
        return -1;
    const struct rank_ix *ri = &ix->r[rank];
    size_t lo = 0, hi = ri->nrefs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ri->refs[mid].event < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    int k = 0;
    for (; lo < ri->nrefs && ri->refs[lo].event == n; lo++, k++)
        if (k < max)
            out[k] = (struct ev_use){ri->refs[lo].role, ri->refs[lo].i};
    return k;
}

int ev_comm_of(struct ev_run *x, int rank, uint64_t n, uint32_t h,
               int *side)
{
    struct ev_index *ix = index_of(x);
    *side = 0;
    if (!ix || rank < 0 || rank >= x->world_size)
        return -1;
    const struct rank_ix *ri = &ix->r[rank];
    for (size_t k = ri->nbinds; k-- > 0;)
        if (ri->binds[k].handle == h && ri->binds[k].event <= n) {
            *side = ri->binds[k].side;
            return ri->binds[k].comm;
        }
    return -1;
}

static void ref_msg(struct ev_index *ix, struct ev_ref *r, int32_t self,
                    int32_t other)
{
    const struct ev_msg *o = &ix->msgs[other];
    memset(r, 0, sizeof *r);
    r->kind = o->flags & EV_M_SEND ? EV_K_SEND : EV_K_RECV;
    r->rank = o->rank;
    r->event = o->event;
    r->done = o->done;
    r->comm = o->comm;
    r->tag = o->tag;
    /* A send's status says nothing: the size is the receive's. */
    r->bytes = !(o->flags & EV_M_SEND) ? o->bytes
               : self >= 0 ? ix->msgs[self].bytes
               : o->match >= 0 ? ix->msgs[o->match].bytes : o->bytes;
    r->instance = -1;
    r->self = self;
    r->other = other;
}

int ev_instance(struct ev_run *x, int comm, int k, int32_t *out, int max)
{
    struct ev_index *ix = index_of(x);
    if (!ix)
        return 0;
    size_t lo = 0, hi = ix->ncolls;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct ev_coll *c = &ix->colls[ix->coll_sorted[mid]];
        if (c->comm < comm || (c->comm == comm && c->instance < k))
            lo = mid + 1;
        else
            hi = mid;
    }
    int got = 0;
    for (; lo < ix->ncolls; lo++) {
        const struct ev_coll *c = &ix->colls[ix->coll_sorted[lo]];
        if (c->comm != comm || c->instance != k)
            break;
        if (got < max)
            out[got] = ix->coll_sorted[lo];
        got++;
    }
    return got;
}

/* Probe/Iprobe at rank R's event N: the send it saw, or -1. */
static int32_t probed_send(struct ev_run *x, int rank, uint64_t n)
{
    struct ev_index *ix = x->ix;
    struct log_event ev;
    int32_t st[LOG_ST_N], flag = 1;
    struct log_field f;
    if (ev_event(x, rank, n, &ev, NULL, 0) < 0 ||
        info_of(ev.fn)->cls != C_PROBE || ev.ret != 0)
        return -1;
    if (log_event_find(&ev, 3, LOG_F_RAW, &f) && f.len == 4)
        memcpy(&flag, f.data, 4);
    if (!flag || !first_status(&ev, st) || st[LOG_ST_SOURCE] < 0 ||
        st[LOG_ST_TAG] < 0)
        return -1;
    int side, ci = info_of(ev.fn)->comm;
    int64_t a[8];
    if (ci < 0 || ci >= 8 || log_event_args(&ev, a, 8) <= ci)
        return -1;
    int32_t comm = ev_comm_of(x, rank, n, (uint32_t)a[ci], &side);
    int32_t src = world_of(ix, comm, side, st[LOG_ST_SOURCE]);
    int32_t c = src < 0 ? -1 : chan_of(ix, comm, src, rank, st[LOG_ST_TAG], 0);
    if (c < 0)
        return -1;
    /* The message the next receive would get: after those that receives
     * ordered before the probe took. */
    const struct chan *ch = &ix->chans[c];
    uint32_t k = 0;
    while (k < ch->r_n && ix->msgs[ix->rorder[ch->r_first + k]].order < n)
        k++;
    return k < ch->s_n ? ix->sorder[ch->s_first + k] : -1;
}

int ev_partners(struct ev_run *x, int rank, uint64_t n, struct ev_ref *out,
                int max, char *err, size_t errlen)
{
    struct log_event ev;
    if (ev_event(x, rank, n, &ev, err, errlen) < 0)
        return -1;
    if (ev_build(x, err, errlen) < 0)
        return -1;
    struct ev_index *ix = x->ix;
    struct ev_use small[16], *use = small;
    int nu = ev_uses(x, rank, n, small, 16);
    if (nu > 16) {
        if (!(use = malloc((size_t)nu * sizeof *use))) {
            set_err(err, errlen, "out of memory");
            return -1;
        }
        ev_uses(x, rank, n, use, nu);
    }
    int k = 0, about = nu > 0;
    for (int u = 0; u < nu; u++) {
        if (use[u].role == EV_COLL || use[u].role == EV_COLL_DONE) {
            const struct ev_coll *c = &ix->colls[use[u].i];
            if (c->comm < 0)
                continue;
            int32_t mem[64], *mp = mem;
            int nm = ev_instance(x, c->comm, c->instance, mem, 64);
            if (nm > 64 && (mp = malloc((size_t)nm * sizeof *mp)))
                ev_instance(x, c->comm, c->instance, mp, nm);
            for (int j = 0; j < nm && mp; j++, k++)
                if (k < max) {
                    const struct ev_coll *o = &ix->colls[mp[j]];
                    memset(&out[k], 0, sizeof out[k]);
                    out[k].kind = EV_K_COLL;
                    out[k].rank = o->rank;
                    out[k].event = o->event;
                    out[k].done = o->done;
                    out[k].comm = o->comm;
                    out[k].tag = -1;
                    out[k].bytes = -1;
                    out[k].instance = o->instance;
                    out[k].self = use[u].i;
                    out[k].other = mp[j];
                }
            if (mp != mem)
                free(mp);
            continue;
        }
        const struct ev_msg *m = &ix->msgs[use[u].i];
        if (m->match >= 0) {
            if (k < max)
                ref_msg(ix, &out[k], use[u].i, m->match);
            k++;
        }
    }
    if (use != small)
        free(use);
    if (!about) {
        int32_t s = probed_send(x, rank, n);
        if (s >= 0) {
            if (max > 0)
                ref_msg(ix, &out[0], -1, s);
            return 1;
        }
        const struct fninfo *fi = info_of(ev.fn);
        if (fi->cls == C_PROBE || fi->cls == C_MPROBE)
            set_err(err, errlen, "rank %d event %llu (%s) found no message "
                    "to match", rank, (unsigned long long)n,
                    log_func_name(ev.fn));
        else if (fi->cls == C_DONE1 || fi->cls == C_DONEN)
            set_err(err, errlen, "rank %d event %llu (%s) completed no "
                    "message or collective", rank, (unsigned long long)n,
                    log_func_name(ev.fn));
        else
            set_err(err, errlen, "rank %d event %llu (%s) has no partner: "
                    "only messages, their completions and collectives "
                    "have", rank, (unsigned long long)n,
                    log_func_name(ev.fn));
        return -1;
    }
    return k;
}

/* By rank, then event (then index). */
static int cmp_sender(const void *a, const void *b, void *arg)
{
    const struct ev_msg *msgs = arg;
    const struct ev_msg *x = &msgs[*(const int32_t *)a];
    const struct ev_msg *y = &msgs[*(const int32_t *)b];
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->event != y->event)
        return x->event < y->event ? -1 : 1;
    return (*(const int32_t *)a > *(const int32_t *)b) -
           (*(const int32_t *)a < *(const int32_t *)b);
}

static int push(int32_t **v, size_t *n, size_t *cap, int32_t i)
{
    if (util_grow(v, cap, *n + 1, sizeof **v) < 0)
        return -1;
    (*v)[(*n)++] = i;
    return 0;
}

int ev_pending(struct ev_run *x, int rank, uint64_t n, struct ev_queue *q,
               char *err, size_t errlen)
{
    struct log_event ev;
    size_t capi = 0, capr = 0, capc = 0;
    memset(q, 0, sizeof *q);
    /* N may be the end of the log (after its last event). */
    if ((rank >= 0 && rank < x->world_size && x->ranks[rank].present &&
         n == x->ranks[rank].log.nevents) ? 0
        : ev_event(x, rank, n, &ev, err, errlen) < 0)
        return -1;
    if (ev_build(x, err, errlen) < 0)
        return -1;
    struct ev_index *ix = x->ix;
    int bad = 0;
    for (size_t c = 0; c < ix->nchans && !bad; c++) {
        const struct chan *ch = &ix->chans[c];
        if (ch->dst != rank)
            continue;
        for (uint32_t k = 0; k < ch->s_n && !bad; k++) {
            int32_t si = ix->sorder[ch->s_first + k];
            int32_t ri = ix->msgs[si].match;
            if (ri < 0 || ix->msgs[ri].done == EV_NONE ||
                ix->msgs[ri].done >= n)
                bad = push(&q->incoming, &q->nincoming, &capi, si) < 0;
        }
    }
    const struct rank_ix *ri = &ix->r[rank];
    for (size_t k = 0; k < ri->nrefs && ri->refs[k].event < n && !bad;
         k++) {
        const struct xref *r = &ri->refs[k];
        if (r->role == EV_CALL) {
            const struct ev_msg *m = &ix->msgs[r->i];
            if ((m->flags & EV_M_NONBLOCKING) && m->event == r->event &&
                (m->done == EV_NONE || m->done >= n))
                bad = push(&q->requests, &q->nrequests, &capr, r->i) < 0;
        } else if (r->role == EV_COLL) {
            const struct ev_coll *c = &ix->colls[r->i];
            if (c->nonblocking && (c->done == EV_NONE || c->done >= n))
                bad = push(&q->colls, &q->ncolls, &capc, r->i) < 0;
        }
    }
    if (bad) {
        ev_queue_release(q);
        set_err(err, errlen, "out of memory");
        return -1;
    }
    qsort_r(q->incoming, q->nincoming, sizeof *q->incoming, cmp_sender,
            ix->msgs);
    return 0;
}

void ev_queue_release(struct ev_queue *q)
{
    free(q->incoming);
    free(q->requests);
    free(q->colls);
    memset(q, 0, sizeof *q);
}

void ev_stats(struct ev_run *x, struct ev_stats *st)
{
    struct ev_index *ix = index_of(x);
    memset(st, 0, sizeof *st);
    if (!ix)
        return;
    for (size_t i = 0; i < ix->nmsgs; i++) {
        const struct ev_msg *m = &ix->msgs[i];
        int send = (m->flags & EV_M_SEND) != 0;
        send ? st->sends++ : st->recvs++;
        if (m->match >= 0) {
            st->matched += send;
            continue;
        }
        if (m->flags & (EV_M_PROC_NULL | EV_M_CANCELLED))
            continue;
        if (send)
            st->unmatched_sends++;
        else if (m->done != EV_NONE && !(m->flags & EV_M_NOSTATUS))
            st->unmatched_recvs++;
    }
    st->colls = ix->ncolls;
    for (size_t i = 0; i < ix->ncolls;) {
        const struct ev_coll *c = &ix->colls[ix->coll_sorted[i]];
        size_t j = i;
        while (j < ix->ncolls &&
               ix->colls[ix->coll_sorted[j]].comm == c->comm &&
               ix->colls[ix->coll_sorted[j]].instance == c->instance)
            j++;
        if (c->comm >= 0) {
            const struct ev_comm *cm = &ix->comms[c->comm];
            st->instances++;
            /* Members whose logs exist all have a call. */
            size_t want = 0;
            for (int g = 0; g < cm->na + cm->nb; g++) {
                int32_t w = g < cm->na ? ix->pool[ix->comm_aoff[c->comm] +
                                                  (size_t)g]
                                       : ix->pool[ix->comm_boff[c->comm] +
                                                  (size_t)(g - cm->na)];
                want += w >= 0 && w < x->world_size &&
                        x->ranks[w].present;
            }
            if (j - i < want)
                st->incomplete_instances++;
        }
        i = j;
    }
    st->comms = (int)ix->ncomms;
}
