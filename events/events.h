/*
 * events.h - MPI event navigation over the logs of a whole run: which send a
 * receive matched, which calls are one collective, what was pending where.
 *
 * ev_open() opens every rank's log (each is random access by itself). The
 * first query builds the index once (ev_build(): one pass over each rank's
 * log, flat arrays and hash tables, no allocation per event):
 *
 *   - communicators: every handle a rank used, mapped to a global id shared
 *     by all members (struct ev_comm), per point in time (handles are
 *     reused after MPI_Comm_free);
 *   - messages: each send or receive instance (struct ev_msg), its calls
 *     (posting, probing, completing) and the instance it matched;
 *   - collectives: each collective call (struct ev_coll) and its instance
 *     number on its communicator.
 *
 * The rules and their limits are in docs/events.md. Events are numbered
 * per rank from 0, as in the logs; ranks are MPI_COMM_WORLD ranks.
 */
#ifndef DRDB_EVENTS_H
#define DRDB_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "drdb_mpi_abi.h"
#include "log-reader.h"

#define EV_NONE UINT64_MAX /* no event */

/* MPICH's constants, as the logs hold them (generated from <mpi.h>). */
#define EV_PROC_NULL DRDB_MPI_PROC_NULL
#define EV_ANY_SOURCE DRDB_MPI_ANY_SOURCE
#define EV_ANY_TAG DRDB_MPI_ANY_TAG
#define EV_COMM_WORLD DRDB_MPI_COMM_WORLD
#define EV_COMM_SELF DRDB_MPI_COMM_SELF
#define EV_COMM_NULL DRDB_MPI_COMM_NULL
#define EV_REQUEST_NULL DRDB_MPI_REQUEST_NULL

/* A communicator, the same object at every member. Intercommunicators have
 * two groups: a (the one whose world ranks compare lower) and b. */
struct ev_comm {
    int id;            /* its global id: 0 is MPI_COMM_WORLD */
    int inter;         /* an intercommunicator */
    int na, nb;        /* group sizes (nb 0 for an intracommunicator) */
    const int32_t *a;  /* world ranks, in the group's rank order */
    const int32_t *b;
    int instance;      /* the k-th communicator with these groups */
    int creator_rank;  /* where it was first seen created, and the event */
    uint64_t creator_event; /* (EV_NONE: predefined) */
};

/* struct ev_msg.flags */
enum {
    EV_M_SEND = 1u << 0,      /* a send (else a receive) */
    EV_M_NONBLOCKING = 1u << 1, /* completed by another call (Wait, ...) */
    EV_M_PERSISTENT = 1u << 2, /* an instance of a persistent request */
    EV_M_PROC_NULL = 1u << 3, /* with MPI_PROC_NULL: matches nothing */
    EV_M_CANCELLED = 1u << 4, /* cancelled (status): matches nothing */
    EV_M_UNKNOWN = 1u << 5,   /* peer or communicator unknown: unmatchable */
    EV_M_PROBED = 1u << 6,    /* matched by MPI_Mprobe / MPI_Improbe */
    EV_M_NOSTATUS = 1u << 7,  /* a receive never completed: no status */
    EV_M_FREED = 1u << 8,     /* its request freed by MPI_Request_free
                               * while active: `done` stays EV_NONE */
};

/* One send or receive instance. */
struct ev_msg {
    uint64_t event;  /* the call: Send, Isend, Recv, Irecv, Sendrecv, Start
                      * or Startall (persistent), Mrecv, Imrecv */
    uint64_t order;  /* where MPI matches it (orders a channel): the call,
                      * the Mprobe/Improbe for Mrecv/Imrecv */
    uint64_t done;   /* the call completing it: the call itself when
                      * blocking, EV_NONE when it never completed */
    uint64_t init;   /* persistent: its *_init call; else EV_NONE */
    int64_t count;   /* the call's count argument */
    int64_t bytes;   /* a receive: bytes its status says arrived; a send:
                      * count x the size of a builtin type, else -1 */
    int32_t rank;    /* this side, a world rank */
    int32_t peer;    /* the other side's world rank, -1 unknown/PROC_NULL */
    int32_t peer_local; /* the peer as the call named it (dest, or the
                      * status source): a rank of the communicator */
    int32_t tag;     /* the send's tag, the receive's status tag */
    int32_t comm;    /* global communicator id, -1 unknown */
    int32_t match;   /* the matching instance (index), -1 none */
    uint32_t datatype;
    uint32_t done_elem; /* the index in the completing call's arrays */
    uint16_t fn;     /* the function of `event` */
    uint16_t flags;  /* EV_M_* */
};

/* One collective call. */
struct ev_coll {
    uint64_t event;
    uint64_t done;     /* blocking: the event; nonblocking: its Wait/Test */
    int32_t rank;
    int32_t comm;      /* global communicator id, -1 unknown */
    int32_t instance;  /* this rank's k-th collective on comm, from 0 */
    uint32_t datatype; /* of what it writes here, 0 unknown */
    uint32_t done_elem; /* nonblocking: the index in the completing call's
                         * arrays */
    uint16_t fn;
    uint16_t nonblocking;
};

/* One rank of the run. */
struct ev_rank {
    int present;           /* its log was found and opened */
    struct log_rank log;
    char err[256];         /* why it is not present */
};

struct ev_index;

struct ev__feed;
struct ev_run {
    char dir[4096];
    int world_size;
    struct ev_rank *ranks; /* world_size of them, calloc'd: only the
                            * logged ones' pages are ever touched */
    /* The ranks with a log file (opened or not: ranks[r].err says why),
     * ascending: what a loop over ranks walks, so that its cost follows
     * the logs present, not the world size drdb.run claims. */
    int *logged;
    int nlogged;
    struct ev_index *ix;   /* built by the first query (ev_build) */
    /* The index of one rank's events alone, for a listing of that rank
     * (ev_list_events) while ix is not built. */
    struct ev_index *rank_ix;
    int rank_ix_rank;
    double build_s;        /* seconds ev_build took */
    /* The build begun before the query (ev_build_feed), and the seconds
     * it took so far. */
    struct ev__feed *feed;
    double feed_s;
    /* The query database (ev-sql.h: ev_sql_get), freed by ev_close()
     * through sql_free. */
    struct ev_sql *sql;
    void (*sql_free)(struct ev_sql *);
    /* The objects ev_srcline() read (ev-srcline.h), freed by ev_close(). */
    struct ev_srcline_cache *srcline;
};

/* Opens the run in DIR and every rank log it has (a missing or damaged one
 * is not an error: its rank is not present). 0, or -1 with ERR. */
int ev_open(struct ev_run *x, const char *dir, char *err, size_t errlen);
/* As ev_open(), for the run RUN describes (log_run_open() read it). */
struct log_run;
int ev_open_run(struct ev_run *x, const struct log_run *run, char *err,
                size_t errlen);
/* An empty run of WORLD_SIZE ranks named NAME in messages (a host:path),
 * for logs that come from elsewhere: ev_take_rank() adds each. 0, or -1
 * with ERR. */
int ev_open_empty(struct ev_run *x, const char *name, int world_size,
                  char *err, size_t errlen);
/* Gives rank R's log LOG (opened by the caller: e.g. a stripped copy from
 * the host that holds it, log_rank_open_mem()) to X, which releases it at
 * ev_close(). 0, or -1 with ERR (R out of range or already present, LOG's
 * header names another rank or world size): LOG is released. */
int ev_take_rank(struct ev_run *x, int r, struct log_rank *log, char *err,
                 size_t errlen);
void ev_close(struct ev_run *x);
/* Begins the whole index (ev_build) with ranks 0 to UPTO - 1, whose logs
 * are all given (ev_take_rank) or known missing: a caller that gets the
 * logs one after another (from other hosts) reads each as it comes,
 * while the next is on its way; ev_build() reads the rest, matches and
 * finishes. Out of memory here, ev_build() says so. */
void ev_build_feed(struct ev_run *x, int upto);
/* Why rank R (not present) has no log: "the run directory has no ...", or
 * the reader's reason. */
const char *ev_rank_missing(struct ev_run *x, int r);

/* Builds the index (done once; every query below calls it). 0, or -1
 * (out of memory) with ERR. */
int ev_build(struct ev_run *x, char *err, size_t errlen);

/* Decodes rank R's event N: 0, or -1 with ERR naming what is wrong (rank
 * not recorded, event out of range, malformed). */
int ev_event(struct ev_run *x, int rank, uint64_t n, struct log_event *ev,
             char *err, size_t errlen);

/* ---- the index: raw access ---------------------------------------------- */

size_t ev_nmsgs(struct ev_run *x);
/* Message I in full into *M, which it returns; NULL when there is no
 * message I. (The index keeps messages packed: struct ev_msg is made on
 * each call, docs/events.md.) */
const struct ev_msg *ev_msg_at(struct ev_run *x, int32_t i,
                               struct ev_msg *m);
size_t ev_ncolls(struct ev_run *x);
const struct ev_coll *ev_coll_at(struct ev_run *x, int32_t i);
int ev_ncomms(struct ev_run *x);
const struct ev_comm *ev_comm_at(struct ev_run *x, int id);

/* How an event refers to a message or collective (struct ev_use.role). */
enum ev_role {
    EV_CALL = 1, /* the message's call (posts it; a blocking one completes) */
    EV_PROBE,    /* MPI_Mprobe/MPI_Improbe matched it (what an MPI_Probe
                  * or MPI_Iprobe saw, ev_partners() works out) */
    EV_DONE,     /* completed it (Wait, Test, ... of its request) */
    EV_COLL,     /* the collective call */
    EV_COLL_DONE, /* completed a nonblocking collective */
};
struct ev_use {
    int role;   /* enum ev_role */
    int32_t i;  /* a message (EV_CALL, EV_PROBE, EV_DONE) or a collective */
};
/* What rank R's event N is about: up to MAX uses into OUT (a Sendrecv has
 * two messages, a Waitall one per completed request). Returns how many
 * there are (may exceed MAX), 0 for an event about none, -1 on error. */
int ev_uses(struct ev_run *x, int rank, uint64_t n, struct ev_use *out,
            int max);
/* The bytes rank R's event N sent (a send logs no data): the matched
 * receives' (or the sends' own, count x a builtin type's size) summed over
 * the messages it posts; -1 when it sends none or their size is unknown. */
int64_t ev_sent_bytes(struct ev_run *x, int rank, uint64_t n);

/* The communicator rank R's handle H was bound to at its event N (the
 * latest creation at or before N; predefined ones always): a global id, or
 * -1 when unknown. *SIDE gets which group of an intercommunicator is R's
 * (0: a, 1: b). */
int ev_comm_of(struct ev_run *x, int rank, uint64_t n, uint32_t h,
               int *side);

/* ---- queries ------------------------------------------------------------ */

enum ev_kind {
    EV_K_SEND = 1, /* the partner is a send */
    EV_K_RECV,     /* a receive */
    EV_K_COLL,     /* a member's call of the same collective instance */
};

/* One partner of an event. */
struct ev_ref {
    int kind;        /* enum ev_kind */
    int rank;        /* the partner's world rank */
    uint64_t event;  /* its call */
    uint64_t done;   /* the call that completed it (EV_NONE: never) */
    int32_t comm;    /* global communicator id */
    int32_t tag;     /* point-to-point: the message's tag */
    int64_t bytes;   /* point-to-point: bytes delivered, -1 unknown */
    int32_t instance; /* collective: the instance number */
    int32_t self;    /* the queried event's own message or collective */
    int32_t other;   /* the partner's message or collective (index) */
};

/* The partners of rank R's event N into OUT (at most MAX): for a receive
 * the send it matched, for a send the receive, for a completion (Wait...)
 * those of each message it completed, for a probe the send it saw, for a
 * collective every member's call of the same instance (R's own included).
 * Returns how many there are (may exceed MAX); 0 when the event is about a
 * message that matched nothing; -1 with ERR when the event is about no
 * message or collective, or cannot be read. */
int ev_partners(struct ev_run *x, int rank, uint64_t n, struct ev_ref *out,
                int max, char *err, size_t errlen);

/* The members' calls of collective instance K on communicator C: coll
 * indices into OUT (at most MAX), in rank order; returns how many. */
int ev_instance(struct ev_run *x, int comm, int k, int32_t *out, int max);

/* What was pending at rank R just before its event N. */
struct ev_queue {
    /* Sends to R that no receive of R had completed before N: their
     * receive completes at or after N, or never (unmatched). Messages. */
    int32_t *incoming;
    size_t nincoming;
    /* R's nonblocking operations started before N and completed at or
     * after N (or never): messages, then collectives. */
    int32_t *requests;
    size_t nrequests;
    int32_t *colls;
    size_t ncolls;
};
/* N may be the rank's event count (the end of its log). 0, or -1 with
 * ERR. Release with ev_queue_release(). */
int ev_pending(struct ev_run *x, int rank, uint64_t n, struct ev_queue *q,
               char *err, size_t errlen);
void ev_queue_release(struct ev_queue *q);
/* The call rank RANK was in when its log ended, the one the recorded rank
 * never returned from (docs/log-format.md, "The call in progress"), as
 * "MPI_Recv(source 1, tag 5, MPI_COMM_WORLD)" into BUF: 1; 0 when it was
 * in no MPI call that can block; -1 when that is not known (BUF says
 * why: no slot, a multi-threaded rank). */
int ev_call_in_progress(struct ev_run *x, int rank, char *buf, size_t len);

/* Counts over the whole run. */
struct ev_stats {
    size_t sends, recvs;          /* message instances */
    size_t matched;               /* matched pairs */
    size_t unmatched_sends;       /* real sends no receive took */
    size_t unmatched_recvs;       /* completed receives no send explains
                                   * (PROC_NULL, cancelled not counted) */
    size_t colls, instances;      /* collective calls, instances */
    size_t incomplete_instances;  /* instances some member lacks */
    int comms;
    size_t index_bytes;           /* the index's memory (ev_build's) */
    size_t table_bytes;           /* the logs' per-event tables (record
                                   * offsets and times, log_rank_open's) */
};
void ev_stats(struct ev_run *x, struct ev_stats *st);

/* What the index saw go wrong with a request, or left unfinished
 * (ev_req_issue_at): the pass over each rank's log follows every request
 * handle (docs/events.md). */
enum ev_req_issue_kind {
    EV_RQ_LIVE = 1, /* never completed nor freed: live at the end of the
                     * rank's log (event: the call that made it) */
    EV_RQ_DEAD,     /* a Wait/Test, MPI_Start or MPI_Request_free (event)
                     * of a handle whose request an earlier call (prev)
                     * completed or freed: a copy of the handle used again */
    EV_RQ_RESTART,  /* MPI_Start/Startall (event) of a persistent request
                     * still active since its start at prev */
};
struct ev_req_issue {
    int kind;        /* enum ev_req_issue_kind */
    int32_t rank;
    uint64_t event;
    uint64_t made;   /* the call that made the request (EV_NONE: unknown) */
    uint64_t prev;   /* see the kinds; LIVE: the start of an active
                      * persistent request, else EV_NONE */
    uint32_t handle;
    uint8_t persistent; /* a persistent request (its *_init made it) */
    uint8_t active;  /* LIVE: a nonblocking operation or a started
                      * persistent one is pending (not just never freed) */
};
/* The issues, by rank and event. */
size_t ev_nreq_issues(struct ev_run *x);
const struct ev_req_issue *ev_req_issue_at(struct ev_run *x, size_t i);

/* The function id of rank R's event N (cheap: no decoding), or -1. */
int ev_fn(struct ev_run *x, int rank, uint64_t n);
/* Its record flags (LOG_REC_*, cheap too), or 0. */
unsigned ev_rec_flags(struct ev_run *x, int rank, uint64_t n);

/* Wall-clock estimate of rank R's event N, ns since the epoch (the log's
 * start time plus the event's offset): comparable across ranks of one host
 * only roughly. */
uint64_t ev_walltime(struct ev_run *x, int rank, uint64_t n);

/* ---- an event in brief (ev-brief.c) ------------------------------------- */

/* What one-line listings show of an event (`drdb log dump`, `drdb log
 * events`, the console's `events`), read from its record alone: the
 * arguments as the call passed them, its first status, its data. */
struct ev_brief {
    int has_peer, has_tag, has_comm, has_count, has_status, malformed;
    int64_t peer;           /* dest, source, root or rank, as passed */
    int64_t tag, comm, count; /* comm: the handle */
    int st_source, st_tag;  /* from the (first) status, if any */
    uint64_t bytes;         /* message data logged */
};
/* Fills *B from EV (malformed: its fields end in a damaged one). */
void ev_brief_of(const struct log_event *ev, struct ev_brief *b);

/* A polling cycle's calls (LOG_REC_CYCLE), as " (cycle: MPI_Testany
 * MPI_Test MPI_Wtime)" into BUF; "" for any other event. */
void ev_brief_cycle(const struct log_event *ev, char *buf, size_t len);

/* The peer and tag columns (32 bytes each) of an event without a message
 * in the index: what a receive matched (its status) beats what it asked
 * for (MPI_ANY_SOURCE / MPI_ANY_TAG). Left as they are when it has none. */
void ev_brief_peer_tag(const struct ev_brief *b, char *peer, char *tag);

/* What a listing adds after an event a program callback made or that is
 * a callback's entry (LOG_REC_CALLBACK; docs/log-format.md), into BUF of
 * EV_CB_LEN: "  [callback 1: delete, keyval 0xa4400001 on 0x84000002]",
 * "  [in callback 1]"; "" for the program's own calls. */
#define EV_CB_LEN 96
void ev_brief_callback(const struct log_event *ev, char *buf);
/* What a callback entry (a record saying MPI ran a program callback, not
 * an MPI call) ran: "copy", "delete", "error handler", "operator",
 * "query", "free", "cancel"; NULL for any other record. */
const char *ev_callback_kind(const struct log_event *ev);

/* ---- listing events (ev-list.c) ----------------------------------------- */

/* Which events a listing shows (`drdb log events`, the console's
 * `events`). */
struct ev_filter {
    const char *call; /* a function: case-insensitive, "MPI_" optional,
                       * shell wildcards ("Wait*"); NULL: any */
    long long peer;   /* a message whose other side (the rank a receive
                       * matched) is this world rank; -1: any */
    long long tag;    /* a message with this tag (a receive's matched
                       * tag); -1: any */
};
/* 0 when F's call names an MPI function (or is a pattern), else -1 with
 * ERR. */
int ev_filter_check(const struct ev_filter *f, char *err, size_t errlen);
/* One event of a listing, its columns. */
struct ev_row {
    int rank;
    uint64_t event;
    const char *function;  /* "MPI_Recv" */
    char peer[32];         /* "3", "null", "3+" (more messages), "-" */
    char tag[32], comm[32], count[32]; /* "-": none */
    uint64_t bytes;        /* message data logged */
    double dur_us;
    int has_ret, ret;      /* an error the call returned */
    int died;              /* the rank died in the call (LOG_REC_DIED) */
    uint64_t repeat;       /* a repeated call (x N); 0: not */
    char callback[EV_CB_LEN]; /* ev_brief_callback() */
    char cycle[160];       /* a polling cycle's calls (ev_brief_cycle) */
    int has_thread;        /* the record names its thread (MULTIPLE) */
    uint64_t thread;
};
/* Called for each listed event; MARK: the event marked (the rank's
 * position). */
typedef void ev_row_fn(void *ud, const struct ev_row *row, int mark);
/* Calls FN for rank R's events from FROM on that pass F, at most COUNT of
 * them (counted after the filter). Builds the index, or while it is not
 * built, R's alone (its own events are all a listing shows; the ranks
 * before R are read for their communicators only, whose ids it shows):
 * listing another rank then builds the whole index. How many (0 for a
 * rank without a log), or -1 with ERR. */
long long ev_list_events(struct ev_run *x, int rank, uint64_t from,
                         uint64_t count, const struct ev_filter *f,
                         long long mark, ev_row_fn *fn, void *ud, char *err,
                         size_t errlen);
/* A row as its line of the listing (MARK: ending in "  <= here", the
 * event a rank stands before; EV_MARK_INSIDE: "  <= inside", the one it
 * stands inside). */
#define EV_MARK_INSIDE 2
void ev_print_row(FILE *out, const struct ev_row *row, int mark);
/* The listing's header line. */
void ev_print_events_header(FILE *out);
/* ev_list_events printing each row (ev_print_row): the listing of `drdb
 * log events`; MARK: -1 none. */
long long ev_print_events(struct ev_run *x, FILE *out, int rank,
                          uint64_t from, uint64_t count,
                          const struct ev_filter *f, long long mark,
                          char *err, size_t errlen);

/* ---- printing (ev-print.c, ev-print-event.c) ----------------------------- */

/* "MPI_Send" for a message's or collective's call (from its fn). */
const char *ev_fn_name(int fn);

/* Prints rank R's event N in full (arguments, fields, data decoded by
 * datatype unless RAW, partners). 0, or -1 with ERR. */
int ev_print_event(struct ev_run *x, FILE *out, int rank, uint64_t n,
                   int raw, char *err, size_t errlen);
/* Prints rank R's event N on one line, as a call with its by-value
 * arguments: "MPI_Send(count=1, datatype=MPI_INT, dest=2, tag=0,
 * comm=MPI_COMM_WORLD)" (handles by name, a communicator without one by
 * its global id "comm #3"), then " = error 0x..." when it returned one.
 * No newline. 0, or -1 with ERR. */
int ev_print_call(struct ev_run *x, FILE *out, int rank, uint64_t n,
                  char *err, size_t errlen);
/* Prints the partners of rank R's event N, one line each (a message that
 * matched nothing says why). 0; 1 with ERR when the event is about no
 * message or collective; -1 with ERR when it cannot be read. */
int ev_print_match(struct ev_run *x, FILE *out, int rank, uint64_t n,
                   char *err, size_t errlen);
/* Prints every match of the run: one line per receive and unmatched send,
 * one per collective instance. */
void ev_print_all_matches(struct ev_run *x, FILE *out);
/* Prints what was pending at rank R before its event N. 0 or -1 (ERR). */
int ev_print_queues(struct ev_run *x, FILE *out, int rank, uint64_t n,
                    char *err, size_t errlen);

#endif
