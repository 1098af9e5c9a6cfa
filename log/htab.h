/*
 * htab.h - a hash table of fixed-size entries keyed by an int inside each
 * entry (an MPI handle): the recorder's and the replay stub's
 * request-to-buffer tables, the stub's datatype registry. Open addressing
 * with linear probing and backward-shift deletion; grows by doubling, its
 * only allocation.
 */
#ifndef DRDB_HTAB_H
#define DRDB_HTAB_H

#include <stddef.h>

struct htab {
    char *v;
    size_t cap, used;   /* cap: 0 or a power of two */
    size_t esize, koff; /* entry size, offset of the int key in it */
    int null;           /* the key of a free slot */
};

#define HTAB_INIT(type, member, nullkey)                                   \
    { NULL, 0, 0, sizeof(type), offsetof(type, member), (nullkey) }

/* The entry with KEY, or NULL. */
void *htab_find(const struct htab *t, int key);
/* Copies entry E in (over the entry with its key, if any): 0, or -1 out of
 * memory (the table unchanged). */
int htab_put(struct htab *t, const void *e);
/* Removes entry E (a pointer htab_find returned). */
void htab_remove(struct htab *t, void *e);

#endif
