/* ev-check-coll.h - what the coll.* checks' files share (internal to
 * events/): ev-check-coll.c reads each collective instance's members and
 * runs the checks, ev-check-coll-inter.c holds the intercommunicator
 * rules (roots, signatures), ev-check-coll-nbr.c neighbourhood
 * collectives' signatures (its pairing of blocks: ev-check-coll-nbr.h).
 * The checks themselves are in ev-check.h's table (ev_check_coll_defs).
 */
#ifndef DRDB_EV_CHECK_COLL_H
#define DRDB_EV_CHECK_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "ev-check-types.h"
#include "ev-check.h"
#include "ev-int.h"

enum { K_OPERATION, K_ROOT, K_OP, K_SIGNATURE, K_MISSING };

/* Sites of one finding. */
#define MAX_SITES 64

/* One member's call of the instance. */
struct member {
    const struct ev_coll *k;
    const struct log_func_desc *d;
    int local;        /* its rank in its group of the communicator, -1
                       * unknown */
    int group;        /* an intercommunicator's: 0 its group a, 1 b (0 in
                       * an intracommunicator) */
    int idle;         /* takes no part: passes MPI_PROC_NULL as the root
                       * of an intercommunicator collective (a member of
                       * the root's group but the root) */
    int in_place;     /* K_SIGNATURE: a buffer of its call is MPI_IN_PLACE
                       * 1, none 0, -1 the record has no addresses */
    int64_t count, rcount, root;
    uint32_t type, rtype, op;
    /* A v- or w-form's logged arrays (LOG_F_ARRAY; NULL: not logged),
     * n elements each: sendcounts, recvcounts, sendtypes, recvtypes. */
    int64_t *arr[4];
    int narr[4];
    int has_arrays; /* its record logged any (a drdb that logs them) */
};

struct scan {
    struct ev_check_ctx *c;
    struct ev__types *t;   /* K_SIGNATURE only */
    int want;
    int32_t comm;          /* of the instance */
    const struct ev_comm *cm;
    int32_t *local;        /* world rank -> rank in its group of cm, -1 */
    int8_t *group;         /* world rank -> its group of cm (0 a, 1 b) */
    int shown, more;       /* findings on this communicator */
    size_t more_total;
    struct member *mem;
    int n;                 /* members of the instance */
    struct ev_check_site sites[MAX_SITES];
    int nsites;
    /* Per rank, the communicators on which a collective call of it failed
     * (not in the index), read when first needed: -1 ends a list. */
    int32_t **failed;
    /* v-, w- and neighbourhood collective instances whose arrays or
     * neighbours the log does not hold. */
    size_t no_arrays;
};

/* A member's piece: COUNT elements of datatype TYPE. */
struct piece {
    const struct member *m;
    int64_t count;
    uint32_t type;
};

/* ---- ev-check-coll.c ---------------------------------------------------- */

/* Reports a finding of S's check with S's sites (then cleared); past the
 * per-communicator limit only counted. */
void ev__coll_emit(struct scan *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Adds M's call to S's sites ("root" or "member"). */
void ev__coll_member_site(struct scan *s, const struct member *m);
/* "collective #3 on MPI_COMM_WORLD" (numbered from 0). */
void ev__coll_instance_str(const struct scan *s, char *buf, size_t len);
/* M's call with its arguments, for a message. */
void ev__coll_call(struct scan *s, const struct member *m, char *buf,
                   size_t len);
/* Compares piece B with the reference A; a finding when their type
 * signatures x counts differ (MPI_PACKED on either side: not compared). */
void ev__coll_compare_piece(struct scan *s, const struct piece *a,
                            const struct piece *b);
/* Element J of member M's array W (0 sendcounts .. 3 recvtypes); -1 when
 * not logged. */
int64_t ev__coll_arr_at(const struct member *m, int w, int j);
/* Compares the piece SND sends to RCV with the piece RCV expects from SND
 * (Alltoallv/w: arrays indexed by the peer's rank in its group). */
void ev__coll_vpair(struct scan *s, const struct member *snd,
                    const struct member *rcv, int w_form);
/* Whether the function's counts are arrays (v- and w-forms,
 * Reduce_scatter). */
int ev__coll_has_count_arrays(const struct log_func_desc *d);
/* Where the buffer described by datatype argument T is significant
 * (enum log_at; 0 unqualified: everywhere). */
int ev__coll_buffer_at(const struct log_func_desc *d, int t);

/* ---- ev-check-coll-nbr.c: neighbourhood collectives -------------------- */

/* coll.signature on a neighbourhood collective's instance, per pair of
 * topology neighbours (ev__nbr_signature); an instance whose records hold
 * no neighbours counts in S's no_arrays. */
void ev__coll_nbr_signature(struct scan *s);

/* ---- ev-check-coll-inter.c: intercommunicators -------------------------- */

/* coll.root on an intercommunicator instance. */
void ev__coll_inter_root(struct scan *s);
/* coll.signature on an intercommunicator instance. */
void ev__coll_inter_signature(struct scan *s);

#endif
