/*
 * ev-srcline.h - where the program made each MPI call: the source line of
 * a call site the recorder logged (log-format.h, LOG_REC_SITE), from the
 * DWARF of the object it lies in, read with elfutils' libdw
 * (ev-srcline.c). Objects are found at the paths the recorded process
 * loaded them from (the program: also the run description's `exe`); one
 * missing, or rebuilt since the run (its GNU build id differs from the
 * recorded one), gives no line rather than a wrong one.
 */
#ifndef DRDB_EV_SRCLINE_H
#define DRDB_EV_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

#include "events.h"

struct ev_srcloc {
    char object[1024];  /* the loaded object's path, as recorded */
    uint64_t offset;    /* the return address, an offset in it */
    char file[1024];    /* source file (absolute when DWARF's compile
                         * dir says), "" unknown */
    int line;           /* 0: unknown */
    char function[256]; /* "" unknown */
};

/* Where rank R's event N was called from. 1 with *LOC filled (file
 * and line may still be unknown: "" / 0, object and offset known),
 * 0 when the log has no return address for it (an older log, a
 * callback's entry), -1 with ERR (cannot read the event). DWARF is
 * read once per object (cached in X). */
int ev_srcline(struct ev_run *x, int rank, uint64_t n,
               struct ev_srcloc *loc, char *err, size_t errlen);

/* As ev_srcline(), and, when it returns 1 with no line, why into WHY
 * ("" otherwise): "'PATH' is missing", "'PATH' was rebuilt since the run
 * (its build id differs)", "no line information at OFFSET (built without
 * -g?)". When it returns 0, why the log has no site ("recorded before
 * drdb logged call sites", "not logged for this call"). */
int ev_srcline_why(struct ev_run *x, int rank, uint64_t n,
                   struct ev_srcloc *loc, char *why, size_t whylen,
                   char *err, size_t errlen);

/* "FILE:LINE (FUNCTION)", or "OBJECT+0xOFFSET" with what is known, into
 * BUF: how drdb shows a call site. */
void ev_srcloc_format(const struct ev_srcloc *loc, char *buf, size_t len);

/* The DWARF of rank RANK's loaded object ID as ev_srcline reads it: its
 * libdwfl module (reported at bias 0: addresses in it are the object's
 * ELF addresses) with the object's load bias in the recorded process in
 * *BIAS; NULL when it cannot be read (missing, rebuilt). */
typedef struct Dwfl_Module Dwfl_Module;
Dwfl_Module *ev__srcline_module(struct ev_run *x, int rank, uint32_t id,
                                uint64_t *bias);

/* Frees what ev_srcline cached in X (ev_close() calls it). */
void ev__srcline_free(struct ev_run *x);

#endif
