/*
 * ev-int.h - what the files of events/ share and nothing outside events/
 * uses (not API): the index itself (struct ev_index), what each MPI
 * function is to it (struct ev__fninfo, from the spec's roles), the state
 * of the one pass over a rank's log (struct ev__pass), and the helpers each
 * file lends the others (ev__*).
 *
 * The files are layers: each calls only files below it in this list, so
 * names flow one way.
 *
 *   ev-list.c         one-line listings of a rank's events (one rank's
 *                     index alone when the whole one is not built)
 *   ev-print-event.c  an event in full (arguments, fields, what it matched)
 *   ev-print.c        matches, collective instances, queues, as text
 *   ev-print-data.c   values: data by datatype, outputs by C type, strings
 *   ev-causal.c       happened-before: causal pasts and futures
 *   ev-query.c        raw access, partners, probes, pending queues, stats
 *   ev-build.c        ev_build(): the pass over each rank, one event's
 *                     dispatch by its role, collective calls
 *   ev-req.c          the requests of the rank being read: completions,
 *                     persistent requests, Startall, matched probes
 *   ev-match.c        message instances, channels, the matching rule
 *   ev-comm.c         communicator identity and handle bindings
 *   ev-func.c         what each function is to the index (the role table)
 *   ev-open.c         the run: opening, reading one event, closing
 *   ev-brief.c        an event's essentials for one-line listings (alone)
 *
 * Everything lives in flat arrays that grow by doubling: messages,
 * collectives, communicators, and per rank a sorted table of the events
 * that refer to them. Handles are looked up in small open-addressing hash
 * tables. Nothing is allocated per event.
 */
#ifndef DRDB_EV_INT_H
#define DRDB_EV_INT_H

#include <stdint.h>

#include "events.h"
#include "log-codec.h"
#include "util.h"

/* ---- what each function is (ev-func.c) ---------------------------------- */

/* How the pass treats a call (struct ev__fninfo.cls). */
enum ev__cls {
    EV__C_NONE,
    EV__C_SEND,       /* Send, Ssend, Bsend, Rsend */
    EV__C_ISEND,      /* their I- forms */
    EV__C_RECV,
    EV__C_IRECV,
    EV__C_SENDRECV,   /* Sendrecv, Sendrecv_replace */
    EV__C_ISENDRECV,
    EV__C_PSEND,      /* Send_init, Ssend_init, ... */
    EV__C_PRECV,      /* Recv_init */
    EV__C_START,
    EV__C_STARTALL,
    EV__C_PROBE,      /* Probe, Iprobe: look, do not take */
    EV__C_MPROBE,     /* Mprobe, Improbe */
    EV__C_MRECV,
    EV__C_IMRECV,
    EV__C_DONE1,      /* Wait, Test: request argument 0 */
    EV__C_DONEN,      /* Waitall, ...: the request array is argument 1 */
    EV__C_REQFREE,
    EV__C_OTHER,      /* only its collective part or new communicator counts */
};

/* struct ev__fninfo.coll */
enum { EV__K_BLOCKING = 1, EV__K_NONBLOCKING, EV__K_PERSISTENT };

struct ev__fninfo {
    uint8_t cls, coll;
    /* by-value argument positions (log_event_args order), -1 none */
    int8_t count, type, dest, tag, rcount, rtype, source, rtag, comm;
    /* argument indices (field args) */
    int8_t req_arg, newcomm_arg;
};

/* ---- the index ---------------------------------------------------------- */

/* An event's reference to a message or collective (sorted by event). */
struct ev__xref {
    uint64_t event;
    int32_t i;
    int32_t role; /* enum ev_role */
};

/* The same, as a rank keeps it once its log is read: the index above the
 * role (3 bits), 4 bytes where struct ev__xref takes 16. Its event is the
 * one the message or collective holds for the role (ev__ref_event): the
 * call's, the probe's (order), the completion's (done). A rank whose refs
 * do not fit (2^29 messages or more) or say otherwise keeps the wide
 * ones. */
#define EV__XREF32_MAX_I ((int32_t)1 << 29)

/* A communicator handle bound at an event. */
struct ev__bind {
    uint64_t event;
    uint32_t handle;
    int32_t comm;
    int32_t side;
};

/* A rank's refs: wide (refs) while its log is read, then narrow (refs32:
 * i << 3 | role) when they can be; read them through ev__ref_at(). */
struct ev__rank_ix {
    struct ev__xref *refs;
    uint32_t *refs32;
    size_t nrefs, caprefs;
    struct ev__bind *binds;
    size_t nbinds, capbinds;
};

/*
 * A message as the index keeps it once its rank's log is read (struct
 * ev_msg is what ev__msg() makes of it): 32 bytes where struct ev_msg takes
 * 88. What it does not hold is worked out or kept aside:
 *
 *   - rank: whose range of messages holds it (ev_index.mfirst: a rank's
 *     messages are made while its log is read, so they are contiguous);
 *   - peer: the world rank of peer_local on comm (from the side EV__MF_SIDE
 *     says), -1 when PROC_NULL or UNKNOWN; aside (EV__MF_PEER) when that is
 *     not it;
 *   - count, bytes and datatype: a shape (struct ev__shape) that every
 *     message with the same three shares;
 *   - order and init: aside when not the event and EV_NONE (EV__MF_ORDER,
 *     EV__MF_INIT: probed and persistent messages);
 *   - event and done (32 bits), shape and elem (16): aside when they do
 *     not fit (EV__MF_EVENT, EV__MF_DONE, EV__M16_ESC).
 *
 * "Aside" is one table (struct ev__mesc) sorted by message and field.
 */
struct ev__msg {
    uint32_t event, done; /* done: EV__M32_NONE for EV_NONE */
    int32_t match, peer_local, tag, comm;
    uint16_t shape, elem; /* elem: done_elem */
    uint16_t fn, flags;   /* flags: EV_M_* (EV__MF_PUBLIC) and EV__MF_* */
};
#define EV__MF_PUBLIC 0x1ffu
enum {
    EV__MF_ORDER = 1u << 9,
    EV__MF_INIT = 1u << 10,
    EV__MF_PEER = 1u << 11,
    EV__MF_SIDE = 1u << 12, /* the peer is on side 1 of its communicator */
    EV__MF_EVENT = 1u << 13,
    EV__MF_DONE = 1u << 14,
};
#define EV__M32_NONE UINT32_MAX
#define EV__M16_ESC UINT16_MAX
/* struct ev__mesc.field, in the order a message's entries are kept */
enum { EV__MX_EVENT, EV__MX_DONE, EV__MX_ORDER, EV__MX_INIT, EV__MX_PEER,
       EV__MX_SHAPE, EV__MX_ELEM };
struct ev__mesc {
    uint32_t i, field;
    uint64_t v;
};
struct ev__shape {
    int64_t count, bytes;
    uint32_t datatype;
};

/* An open-addressing table of indices into one of the index's arrays
 * (-1: a free slot, linear probing; keys, channels, shapes): *TAB of *CAP
 * slots rebuilt at twice the size (MIN the first time) from the N
 * entries' hashes, HASH(IX, K). 0, or -1 out of memory (unchanged). */
static inline int ev__itab_grow(int32_t **tab, size_t *cap, size_t min,
                                const struct ev_index *ix, size_t n,
                                uint64_t (*hash)(const struct ev_index *,
                                                 size_t))
{
    size_t c = *cap ? *cap * 2 : min;
    int32_t *t = malloc(c * sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < c; i++)
        t[i] = -1;
    for (size_t k = 0; k < n; k++) {
        size_t i = hash(ix, k) & (c - 1);
        while (t[i] >= 0)
            i = (i + 1) & (c - 1);
        t[i] = (int32_t)k;
    }
    free(*tab);
    *tab = t;
    *cap = c;
    return 0;
}

/* A communicator's groups, as a key: the k-th with this key is one id. */
struct ev__ckey {
    uint64_t hash;
    int inter, na, nb;
    size_t aoff, boff; /* into the member pool */
    int cur_rank, cur_count;
    int32_t *ids;      /* the global id of each instance */
    size_t nids, capids;
};

/* A point-to-point channel: (communicator, sender, receiver, tag). */
struct ev__chan {
    int32_t comm, src, dst, tag;
    uint32_t s_first, s_n, r_first, r_n;
};

/* An operation started by a call that returns a request and is not a
 * message or a collective (MPI_File_iread, MPI_Rget, ...): its call and
 * the call completing it (EV_NONE never; its free, when MPI_Request_free
 * freed it), for buf.overlap. */
struct ev__op {
    uint64_t event, done;
    int32_t rank;
};

struct ev_index {
    /* What each function is, by id (ev-func.c). The index's own copy,
     * derived from the immutable role table when the index is built: no
     * state outside struct ev_run, so two runs (or threads) share
     * nothing, for ~10 us per build. */
    struct ev__fninfo *fninfo;
    int fninfo_max;
    struct ev__msg *msgs;   /* read with ev__msg() and the ev__m_* */
    size_t nmsgs, capmsgs;
    size_t *mfirst;         /* rank r's messages: [mfirst[r], mfirst[r + 1]) */
    int nranks;             /* the run's world size */
    struct ev__mesc *mesc;  /* by message, then field */
    size_t nmesc, capmesc;
    struct ev__shape *shapes;
    size_t nshapes, capshapes;
    int32_t *shapetab;      /* open addressing over shapes */
    size_t shapetab_cap;
    struct ev_coll *colls;
    size_t ncolls, capcolls;
    struct ev_comm *comms;
    size_t ncomms, capcomms;
    size_t *comm_aoff, *comm_boff; /* parallel to comms */
    size_t capaoff, capboff;
    int32_t *pool;
    size_t npool, cappool;
    struct ev__ckey *keys;
    size_t nkeys, capkeys;
    int32_t *keytab; /* open addressing over keys */
    size_t keytab_cap;
    struct ev__chan *chans;
    size_t nchans, capchans;
    int32_t *chantab;
    size_t chantab_cap;
    int32_t *sorder, *rorder; /* message indices, grouped by channel */
    size_t nsorder, nrorder;
    int32_t *coll_sorted;     /* by (comm, instance, rank) */
    struct ev__rank_ix *r;
    struct ev_req_issue *rqis; /* ev_req_issue_at, by rank and event */
    size_t nrqis, caprqis;
    struct ev__op *ops;
    size_t nops, capops;
    int oom;
};

/* What the index does with function FN (an empty entry for an unknown
 * id). */
static inline const struct ev__fninfo *ev__fn(const struct ev_index *ix,
                                              int fn)
{
    static const struct ev__fninfo none = {EV__C_NONE, 0, -1, -1, -1, -1,
                                           -1, -1, -1, -1, -1, -1, -1};
    return fn >= 0 && fn <= ix->fninfo_max ? &ix->fninfo[fn] : &none;
}

/* ---- the pass over one rank's log --------------------------------------- */

enum ev__rq_type { EV__RQ_P2P = 1, EV__RQ_PSEND, EV__RQ_PRECV, EV__RQ_COLL,
                   EV__RQ_PCOLL, EV__RQ_IMRECV, EV__RQ_OTHER,
                   EV__RQ_PPART /* partitioned: persistent, no message */ };

/* A live request of the rank being read. */
struct ev__req {
    uint32_t handle;
    int32_t next;       /* next request with the same handle, -1 */
    int type;           /* enum ev__rq_type */
    int active;         /* persistent: started by MPI_Start */
    int32_t m0, m1;     /* messages (m1: Isendrecv's receive) */
    int32_t coll;
    int32_t op;         /* EV__RQ_OTHER: its struct ev__op, -1 */
    uint64_t event;     /* the call that created it */
    uint64_t last_done; /* persistent: its last completion (or init) */
    uint64_t started;   /* persistent: its last start */
    /* persistent template */
    int32_t comm, side, peer_local, tag;
    int64_t count;
    uint32_t datatype;
    int send;
    int fn;             /* Imrecv: its function */
};

/* A Startall whose requests the log does not list. */
struct ev__startall {
    uint64_t event;
    int left;
    int fn;
};

struct ev__pass {
    struct ev_run *x;
    struct ev_index *ix;
    int rank;
    int mnext; /* the first rank whose ix->mfirst is not set yet */
    /* The messages of the rank being read, in full until ev__msgs_keep():
     * message i is cur[i - mbase]. */
    struct ev_msg *cur;
    size_t ncur, capcur, mbase;
    struct util_htab comms; /* handle -> binding index (rank_ix.binds) */
    struct util_htab reqs;  /* handle -> first request (chain), -1
                             * (struct ev__rqent) */
    struct ev__req *rq;
    size_t nrq, caprq;
    int32_t *rq_free;
    size_t nfree, capfree;
    struct ev__startall *sa;
    size_t nsa, capsa;
    int32_t *probed;     /* messages matched by Mprobe, not yet received */
    size_t nprobed, capprobed;
    int32_t *coll_count; /* per global communicator */
    size_t capcount;
    int32_t *world;      /* 0 .. world_size - 1 */
};

/* The handle maps: handle -> int32 in a util table. 0 is no communicator
 * or request handle in MPICH: it marks a free slot. */
struct ev__hent {
    int32_t h;
    int32_t v;
};
#define EV__HMAP_INIT UTIL_HTAB_INIT(struct ev__hent, h, 0)

static inline int32_t *ev__hmap_get(struct util_htab *m, uint32_t h)
{
    struct ev__hent *e = util_htab_find(m, (int32_t)h);
    return e ? &e->v : NULL;
}

static inline int ev__hmap_put(struct util_htab *m, uint32_t h, int32_t v)
{
    struct ev__hent e = {(int32_t)h, v};
    return util_htab_put(m, &e);
}

/* An entry of the request map (struct ev__pass.reqs): a handle, its
 * latest live request (-1: none), and the last of its requests that went: the call that made it and the
 * one that completed or freed it (EV_NONE: none went yet), which is what a
 * copy of the handle used later refers to. */
struct ev__rqent {
    int32_t h;
    int32_t v;
    uint64_t made, gone;
};
#define EV__RQMAP_INIT UTIL_HTAB_INIT(struct ev__rqent, h, 0)

/* Records that the rank being read refers at EVENT to message or
 * collective I in ROLE (enum ev_role). */
static inline void ev__ref_add(struct ev__pass *p, uint64_t event, int role,
                               int32_t i)
{
    struct ev__rank_ix *ri = &p->ix->r[p->rank];
    if (util_grow(&ri->refs, &ri->caprefs, ri->nrefs + 1,
                  sizeof *ri->refs) < 0) {
        p->ix->oom = 1;
        return;
    }
    ri->refs[ri->nrefs++] = (struct ev__xref){event, i, role};
}

/* ---- helpers, by file --------------------------------------------------- */

/* ev-open.c: frees an index. (Error messages: log_errf, log-reader.h.) */
void ev__index_free(struct ev_index *ix, const struct ev_run *x);
/* Adds R to X's logged ranks (kept ascending): 0, or -1 out of memory. */
int ev__logged_add(struct ev_run *x, int r);
/* The first rank from R on with a log file, or X's world size. */
int ev__next_logged(const struct ev_run *x, int r);
/* Frees the build ev_build_feed() began and ev_build() did not finish. */
void ev__feed_free(struct ev_run *x);
/* ev-open.c: the bytes IX holds (its arrays as allocated). */
size_t ev__index_bytes(const struct ev_index *ix, const struct ev_run *x);

/* ev-build.c: the index to answer about rank RANK's own events: the whole
 * one when it is built (or when another rank's alone was asked for
 * before), else one of RANK's events alone, built once (their peers, tags
 * and communicator ids are the whole index's; nothing is matched). NULL
 * with ERR when out of memory. */
struct ev_index *ev__index_for(struct ev_run *x, int rank, char *err,
                               size_t errlen);
/* ev-query.c: ev_uses() and ev_comm_of() in index IX. */
int ev__uses(const struct ev_index *ix, int world_size, int rank,
             uint64_t n, struct ev_use *out, int max);
int ev__comm_of(const struct ev_index *ix, int world_size, int rank,
                uint64_t n, uint32_t h, int *side);

/* ev-func.c: fills ix->fninfo from the role table. 0, or -1 (no memory). */
int ev__fninfo_build(struct ev_index *ix);
/* The index of D's argument NAME, -1 none; the value of EV's by-value
 * argument NAME, DFLT when it has none (ev-func.c): for the arguments no
 * slot names (a window, a target rank, a stride). */
int ev__arg_index(const struct log_func_desc *d, const char *name);
int64_t ev__arg_named(const struct log_event *ev, const char *name,
                      int64_t dflt);

/* ev-comm.c */
/* Rank RANK creates (at EVENT) a communicator with local group L and
 * remote group R (NR 0: an intracommunicator): its global id, or -1.
 * *SIDE: 0 when L is group a. RANK -1: the index itself (COMM_WORLD). */
int32_t ev__comm_create(struct ev_index *ix, int rank, uint64_t event,
                        const int32_t *l, int nl, const int32_t *rm, int nr,
                        int *side);
/* World rank of rank LOCAL of the group a rank on side SIDE of COMM
 * addresses (the remote group of an intercommunicator): -1 if none. */
int32_t ev__world_of(const struct ev_index *ix, int32_t comm, int side,
                     int32_t local);
/* MPI_COMM_WORLD and MPI_COMM_SELF, bound at the start of the rank's log. */
void ev__comm_predefined(struct ev__pass *p);
/* The communicator handle H at this point of the pass: global id (-1
 * unknown) and *SIDE. */
int32_t ev__comm_lookup(struct ev__pass *p, uint32_t h, int *side);
/* A call that returned a new communicator (HANDLE at argument ARG, and its
 * MEMBERS): creates or finds it and binds the handle. */
void ev__comm_new(struct ev__pass *p, const struct log_event *ev, int arg);

/* ev-match.c */
/* A new message instance of the rank being read: its index, or -1. */
int32_t ev__msg_new(struct ev__pass *p, uint64_t event, int fn, int send);
/* Message MI of the rank being read (made by ev__msg_new in this pass). */
static inline struct ev_msg *ev__pmsg(struct ev__pass *p, int32_t mi)
{
    return &p->cur[(size_t)mi - p->mbase];
}
/* The messages of the rank just read into the index (struct ev__msg). */
void ev__msgs_keep(struct ev__pass *p);
/* Message I (< ix->nmsgs) in full. */
struct ev_msg ev__msg(const struct ev_index *ix, int32_t i);
/* Message I made in *BUF, which it returns. */
static inline const struct ev_msg *ev__msgp(const struct ev_index *ix,
                                           int32_t i, struct ev_msg *buf)
{
    *buf = ev__msg(ix, i);
    return buf;
}
/* Its fields one by one, cheaper. */
int32_t ev__m_rank(const struct ev_index *ix, int32_t i);
int32_t ev__m_peer(const struct ev_index *ix, int32_t i);
/* Field F (EV__MX_*) of message I, kept aside (0 when it is not). */
uint64_t ev__mesc_get(const struct ev_index *ix, int32_t i, unsigned f);
static inline uint64_t ev__m_event(const struct ev_index *ix, int32_t i)
{
    const struct ev__msg *c = &ix->msgs[i];
    return c->flags & EV__MF_EVENT ? ev__mesc_get(ix, i, EV__MX_EVENT)
                                   : c->event;
}
static inline uint64_t ev__m_done(const struct ev_index *ix, int32_t i)
{
    const struct ev__msg *c = &ix->msgs[i];
    return c->flags & EV__MF_DONE ? ev__mesc_get(ix, i, EV__MX_DONE)
           : c->done == EV__M32_NONE ? EV_NONE
                                     : c->done;
}
static inline uint64_t ev__m_order(const struct ev_index *ix, int32_t i)
{
    return ix->msgs[i].flags & EV__MF_ORDER
               ? ev__mesc_get(ix, i, EV__MX_ORDER) : ev__m_event(ix, i);
}
static inline unsigned ev__m_flags(const struct ev_index *ix, int32_t i)
{
    return ix->msgs[i].flags & EV__MF_PUBLIC;
}
static inline int32_t ev__m_match(const struct ev_index *ix, int32_t i)
{
    return ix->msgs[i].match;
}

/* The event at which ROLE refers to message or collective I. */
static inline uint64_t ev__ref_event_of(const struct ev_index *ix, int role,
                                        int32_t i)
{
    switch (role) {
    case EV_CALL: return ev__m_event(ix, i);
    case EV_PROBE: return ev__m_order(ix, i);
    case EV_DONE: return ev__m_done(ix, i);
    case EV_COLL: return ix->colls[i].event;
    default: return ix->colls[i].done;
    }
}

/* The event of RI's K-th ref (k < nrefs). */
static inline uint64_t ev__ref_event(const struct ev_index *ix,
                                     const struct ev__rank_ix *ri, size_t k)
{
    if (ri->refs32)
        return ev__ref_event_of(ix, (int)(ri->refs32[k] & 7),
                                (int32_t)(ri->refs32[k] >> 3));
    return ri->refs[k].event;
}

/* RI's K-th ref, as a wide one. */
static inline struct ev__xref ev__ref_at(const struct ev_index *ix,
                                         const struct ev__rank_ix *ri,
                                         size_t k)
{
    if (ri->refs32)
        return (struct ev__xref){ev__ref_event(ix, ri, k),
                                 (int32_t)(ri->refs32[k] >> 3),
                                 (int32_t)(ri->refs32[k] & 7)};
    return ri->refs[k];
}

/* The first of RI's refs (sorted by event) at or after event N. */
static inline size_t ev__ref_lower(const struct ev_index *ix,
                                   const struct ev__rank_ix *ri, uint64_t n)
{
    size_t lo = 0, hi = ri->nrefs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ev__ref_event(ix, ri, mid) < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
/* Sets a send's peer from its destination DEST on COMM (side SIDE). */
void ev__send_peer(struct ev__pass *p, struct ev_msg *m, int32_t comm,
                   int side, int32_t dest);
/* A receive posted without its status yet: SOURCE and TAG as asked. */
void ev__recv_posted(struct ev__pass *p, struct ev_msg *m, int32_t comm,
                     int side, int32_t source, int32_t tag);
/* Applies a receive's status ST on its communicator (side SIDE). */
void ev__recv_status(struct ev__pass *p, struct ev_msg *m, int side,
                     const int32_t st[LOG_ST_N]);
/* The first STATUS field of EV into ST: 1, or 0 when none. */
int ev__first_status(const struct log_event *ev, int32_t st[LOG_ST_N]);
/* The channel (created when CREATE), or -1. */
int32_t ev__chan_of(struct ev_index *ix, int32_t comm, int32_t src,
                    int32_t dst, int32_t tag, int create);
/* Matches every channel's sends with its receives, in order. */
void ev__match_p2p(struct ev_index *ix);

/* ev-req.c */
/* The request handle the call EV returned (a HANDLE or RAW field of
 * argument ARG), 0 when none. */
uint32_t ev__out_handle(const struct log_event *ev, int arg);
/* A new live request with handle H made by the call at EVENT (type enum
 * ev__rq_type): its index into p->rq, or -1 (a null handle, no memory). */
int32_t ev__req_new(struct ev__pass *p, uint32_t h, int type,
                    uint64_t event);
/* The live request with handle H (the latest), or -1. */
int32_t ev__req_find(struct ev__pass *p, uint32_t h);
/* Request I is gone: completed or freed by the call at EVENT. */
void ev__req_drop(struct ev__pass *p, int32_t i, uint64_t event);
/* MPI_Start(H) at EVENT by function FN (also each request of a Startall
 * that lists them); OK: it returned MPI_SUCCESS (else only its misuse of
 * H is noted: ev_req_issue). */
void ev__req_start(struct ev__pass *p, uint32_t h, uint64_t event, int fn,
                   int ok);
/* MPI_Request_free(H) at EVENT. */
void ev__req_free(struct ev__pass *p, uint32_t h, uint64_t event);
/* The requests still live at the end of the rank's log (EV_RQ_LIVE). */
void ev__req_live_at_end(struct ev__pass *p);
/* A Startall of COUNT requests at EVENT that does not list them. */
void ev__startall_unlisted(struct ev__pass *p, uint64_t event, int count,
                           int fn);
/* The oldest message matched by Mprobe whose source and tag are ST's
 * (else the oldest): removed from the list; -1 when none. */
int32_t ev__probed_take(struct ev__pass *p, const int32_t *st);
/* The completions a Wait/Test-family record logged for argument ARG. */
void ev__completions(struct ev__pass *p, const struct log_event *ev,
                     unsigned arg);

/* ev-query.c */
/* A receive's call that said what it takes: the Mprobe of an Mrecv, the
 * Recv_init of a persistent one, else the call. */
static inline uint64_t ev__posting(const struct ev_msg *m)
{
    return (m->flags & EV_M_PROBED)     ? m->order
         : (m->flags & EV_M_PERSISTENT) ? m->init
                                        : m->event;
}
/* How rank R's event E (a receive's posting, a probe) named its source
 * and tag: EV__WILD_SOURCE with MPI_ANY_SOURCE, EV__WILD_TAG with
 * MPI_ANY_TAG; 0 also when it cannot be read. */
enum { EV__WILD_SOURCE = 1, EV__WILD_TAG = 2 };
int ev__wildcard_at(struct ev_run *x, int r, uint64_t e);

/* ev-query.c: communicator C named in a message ("MPI_COMM_WORLD",
 * "communicator 3", "an unknown communicator"; BUF when needed); a call in
 * progress from its slot (log-format.h: struct log_call_slot) with its
 * communicator's global id COMM, as "MPI_Recv(source 1, tag 5,
 * MPI_COMM_WORLD)" (ev_call_in_progress, deadlock.*'s reports). */
const char *ev__comm_name(int32_t comm, char *buf, size_t len);
void ev__slot_call(struct ev_index *ix, int fn, const struct log_call_slot *s,
                   int32_t comm, char *buf, size_t size);

/* ev-causal.c: the happened-before edges of a run whose index is built
 * (docs/queries.md: causal_past). */
struct ev__causal;
/* The edges of X: NULL when out of memory. Free with ev__causal_free(). */
struct ev__causal *ev__causal_build(struct ev_run *x);
void ev__causal_free(struct ev__causal *c);
/* The causal past (FUTURE 0) or future of rank R's event S: per rank the
 * last (first) event in it, -1 (INT64_MAX) for none; R's own entry is S
 * itself (the caller excludes it). Valid until C's next walk. Pasts of
 * one rank's events asked in increasing order (futures in decreasing
 * order) cost one walk in all. */
const int64_t *ev__causal_walk(struct ev__causal *c, struct ev_run *x, int r,
                               uint64_t s, int future);
/* Whether rank R1's event S1 happened before rank R2's event S2 (the past
 * of the last S2 asked about is kept: ask about one S2 many times). */
int ev__causal_before(struct ev__causal *c, struct ev_run *x, int r1,
                      uint64_t s1, int r2, uint64_t s2);

/* ev-check-deadlock-unsafe.c: deadlock.unsafe-send's run (ev-check.h:
 * struct ev_check_def), in ev-check-deadlock.c's table. */
struct ev_check_ctx;
int ev__check_unsafe_send(struct ev_check_ctx *c, char *err, size_t errlen);
/* ev-check-err.c: whether rank R went on after its failed call F as if
 * nothing happened (err.ignored's test): 1, 0 not, -1 interrupted. */
int ev__err_ignored(struct ev_check_ctx *c, int r, const struct log_event *f);
/* ev-check-rma.c: what rma.epoch finds wrong with rank R's call N (the
 * call it died in, err.fatal's) into BUF: 1, 0 nothing, -1 no memory. */
int ev__rma_explain(struct ev_check_ctx *c, int r, uint64_t n, char *buf,
                    size_t len);
/* ev-check.c: one note, for CHECK, about every rank without a log file
 * ("ranks 4-99: each rank has no log" then WHAT, ": its calls are not
 * checked"), made from the logged ranks: its cost follows them, not the
 * world size. */
void ev__check_note_unlogged(struct ev_check_ctx *c, const char *check,
                             const char *what);
/* Why a rank has no log file, for ev__check_note_unlogged's WHAT. */
#define MISSING_WHY " (no rank-R.log in the run directory: drdb record " \
                    "--ranks leaves ranks out)"

/* A struct constructor's logged arrays (ev-check-types.c): its block
 * lengths, displacements (NULL in logs before drdb logged them) and
 * member types, malloc'd; how many blocks, -1 when the log lacks them. */
int64_t ev__struct_arrays(const struct log_event *ev, int64_t **cnt,
                          int64_t **disp, uint32_t **ty);
/* ev-print-data.c */
/* LEN bytes at P in hex (at most MAX), or as a C string (escaped). */
void ev__print_hex(FILE *out, const uint8_t *p, uint64_t len, uint64_t max);
void ev__print_cstring(FILE *out, const uint8_t *p, uint64_t len,
                       uint64_t max);
/* S as a JSON string, quoted, every byte kept (term_json: control bytes
 * and bytes that are not UTF-8 escaped). */
void ev__json_str(FILE *out, const char *s);
/* The datatype a DATA field of argument ARG of EV is made of: the type
 * its length annotation names ("count x TYPE"), 0 when unknown. */
uint32_t ev__data_type(const struct log_event *ev, unsigned arg);
/* The indices of the by-value datatype and count arguments argument ARG
 * of D's length annotation names into *TYPE and *COUNT, -1 none. */
void ev__data_args(const struct log_func_desc *d, unsigned arg, int *type,
                   int *count);
/* The count it names, when that is one by-value argument ("count x
 * datatype", not "size(comm) * recvcount x ..."): 1 with it in *N, else
 * 0. */
int ev__data_count(const struct log_event *ev, unsigned arg, int64_t *n);
/* DATA field F of rank R's event N decoded by datatype TYPE: element by
 * element for a builtin type, a derived one made of one builtin type, or a
 * struct whose layout the log holds; hex when RAW or unknown. */
void ev__print_data(struct ev_run *x, FILE *out, int rank, uint64_t n,
                    const struct log_field *f, uint32_t type, int raw);
/* A RAW field (an output argument as in memory) of a call of D, by its
 * argument's C type: ints, 64-bit integers, doubles, handles; else hex. */
void ev__print_raw(FILE *out, const struct log_func_desc *d,
                   const struct log_field *f, int raw);

#endif
