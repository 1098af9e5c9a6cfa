/* The hash table of util.h: open addressing, linear probing. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

static char *slot(const struct util_htab *t, size_t i)
{
    return t->v + i * t->esize;
}

static int key_of(const struct util_htab *t, const char *e)
{
    int k;
    memcpy(&k, e + t->koff, sizeof k);
    return k;
}

static void set_free(const struct util_htab *t, size_t i)
{
    memcpy(slot(t, i) + t->koff, &t->null, sizeof t->null);
}

static size_t next(const struct util_htab *t, size_t i)
{
    return (i + 1) & (t->cap - 1);
}

static size_t home(const struct util_htab *t, int key)
{
    return ((unsigned)key * 2654435761u) & (t->cap - 1);
}

/* Into the first free slot of E's probe chain (the table has room). */
static void place(struct util_htab *t, const char *e)
{
    size_t i = home(t, key_of(t, e));
    while (key_of(t, slot(t, i)) != t->null)
        i = next(t, i);
    memcpy(slot(t, i), e, t->esize);
    t->used++;
}

void *util_htab_find(const struct util_htab *t, int key)
{
    if (!t->cap || key == t->null)
        return NULL;
    for (size_t i = home(t, key);; i = next(t, i)) {
        int k = key_of(t, slot(t, i));
        if (k == key)
            return slot(t, i);
        if (k == t->null)
            return NULL;
    }
}

int util_htab_put(struct util_htab *t, const void *e)
{
    int key = key_of(t, e);
    if (key == t->null)
        return 0;
    char *cur = util_htab_find(t, key);
    if (cur) {
        memcpy(cur, e, t->esize);
        return 0;
    }
    if ((t->used + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        char *v = malloc(cap * t->esize), *old = t->v;
        if (!v)
            return -1;
        size_t old_cap = t->cap;
        t->v = v;
        t->cap = cap;
        t->used = 0;
        for (size_t i = 0; i < cap; i++)
            set_free(t, i);
        for (size_t i = 0; i < old_cap; i++)
            if (key_of(t, old + i * t->esize) != t->null)
                place(t, old + i * t->esize);
        free(old);
    }
    place(t, e);
    return 0;
}

void util_htab_remove(struct util_htab *t, void *e)
{
    /* Backward-shift deletion keeps probe chains intact. */
    size_t i = (size_t)((char *)e - t->v) / t->esize;
    char moved[t->esize];
    set_free(t, i);
    t->used--;
    for (size_t j = next(t, i); key_of(t, slot(t, j)) != t->null;
         j = next(t, j)) {
        memcpy(moved, slot(t, j), t->esize);
        set_free(t, j);
        t->used--;
        place(t, moved);
    }
}

void util_htab_clear(struct util_htab *t)
{
    for (size_t i = 0; i < t->cap; i++)
        set_free(t, i);
    t->used = 0;
}

void util_htab_release(struct util_htab *t)
{
    free(t->v);
    t->v = NULL;
    t->cap = t->used = 0;
}
