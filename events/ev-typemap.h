/*
 * ev-typemap.h - the type map of a datatype as a rank had it (MPI 4.0
 * 5.1.2: its basic entries and their displacements, with the extent),
 * worked out from the logged constructors (ev-typemap.c): builtins,
 * MPICH's pair types, contiguous, vector, hvector, struct, resized and
 * dup; the indexed forms, subarray, darray and the f90 types are not
 * known. For drdb check's type.* (the buffer's C type against it) and
 * buf.overlap (the bytes a strided buffer really touches).
 */
#ifndef DRDB_EV_TYPEMAP_H
#define DRDB_EV_TYPEMAP_H

#include <stddef.h>
#include <stdint.h>

#include "events.h"

/* One basic entry of a type map. */
struct ev__tment {
    int64_t disp;
    char kind;       /* struct log_mpi_type's */
    int size;
    uint32_t handle; /* the builtin type it comes from */
};

struct ev__tmap {
    struct ev__tment *e;
    size_t n, cap;
    int64_t lb, ub;   /* the extent's bounds */
    int64_t tlb, tub; /* the true ones */
    int sure;         /* lb and ub are MPI's (else estimated) */
    int bad;          /* not known */
};

/* A constructor of one rank: the handle it made, at which event. */
struct ev__ctor {
    uint32_t handle;
    uint64_t event;
};


/* One rank's constructors, in the order of their events. */
struct ev__ctors {
    struct ev__ctor *v;
    size_t n, cap;
};

/* Appends a constructor that made H at EVENT: 0 or -1 (out of memory). */
int ev__ctors_add(struct ev__ctors *c, uint32_t h, uint64_t event);
/* Rank R's constructors from its log, appended to C: 0 or -1. */
int ev__ctors_scan(struct ev_run *x, int r, struct ev__ctors *c);
/* The constructor that made H last before event AT, or NULL. */
const struct ev__ctor *ev__ctor_of(const struct ev__ctors *c, uint32_t h,
                                   uint64_t at);
/* Handle H's type map as rank R (its constructors C) had it at event AT,
 * into *M (M->bad when not known); ev__tmap_release frees it. */
void ev__tmap_build(struct ev_run *x, const struct ev__ctors *c, int r,
                    uint64_t at, uint32_t h, struct ev__tmap *m);
void ev__tmap_release(struct ev__tmap *m);

#endif
