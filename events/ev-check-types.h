/*
 * ev-check-types.h - what the p2p.* and coll.* checks share (not API:
 * only ev-check-p2p.c and ev-check-coll.c include it): the type signatures
 * of the run's datatypes, rebuilt per rank from the constructor calls in
 * its log, their comparison under MPI 4.0's type-matching rules (section
 * 3.3.1), and a call written with its arguments for a finding's message.
 *
 * A datatype's signature is the sequence of basic types of one element,
 * run-length encoded: runs of (basic type, count), repeated REP times. The
 * log holds every constructor's by-value arguments, and a struct's block
 * lengths and member types (logged arrays), but not the block lengths of
 * indexed, hindexed, subarray or darray types: such a type built on one
 * basic type is "uniform" (that type, an unknown number of times); built
 * on mixed types its signature is unknown and the checks skip it.
 *
 * Handles are per rank and reused after MPI_Type_free: a handle is bound
 * to the latest constructor that returned it at or before the event that
 * uses it (as communicators, ev-comm.c).
 */
#ifndef DRDB_EV_CHECK_TYPES_H
#define DRDB_EV_CHECK_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "events.h"

/* struct ev__sig.state */
enum {
    EV__SIG_OK = 0,   /* runs x rep, exactly */
    EV__SIG_UNIFORM,  /* runs[0].type, an unknown number of times */
    EV__SIG_UNKNOWN,  /* not known from the log */
};

/* The builtin datatypes by name: EV__MPI_INT, EV__MPI_BYTE, ... */
enum ev__basic {
#define EV__BASIC(name, v, size, kind) EV__##name = (int)v,
    DRDB_MPI_BUILTIN_TYPES(EV__BASIC)
#undef EV__BASIC
};

struct ev__run {
    uint32_t type;    /* a basic (builtin) datatype */
    int64_t n;
};

/* One element of a datatype. */
struct ev__sig {
    int state;
    const struct ev__run *runs;
    int nruns;
    int64_t rep;
    int64_t size;     /* bytes of one element; -1 unless OK */
    int fn;           /* the constructor that made it, 0 for a builtin */
    struct ev__run own[2]; /* a predefined type's runs (runs points here:
                            * use *S in place, do not copy it) */
};

struct ev__types;

/* Reads every rank's datatype constructors. NULL when out of memory. */
struct ev__types *ev__types_build(struct ev_run *x);
void ev__types_free(struct ev__types *t);

/* The signature of rank RANK's datatype H as its event N uses it into
 * *S (valid until T is freed). A handle nothing built is UNKNOWN. */
void ev__type_sig(const struct ev__types *t, int rank, uint64_t n,
                  uint32_t h, struct ev__sig *s);

/* "MPI_INT", "datatype 0x8c000001 (MPI_Type_vector)". */
void ev__type_name(const struct ev__types *t, int rank, uint64_t n,
                   uint32_t h, char *buf, size_t len);

/* Whether S holds MPI_PACKED anywhere (it matches any type). */
int ev__sig_has_packed(const struct ev__sig *s);
/* The basic type of a uniform S (OK or UNIFORM, one basic type), else 0. */
uint32_t ev__sig_leaf(const struct ev__sig *s);
/* Bytes of COUNT elements of S, -1 when unknown. */
int64_t ev__sig_bytes(const struct ev__sig *s, int64_t count);

/* Where two signatures differ. */
struct ev__sigdiff {
    int differ;        /* 0: they agree over the bytes compared */
    int64_t offset;    /* bytes into the message of the first difference */
    uint32_t ta, tb;   /* the basic types there */
};

/*
 * Compares the first BYTES bytes (-1: all of the shorter) of COUNT_A
 * elements of A with those of COUNT_B elements of B, basic type by basic
 * type; types of one kind and size (MPI_INT and MPI_INT32_T: one C type in
 * this ABI) agree. 0 with *D filled, or -1 when a signature is unknown.
 */
int ev__sig_compare(const struct ev__sig *a, int64_t count_a,
                    const struct ev__sig *b, int64_t count_b, int64_t bytes,
                    struct ev__sigdiff *d);

/* Rank RANK's event N as a call with its by-value arguments, datatypes,
 * communicators and ops by name: "MPI_Send(count 4, MPI_INT, to 1, tag 7,
 * MPI_COMM_WORLD)". */
void ev__call_str(struct ev_run *x, const struct ev__types *t, int rank,
                  uint64_t n, char *buf, size_t len);

#endif
