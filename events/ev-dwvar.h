/*
 * ev-dwvar.h - the program variable a logged buffer address lies in, from
 * the DWARF of the object that made the call (ev-dwvar.c, elfutils' libdw),
 * and the scalar at a byte offset in it: what drdb check's type.* compare
 * with the MPI datatype passed with the buffer.
 *
 * A local variable is found from the calling frame's CFA the recorder
 * logged with the first call from each site (LOG_F_FRAME: the frame base,
 * GCC's DW_OP_call_frame_cfa or Clang's rbp, plus the variable's
 * DW_OP_fbreg offset); a
 * global or static one from its DW_OP_addr plus the object's load bias.
 * Heap memory, a variable kept in registers or described by anything
 * else is not found: the checks then say nothing rather than guess.
 */
#ifndef DRDB_EV_DWVAR_H
#define DRDB_EV_DWVAR_H

#include <elfutils/libdw.h>
#include <stddef.h>
#include <stdint.h>

#include "ev-srcline.h"

/* A variable a buffer lies in. */
struct ev_dwvar {
    char name[128];     /* as declared ("a", "p") */
    char type[128];     /* its C type ("long[8]", "struct pt") */
    char decl[300];     /* "FILE:LINE" of its declaration, "" unknown */
    uint64_t addr;      /* where it lay in the recorded process */
    uint64_t size;      /* its bytes */
    Dwarf_Die type_die;
};

/* What a byte offset of a variable holds. */
enum ev_dwscalar_kind {
    EV_DW_UNKNOWN = 0, /* a union, a bit-field, a type not modelled */
    EV_DW_SIGNED,      /* an integer (signed), an enum */
    EV_DW_UNSIGNED,
    EV_DW_FLOAT,
    EV_DW_COMPLEX,
    EV_DW_BOOL,
    EV_DW_CHAR,        /* char, signed char */
    EV_DW_BYTES,       /* unsigned char: C's bytes of any object (an
                        * object's representation, C11 6.2.6.1): storage
                        * of any type, no type of its own */
    EV_DW_POINTER,
    EV_DW_PAD,         /* padding between or after a struct's members
                        * (path: the member it follows, into 1; into 0:
                        * none does) */
    EV_DW_OUTSIDE,     /* past the variable's end */
};

struct ev_dwscalar {
    int kind;           /* enum ev_dwscalar_kind */
    uint64_t size;      /* its bytes */
    uint64_t into;      /* the offset falls this far into it (0: at its
                         * start) */
    char name[64];      /* its type's name ("long", "double") */
    char path[128];     /* where in the variable ("[3]", ".d", ".v[1].x") */
};

/* The compilation unit of MOD whose code holds ADDR into *CU (by
 * .debug_aranges, else by each unit's ranges: Clang writes no aranges):
 * 1, or 0 when none does (ev-srcline.c). */
int ev__cu_at(Dwfl_Module *mod, uint64_t addr, Dwarf_Die *cu);

/* The variables with a fixed address (globals, statics) of the objects
 * looked at, read once each: ev_dwvar_cache_free() frees it. */
struct ev_dwvar_cache;
void ev_dwvar_cache_free(struct ev_dwvar_cache *c);

/* The variable of the object MOD (ev__srcline_module: at bias 0, loaded at
 * BIAS in the run) that holds ADDR, for a call that returns to PC (an
 * offset in the object) from a frame whose CFA was CFA (0: unknown, only
 * globals and statics): 1 with *V filled, 0 when none is known, -1 out of
 * memory. *C: NULL at first. */
int ev_dwvar_at(struct ev_dwvar_cache **c, Dwfl_Module *mod, uint64_t bias,
                uint64_t pc, uint64_t cfa, uint64_t addr, struct ev_dwvar *v);

/* What byte OFF of V holds: S filled, its kind EV_DW_OUTSIDE past V's
 * end. */
void ev_dwvar_scalar(const struct ev_dwvar *v, uint64_t off,
                     struct ev_dwscalar *s);

/* The size of the innermost element of an array of structs in V that
 * holds byte OFF, with the struct's name into NAME; 0 when none does. */
uint64_t ev_dwvar_struct_elem(const struct ev_dwvar *v, uint64_t off,
                              char *name, size_t len);

#endif
