/*
 * ev-check-coll-nbr.h - what ev-check-coll.c hands ev-check-coll-nbr.c (not
 * API): coll.signature on one instance of a neighbourhood collective.
 *
 * MPI 4.0 section 8.6: each member sends a block to each of its
 * out-neighbours and receives one from each of its in-neighbours, in the
 * order its topology gives them; the block a member sends to a neighbour
 * must have the type signature of the block that neighbour receives from
 * it. The recorder logs each member's neighbours in its record
 * (LOG_F_NEIGHBORS, log-format.h); a record without them (a log of drdb
 * before version 7) leaves its instance uncompared.
 */
#ifndef DRDB_EV_CHECK_COLL_NBR_H
#define DRDB_EV_CHECK_COLL_NBR_H

#include <stdint.h>

#include "events.h"

/* One member's call, as ev-check-coll.c read it. */
struct ev__nbr_member {
    int rank;          /* world rank */
    uint64_t event;
    int local;         /* its rank in the communicator, -1 unknown */
    int64_t count, rcount;     /* sendcount, recvcount (non-v forms) */
    uint32_t type, rtype;      /* sendtype, recvtype (non-w forms) */
    /* sendcounts, recvcounts, sendtypes, recvtypes as logged
     * (LOG_F_ARRAY; NULL: not logged), narr[w] elements each. */
    const int64_t *arr[4];
    int narr[4];
};

/* Compares the piece member SND sends (SC x ST) with the piece member
 * RCV receives from it (RC x RT), members as indices of the array given
 * to ev__nbr_signature: nonzero when a finding was made (the sender's
 * other pieces are then not compared). */
typedef int (*ev__nbr_compare)(void *ud, int snd, int64_t sc, uint32_t st,
                               int rcv, int64_t rc, uint32_t rt);

/*
 * For each of the N members M of one instance of a neighbourhood
 * collective, each of its out-neighbours that is a member: CMP on the block it
 * sends there and the block that neighbour receives from it, paired as
 * MPI defines (Cartesian: the sender's block 2k+s is the receiver's block
 * 2k+1-s; graphs: the t-th edge from a process to another is the t-th
 * edge to that one from it). Returns 1 when a member's record holds no
 * neighbours (nothing compared), 0, or -1 out of memory.
 */
int ev__nbr_signature(struct ev_run *x, const struct ev__nbr_member *m,
                      int n, ev__nbr_compare cmp, void *ud);

#endif
