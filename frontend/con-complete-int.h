/*
 * con-complete-int.h - between the completer (con-complete.c) and the
 * reader of ELF objects' names it uses (con-complete-names.c).
 *
 * A struct con_names is a set of names, each with what it names (NM_*);
 * con_names_read() adds an object's symbols, DWARF names and source
 * files. Nothing is said on errors: a name that could not be read is not
 * completed.
 */
#ifndef DRDB_CON_COMPLETE_INT_H
#define DRDB_CON_COMPLETE_INT_H

#include <ctype.h>
#include <stddef.h>

enum {
    NM_FUNC = 1u << 0,  /* a function */
    NM_VAR = 1u << 1,   /* a global variable, an enumerator */
    NM_TYPE = 1u << 2,  /* a type, a namespace, a module */
    NM_LOCAL = 1u << 3, /* a local, a parameter, a field */
    NM_FILE = 1u << 4,  /* a source file, or the end of its path */
    NM_LABEL = 1u << 5, /* a label */
};

/* Zeroed: empty. */
struct con_names {
    char **name;
    unsigned *kinds;
    size_t n, cap;
    size_t *slot; /* open addressing: an index + 1, 0 empty */
    size_t nslot; /* a power of two, at least twice n */
};

/* Does T have S[0..LEN) as one of KINDS (0: as anything)? */
int con_names_has(const struct con_names *t, const char *s, size_t len,
                  unsigned kinds);
/* S[0..LEN) into T as KIND (added to its kinds when there): 0, or -1 out
 * of memory. */
int con_names_add(struct con_names *t, const char *s, size_t len,
                  unsigned kind);
void con_names_release(struct con_names *t);

/* What reading an object leaves for finding its libraries: its DT_NEEDED
 * names (malloc'd) and its run paths. */
#define CON_NAMES_NEEDED 64
struct con_names_deps {
    char *needed[CON_NAMES_NEEDED];
    int n;
    char rpath[4096], runpath[4096];
};
void con_names_deps_release(struct con_names_deps *d);

/*
 * The object at PATH: its symbols, DWARF names and source files into T.
 * With OTHER, T is the program's names and OTHER gets the names in the
 * object that are not the program's: the reserved ones ('_' first: the
 * C runtime's, the compiler's, C++'s mangled names, which the DWARF
 * names plainly), the compiler's copies ("f.part.0", "completed.0") and
 * the locals of the C runtime's start files (crtstuff.c's frame_dummy).
 * Without OTHER the object is another's, and every name of it is in T,
 * with the parts GDB also shows of them: log__map_file as "map_file" (an
 * Ada name's last part), "completed.0" as "completed". Its libraries and
 * run paths into DEPS (NULL: not wanted). 0, or -1 when PATH cannot be
 * read as ELF.
 */
int con_names_read(struct con_names *t, struct con_names *other,
                   const char *path, struct con_names_deps *deps);
/* The kernel's vDSO (linux-vdso.so.1, which GDB reads from the process:
 * clock_gettime, LINUX_2.6) into T as another object's: drdb's own, the
 * same kernel's. */
void con_names_read_vdso(struct con_names *t);
/* NAME (a DT_NEEDED) in the directories of LIST (':'-separated, $ORIGIN
 * the directory ORIGIN) into OUT: 0, or -1 when in none. */
int con_names_find_lib(const char *list, const char *origin, const char *name,
                       char *out, size_t len);

static inline int con_names_ident_start(int ch)
{
    return isalpha(ch) || ch == '_';
}

static inline int con_names_ident(int ch)
{
    return isalnum(ch) || ch == '_';
}

#endif
