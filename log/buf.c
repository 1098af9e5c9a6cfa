/* Requests whose datatype the program freed (buf.h): the copies a
 * request-to-buffer table keeps, the same on the recorder's and the
 * stub's side. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* A w-shape's own array: PEERS handles, then PEERS flags (1: a copy). */
static uint8_t *own_marks(const struct log_buf *b)
{
    return (uint8_t *)(uintptr_t)(b->types + b->peers);
}

static void keep_in_array(struct log_buf *b, uint32_t type,
                          const struct log_buf_types *ops)
{
    int32_t i, n = b->peers;
    for (i = 0; i < n && b->types[i] != type; i++)
        ;
    if (i == n)
        return;
    if (!(b->flags & LOG_BUF_OWN_TYPES)) {
        uint32_t *own = malloc((size_t)n * 5);
        if (!own)
            return;
        memcpy(own, b->types, (size_t)n * 4);
        memset(own + n, 0, (size_t)n);
        b->types = own;
        b->flags |= LOG_BUF_OWN_TYPES;
    }
    uint32_t *own = (uint32_t *)(uintptr_t)b->types;
    for (; i < n; i++) {
        uint32_t copy;
        if (own[i] == type && !own_marks(b)[i] && ops->copy(type, &copy) == 0) {
            own[i] = copy;
            own_marks(b)[i] = 1;
        }
    }
}

void log_bufs_keep_type(struct util_htab *t, uint32_t type,
                        const struct log_buf_types *ops)
{
    for (size_t i = 0; t->used && i < t->cap; i++) {
        struct log_buf *b = (struct log_buf *)(void *)(t->v + i * t->esize);
        uint32_t copy;
        if ((int)b->req == t->null)
            continue;
        if (b->shape == LOG_BUF_WCOLL)
            keep_in_array(b, type, ops);
        else if (b->type == type && !(b->flags & LOG_BUF_OWN_TYPE) &&
                 ops->copy(type, &copy) == 0) {
            b->type = copy;
            b->flags |= LOG_BUF_OWN_TYPE;
        }
    }
}

void log_bufs_release(struct log_buf *b, const struct log_buf_types *ops)
{
    if (b->flags & LOG_BUF_OWN_TYPE)
        ops->free(b->type);
    if (b->flags & LOG_BUF_OWN_TYPES) {
        for (int32_t i = 0; i < b->peers; i++)
            if (own_marks(b)[i])
                ops->free(b->types[i]);
        free((void *)(uintptr_t)b->types);
    }
    b->flags &= (uint8_t)~(LOG_BUF_OWN_TYPE | LOG_BUF_OWN_TYPES);
}
