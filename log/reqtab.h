/*
 * reqtab.h - a hash table of fixed-size entries keyed by an int inside
 * each entry (an MPI request handle): the recorder's and the replay stub's
 * request-to-buffer tables. Open addressing with linear probing and
 * backward-shift deletion; grows by doubling, its only allocation.
 */
#ifndef DRDB_REQTAB_H
#define DRDB_REQTAB_H

#include <stddef.h>

struct reqtab {
    char *v;
    size_t cap, used;   /* cap: 0 or a power of two */
    size_t esize, koff; /* entry size, offset of the int key in it */
    int null;           /* the key of a free slot */
};

#define REQTAB_INIT(type, member, nullkey)                                   \
    { NULL, 0, 0, sizeof(type), offsetof(type, member), (nullkey) }

/* The entry with KEY, or NULL. */
void *reqtab_find(const struct reqtab *t, int key);
/* Copies entry E in (over the entry with its key, if any): 0, or -1 out of
 * memory (the table unchanged). */
int reqtab_put(struct reqtab *t, const void *e);
/* Removes entry E (a pointer reqtab_find returned). */
void reqtab_remove(struct reqtab *t, void *e);

#endif
