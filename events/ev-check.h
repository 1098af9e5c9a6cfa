/*
 * ev-check.h - MPI usage checks over a run's logs, after the run, with no
 * re-run (`drdb check`, the console's `check`; docs/check.md).
 *
 * A check is a function over the event index (events.h) that reports each
 * defect it finds as a finding through its context's emit callback. Checks
 * are named "area.what" ("p2p.type-mismatch", "deadlock.cycle"), each can
 * be turned on or off by name, and each says through note() what it could
 * not look at (a rank without a log, a log cut short, data the recorder did
 * not log) instead of failing: the other checks still run.
 *
 * The runner (ev-check.c) owns the table of checks; the reports (human,
 * JSON, SARIF 2.1.0) take the findings in the order emitted. A finding
 * names the events involved; source lines are added by the report from the
 * events' recorded return addresses where the log has them.
 */
#ifndef DRDB_EV_CHECK_H
#define DRDB_EV_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "ev-srcline.h"

enum ev_check_severity {
    EV_CHECK_ERROR = 0,      /* erroneous under the MPI standard */
    EV_CHECK_WARNING,        /* likely a defect (a leak, an ignored error) */
    EV_CHECK_PORTABILITY,    /* worked here, need not elsewhere (a cycle of
                              * standard sends that only buffering broke) */
};

/* One event a finding involves. */
struct ev_check_site {
    int rank;         /* world rank */
    uint64_t event;   /* its event number (EV_NONE: the end of its log) */
    const char *role; /* what it is in the finding: "send", "receive",
                       * "created here", "blocked here" (static string) */
};

#define EV_CHECK_MSG_LEN 512

/* One defect. The emit callback copies what it keeps: SITES and MESSAGE
 * need only live for the call. */
struct ev_check_finding {
    const char *check;  /* the check's name */
    int severity;       /* enum ev_check_severity */
    char message[EV_CHECK_MSG_LEN]; /* one sentence: what is wrong, with the
                         * calls' arguments (datatypes and communicators by
                         * name) */
    const struct ev_check_site *sites; /* the first is the main one */
    int nsites;
};

struct ev_check_ctx {
    struct ev_run *x;   /* index built (ev_build) before any check runs */
    /* Reports a finding. */
    void (*emit)(void *ud, const struct ev_check_finding *f);
    /* Says what CHECK could not look at, one sentence ("rank 3 has no log:
     * its messages are not checked"). */
    void (*note)(void *ud, const char *check, const char *msg);
    void *ud;
    /* Set (by a signal handler) to stop: a check looks at it between ranks
     * or every few thousand events and returns early. */
    volatile int *interrupted;
};

/* A check. RUN reports through C; it returns 0, or -1 with ERR when it
 * could not run at all (out of memory): the others still run. */
struct ev_check_def {
    const char *name;     /* "p2p.type-mismatch" */
    int severity;         /* of its findings */
    const char *summary;  /* one line for --list and SARIF's rule text */
    int (*run)(struct ev_check_ctx *c, char *err, size_t errlen);
};

/* Each area's file (ev-check-p2p.c, ev-check-coll.c, ...) defines its
 * checks as one array ending in an entry with a NULL name; the runner's
 * table (ev-check.c) lists the arrays. */
extern const struct ev_check_def ev_check_p2p_defs[];      /* p2p.* */
extern const struct ev_check_def ev_check_coll_defs[];     /* coll.* */
extern const struct ev_check_def ev_check_deadlock_defs[]; /* deadlock.* */
extern const struct ev_check_def ev_check_race_defs[];     /* race.* */
extern const struct ev_check_def ev_check_req_defs[];      /* req.*, res.*,
                                                             * msg.* */
extern const struct ev_check_def ev_check_buf_defs[];      /* buf.* */
extern const struct ev_check_def ev_check_rma_defs[];      /* rma.* */
extern const struct ev_check_def ev_check_arg_defs[];      /* arg.*,
                                                             * err.fatal */
extern const struct ev_check_def ev_check_typebuf_defs[];  /* type.* */
extern const struct ev_check_def ev_check_err_defs[];      /* err.* */

/* ---- the runner (ev-check.c) --------------------------------------------- */

/* The checks, in the order they run and are listed: I from 0 to
 * ev_check_count() - 1. */
size_t ev_check_count(void);
const struct ev_check_def *ev_check_at(size_t i);

/* Which checks SPEC selects into ON (ev_check_count() flags): names or
 * shell patterns ("p2p.*") separated by commas, applied left to right; "all"
 * every check; a leading '-' turns off ("all,-race.*"). SPEC NULL: all.
 * 0, or -1 with ERR naming the word that selects no check. */
int ev_check_select(const char *spec, unsigned char *on, char *err,
                    size_t errlen);

/* Builds C->x's index and runs the checks ON selects, in table order; a
 * check that cannot run is reported through C->note and the others run.
 * Stops early when *C->interrupted is set. 0, or -1 with ERR when the index
 * cannot be built. */
int ev_check_run(struct ev_check_ctx *c, const unsigned char *on, char *err,
                 size_t errlen);

/* "error", "warning", "portability". */
const char *ev_check_severity_name(int severity);

/* ---- the reports (ev-check-report.c) ------------------------------------- */

/* The findings and notes of a run of checks, copied as emitted: give
 * ev_check_keep_emit / ev_check_keep_note and the struct as a context's
 * emit, note and ud. */
struct ev_check_kept {
    const char *check;    /* the check's name (its table's string) */
    size_t def;           /* its index (ev_check_at) */
    int severity;
    char message[EV_CHECK_MSG_LEN];
    struct ev_check_site *sites; /* nsites, roles as emitted (static) */
    int nsites;
};
struct ev_check_report {
    struct ev_check_kept *f;
    size_t n, cap;
    /* A note about rank R ("rank 3 has no log...", "rank 3's log...",
     * "rank 3: ...") is one with every other rank's of the same check and
     * words: RANKS, MSG then "ranks 0-3: each rank has no log...",
     * "ranks 0-3, each: ..." */
    struct ev_check_note {
        const char *check;
        char *msg;
        char *rest;       /* the words after "rank R", NULL: no rank */
        int *ranks;       /* nranks, ascending */
        size_t nranks;
    } *notes;
    size_t nnotes, cap_notes;
    size_t count[3];      /* findings per severity */
    int oom;              /* some were lost: out of memory */
};
void ev_check_report_init(struct ev_check_report *r);
void ev_check_report_release(struct ev_check_report *r);
void ev_check_keep_emit(void *ud, const struct ev_check_finding *f);
void ev_check_keep_note(void *ud, const char *check, const char *msg);

/* Where rank R's event N was called from (ev_srcline()) into *S: 1 when
 * something is known (its object at least), 0 not (EV_NONE, no site
 * logged, an unreadable event). */
int ev_check_site_src(struct ev_run *x, int rank, uint64_t n,
                      struct ev_srcloc *s);

enum ev_check_format {
    EV_CHECK_HUMAN = 0, /* grouped by check, a count per check, notes */
    EV_CHECK_JSON,      /* one JSON document (docs/check.md) */
    EV_CHECK_SARIF,     /* SARIF 2.1.0 */
};
/* Prints R's findings in FORMAT to OUT. ON (ev_check_count() flags): the
 * checks that ran (a SARIF rule each); INTERRUPTED: the run stopped early
 * (said in each format). Human: per check in table order a heading with
 * its count, then each finding as "SEVERITY NAME: MESSAGE" and its sites
 * "    R:N ROLE", each followed by its call and source line; the notes;
 * the total. */
void ev_check_print(struct ev_run *x, const struct ev_check_report *r,
                    const unsigned char *on, int interrupted, int format,
                    FILE *out);
/* Every check, a line each: name, severity, what it finds. */
void ev_check_print_list(FILE *out);
/* The notes, "note CHECK: MESSAGE" each (and the out-of-memory one). */
void ev_check_print_notes(const struct ev_check_report *r, FILE *out);
/* The summary line: "N errors, N warnings, N portability". */
void ev_check_print_counts(const struct ev_check_report *r, FILE *out);
/* Finding I (from 0) of R as the human format prints it, numbered K
 * ("[K] " before its first line) when K > 0: the console's list. */
void ev_check_print_finding(struct ev_run *x, const struct ev_check_report *r,
                            size_t i, int k, FILE *out);

#endif
