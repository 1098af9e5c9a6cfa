/*
 * mi-int.h - internals shared by the mi/ sources (not installed, not API).
 */
#ifndef DRDB_MI_INT_H
#define DRDB_MI_INT_H

#include <stdint.h>
#include <stdlib.h>

#include "mi.h"

/* A record's memory: a chain of chunks freed together. */
struct mi__chunk {
    struct mi__chunk *next;
    size_t cap, used;
    /* data follows, 16-byte aligned */
};

struct mi__arena {
    struct mi__chunk *head; /* the chunk holding this struct; chain from it */
    struct mi__chunk *cur;
    size_t grow;
};

/* A new arena whose first chunk holds `hint` free bytes; NULL if no memory. */
struct mi__arena *mi__arena_new(size_t hint);
#define MI__ALIGN 16
#define MI__HDR ((sizeof(struct mi__chunk) + MI__ALIGN - 1) & ~(size_t)(MI__ALIGN - 1))

/* Allocation is inline (one per node and string of a record): the fast
 * path in the caller, the chunk refill out of line. */
static inline struct mi__chunk *mi__chunk_new(size_t cap)
{
    struct mi__chunk *ch;

    if (cap > SIZE_MAX - MI__HDR)
        return NULL;
    ch = malloc(MI__HDR + cap);
    if (!ch)
        return NULL;
    ch->next = NULL;
    ch->cap = cap;
    ch->used = 0;
    return ch;
}

/* A new chunk for n bytes, after the current one; NULL when out of
 * memory. */
static __attribute__((noinline, unused)) void *
mi__alloc_slow(struct mi__arena *a, size_t n)
{
    struct mi__chunk *ch = a->cur;
    size_t need = (n + MI__ALIGN - 1) & ~(size_t)(MI__ALIGN - 1);
    void *p;

    if (need < n)
        return NULL;
    if (ch->cap - ch->used < need) {
        size_t cap = a->grow;
        if (cap < need)
            cap = need;
        ch = mi__chunk_new(cap);
        if (!ch)
            return NULL;
        /* Keep the chain in order: after the current chunk. */
        ch->next = a->cur->next;
        a->cur->next = ch;
        a->cur = ch;
        if (a->grow < ((size_t)1 << 30))
            a->grow *= 2;
    }
    p = (char *)ch + MI__HDR + ch->used;
    ch->used += need;
    return p;
}

/* n bytes, 16-aligned, from the arena; NULL when out of memory. */
static inline void *mi__alloc(struct mi__arena *a, size_t n)
{
    struct mi__chunk *ch = a->cur;
    size_t need = (n + MI__ALIGN - 1) & ~(size_t)(MI__ALIGN - 1);
    void *p;

    if (need < n || ch->cap - ch->used < need)
        return mi__alloc_slow(a, n);
    p = (char *)ch + MI__HDR + ch->used;
    ch->used += need;
    return p;
}
void mi__arena_free(struct mi__arena *a);
char *mi__strndup(struct mi__arena *a, const char *s, size_t n);

/* The state of parsing one line. */
struct mi__ctx {
    const char *s;       /* the line */
    size_t len;
    size_t pos;
    struct mi__arena *a;
    unsigned depth, max_depth;
    int err;             /* 0 or MI_E* */
    size_t err_off;
    const char *err_msg;
};

/* Record a syntax error at ctx->pos (first error wins); returns NULL/-1. */
void mi__fail(struct mi__ctx *c, int err, const char *msg);

/* "c-string" at pos (pos on the quote): unescaped, NUL-terminated. */
int mi__parse_cstring(struct mi__ctx *c, const char **str, size_t *len);
/* One value ("..", {..} or [..]) at pos; NULL on error. */
struct mi_value *mi__parse_value(struct mi__ctx *c);
/* `( "," [ name "=" ] value )*` up to the end of the line, into tuple `t`. */
int mi__parse_results(struct mi__ctx *c, struct mi_value *t);
struct mi_value *mi__new_value(struct mi__ctx *c, enum mi_value_kind kind);

/* One file per record kind: each parses the line from ctx->pos, which is on
   the record's marker character. */
int mi__parse_result_record(struct mi__ctx *c, struct mi_record *rec);
int mi__parse_async_record(struct mi__ctx *c, struct mi_record *rec);
int mi__parse_stream_record(struct mi__ctx *c, struct mi_record *rec);

/* Append the unescaped text of a stream record to a growing buffer. */
int mi__buf_append(char **buf, size_t *len, size_t *cap, const void *data,
                   size_t n);


/* A record of `kind` whose text and line are a copy of `line` (used for
   STDERR lines and INVALID records); NULL when out of memory. */
struct mi_record *mi__record_raw(enum mi_record_kind kind, const char *line,
                                 size_t len);

#endif
