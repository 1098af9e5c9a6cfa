/*
 * grow.h - the growing arrays of the recorder, the replay stub and the
 * front end's event index.
 */
#ifndef DRDB_GROW_H
#define DRDB_GROW_H

#include <stdlib.h>

/* Grows the array *PP (of *CAP elements of SIZE) to hold NEED, doubling:
 * 0, or -1 out of memory (the array unchanged). */
static inline int arr_grow(void *pp, size_t *cap, size_t need, size_t size)
{
    void **p = pp;
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * size);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

#endif
