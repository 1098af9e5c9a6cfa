/*
 * mi-arena.c - per-record memory: every node and string of one record is
 * carved from a few large blocks, freed at once by mi_record_free(). This
 * keeps parsing at one or two malloc calls per line (allocation itself is
 * mi-int.h's, inline).
 */
#include <stdlib.h>
#include <string.h>

#include "mi-int.h"


struct mi__arena *mi__arena_new(size_t hint)
{
    size_t asz = (sizeof(struct mi__arena) + MI__ALIGN - 1) & ~(size_t)(MI__ALIGN - 1);
    struct mi__chunk *ch;
    struct mi__arena *a;

    if (hint > SIZE_MAX / 2)
        return NULL;
    ch = mi__chunk_new(asz + hint);
    if (!ch)
        return NULL;
    a = (struct mi__arena *)((char *)ch + MI__HDR);
    ch->used = asz;
    a->head = ch;
    a->cur = ch;
    a->grow = hint < 4096 ? 4096 : hint;
    return a;
}

char *mi__strndup(struct mi__arena *a, const char *s, size_t n)
{
    char *d = n == SIZE_MAX ? NULL : mi__alloc(a, n + 1);

    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void mi__arena_free(struct mi__arena *a)
{
    struct mi__chunk *ch, *next;

    if (!a)
        return;
    for (ch = a->head; ch; ch = next) {
        next = ch->next;
        free(ch);
    }
}

int mi__buf_append(char **buf, size_t *len, size_t *cap, const void *data,
                   size_t n)
{
    if (n > SIZE_MAX - *len - 1)
        return MI_ENOMEM;
    if (*len + n + 1 > *cap) {
        size_t ncap = *cap ? *cap : 64;
        char *nb;
        while (ncap < *len + n + 1)
            ncap = ncap > SIZE_MAX / 2 ? *len + n + 1 : ncap * 2;
        nb = realloc(*buf, ncap);
        if (!nb)
            return MI_ENOMEM;
        *buf = nb;
        *cap = ncap;
    }
    if (n)
        memcpy(*buf + *len, data, n);
    *len += n;
    (*buf)[*len] = '\0';
    return 0;
}
