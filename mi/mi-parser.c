/*
 * mi-parser.c - one line to one record, and the streaming line splitter.
 *
 *   line   := "(gdb)" [spaces] | [token] ( "^" | "*" | "+" | "=" ) class
 *             results | ( "~" | "@" | "&" ) c-string
 *   token  := [0-9]+ (at most 2^64-1)
 *
 * Lines end in "\n"; GDB on some hosts (and ssh with a pty) sends "\r\n".
 */
#include <stdlib.h>
#include <string.h>

#include "mi-int.h"

static void mi__opts(const struct mi_parser_options *in,
                     struct mi_parser_options *out)
{
    out->max_line = in && in->max_line ? in->max_line : MI_DEFAULT_MAX_LINE;
    out->max_depth = in && in->max_depth ? in->max_depth : MI_DEFAULT_MAX_DEPTH;
}

static int mi__is_prompt(const char *s, size_t len)
{
    size_t i;

    if (len < 5 || memcmp(s, "(gdb)", 5) != 0)
        return 0;
    for (i = 5; i < len; i++)
        if (s[i] != ' ')
            return 0;
    return 1;
}

/* A record whose arena holds a copy of the line. */
static struct mi_record *mi__record_new(const char *line, size_t len,
                                        size_t hint)
{
    struct mi__arena *a = mi__arena_new(hint);
    struct mi_record *rec;
    char *copy;

    if (!a)
        return NULL;
    rec = mi__alloc(a, sizeof *rec);
    copy = rec ? mi__strndup(a, line, len) : NULL;
    if (!copy) {
        mi__arena_free(a);
        return NULL;
    }
    memset(rec, 0, sizeof *rec);
    rec->arena = a;
    rec->line = copy;
    rec->line_len = len;
    return rec;
}

/* An INVALID record for `line`, error `err` at `off`. */
static struct mi_record *mi__record_invalid(const char *line, size_t len,
                                            int err, size_t off,
                                            const char *msg)
{
    struct mi_record *rec = mi__record_new(line, len, len + 256);

    if (!rec)
        return NULL;
    rec->kind = MI_RECORD_INVALID;
    rec->text = rec->line;
    rec->text_len = len;
    rec->error = err;
    rec->error_offset = off;
    rec->error_msg = msg;
    return rec;
}

struct mi_record *mi__record_raw(enum mi_record_kind kind, const char *line,
                                 size_t len)
{
    struct mi_record *rec = mi__record_new(line, len, len + 64);

    if (rec) {
        rec->kind = kind;
        rec->text = rec->line;
        rec->text_len = len;
    }
    return rec;
}

int mi_parse_line(const char *line, size_t len,
                  const struct mi_parser_options *optin, struct mi_record **out)
{
    struct mi_parser_options opt;
    struct mi__ctx c;
    struct mi_record *rec;
    int r = -1;

    *out = NULL;
    mi__opts(optin, &opt);
    while (len > 0 && line[len - 1] == '\r')
        len--;
    if (len > opt.max_line) {
        /* Report it without copying it: bounded memory. */
        *out = mi__record_invalid("", 0, MI_ETOOLONG, opt.max_line,
                                  "line longer than max_line");
        return *out ? MI_ETOOLONG : MI_ENOMEM;
    }
    /* Strings need at most len bytes, nodes ~56 bytes per 3+ input bytes;
       most lines fit in the first block. */
    rec = mi__record_new(line, len, sizeof *rec + len + len / 2 + 512);
    if (!rec)
        return MI_ENOMEM;
    memset(&c, 0, sizeof c);
    c.s = rec->line;
    c.len = len;
    c.a = rec->arena;
    c.max_depth = opt.max_depth;

    if (mi__is_prompt(c.s, len)) {
        rec->kind = MI_RECORD_PROMPT;
        *out = rec;
        return 0;
    }
    if (len > 0 && c.s[0] >= '0' && c.s[0] <= '9') {
        uint64_t tok = 0;
        while (c.pos < len && c.s[c.pos] >= '0' && c.s[c.pos] <= '9') {
            unsigned dgt = (unsigned)(c.s[c.pos] - '0');
            if (tok > (UINT64_MAX - dgt) / 10) {
                mi__fail(&c, MI_ESYNTAX, "token too large");
                goto fail;
            }
            tok = tok * 10 + dgt;
            c.pos++;
        }
        rec->has_token = 1;
        rec->token = tok;
    }
    if (c.pos >= len) {
        mi__fail(&c, MI_ESYNTAX, len ? "expected a record marker after the token"
                                     : "empty line");
        goto fail;
    }
    switch (c.s[c.pos]) {
    case '^':
        r = mi__parse_result_record(&c, rec);
        break;
    case '*':
    case '+':
    case '=':
        r = mi__parse_async_record(&c, rec);
        break;
    case '~':
    case '@':
    case '&':
        if (rec->has_token) {
            mi__fail(&c, MI_ESYNTAX, "a stream record has no token");
            goto fail;
        }
        r = mi__parse_stream_record(&c, rec);
        break;
    default:
        mi__fail(&c, MI_ESYNTAX, "not a gdb/mi record (expected one of ^*+=~@& "
                                 "or '(gdb)')");
        goto fail;
    }
    if (r == 0 && !c.err) {
        *out = rec;
        return 0;
    }
fail:
    mi_record_free(rec);
    if (c.err == MI_ENOMEM)
        return MI_ENOMEM;
    *out = mi__record_invalid(line, len, c.err, c.err_off, c.err_msg);
    return *out ? c.err : MI_ENOMEM;
}

void mi_record_free(struct mi_record *rec)
{
    if (rec)
        mi__arena_free(rec->arena);
}

struct mi_record *mi_record_dup(const struct mi_record *rec)
{
    struct mi_record *d = NULL;

    if (!rec)
        return NULL;
    if (rec->kind == MI_RECORD_STDERR || rec->kind == MI_RECORD_INVALID) {
        d = mi__record_new(rec->line, rec->line_len, rec->line_len + 64);
        if (!d)
            return NULL;
        d->kind = rec->kind;
        d->text = d->line;
        d->text_len = d->line_len;
        d->error = rec->error;
        d->error_offset = rec->error_offset;
        d->error_msg = rec->error_msg; /* static strings */
        return d;
    }
    if (mi_parse_line(rec->line, rec->line_len, NULL, &d) != 0) {
        mi_record_free(d);
        return NULL;
    }
    return d;
}

/* ---------------------------------------------------------------- stream */

void mi_parser_init(struct mi_parser *p, const struct mi_parser_options *opt)
{
    memset(p, 0, sizeof *p);
    mi__opts(opt, &p->opt);
}

void mi_parser_release(struct mi_parser *p)
{
    free(p->buf);
    mi_parser_init(p, &p->opt);
}

/* Make room for n more bytes at the end. */
static int mi__reserve(struct mi_parser *p, size_t n)
{
    size_t used = p->end - p->start, ncap;
    char *nb;

    if (p->cap - p->end >= n)
        return 0;
    if (p->start > 0) {
        memmove(p->buf, p->buf + p->start, used);
        p->scanned -= p->start;
        p->tail -= p->start;
        p->end = used;
        p->start = 0;
        if (p->cap - p->end >= n)
            return 0;
    }
    if (n > SIZE_MAX / 4 - used)
        return MI_ENOMEM;
    ncap = p->cap ? p->cap : 4096;
    while (ncap < used + n)
        ncap *= 2;
    nb = realloc(p->buf, ncap);
    if (!nb)
        return MI_ENOMEM;
    p->buf = nb;
    p->cap = ncap;
    return 0;
}

/*
 * A line that grows past max_line is dropped while it arrives and replaced
 * in the buffer by the marker line "\0" (a GDB line never is a lone NUL
 * byte), so mi_parser_next reports it in order with the lines around it.
 */
static const char mi__marker[2] = {'\0', '\n'};

static int mi__append(struct mi_parser *p, const char *d, size_t n)
{
    if (mi__reserve(p, n) < 0)
        return MI_ENOMEM;
    memcpy(p->buf + p->end, d, n);
    p->end += n;
    return 0;
}

int mi_parser_feed(struct mi_parser *p, const void *data, size_t len)
{
    const char *d = data, *nl, *last;
    size_t tail_len;

    while (len > 0) {
        if (p->discarding) {
            nl = memchr(d, '\n', len);
            if (!nl)
                return 0;
            p->discarding = 0;
            len -= (size_t)(nl + 1 - d);
            d = nl + 1;
            continue;
        }
        last = memrchr(d, '\n', len);
        tail_len = last ? len - (size_t)(last + 1 - d) : (p->end - p->tail) + len;
        if (tail_len <= p->opt.max_line) {
            if (mi__append(p, d, len) < 0)
                return MI_ENOMEM;
            if (last)
                p->tail = p->end - tail_len;
            return 0;
        }
        /* The last line is too long: keep what precedes it. */
        if (last) {
            if (mi__append(p, d, (size_t)(last + 1 - d)) < 0)
                return MI_ENOMEM;
        } else {
            p->end = p->tail;
            if (p->scanned > p->end)
                p->scanned = p->end;
        }
        if (mi__append(p, mi__marker, sizeof mi__marker) < 0)
            return MI_ENOMEM;
        p->tail = p->end;
        p->discarding = 1;
        return 0;
    }
    return 0;
}

static int mi__next(struct mi_parser *p, struct mi_record **out, int at_eof)
{
    const char *nl, *line;
    size_t from, llen;
    int r;

    *out = NULL;
    from = p->scanned > p->start ? p->scanned : p->start;
    nl = p->end > from ? memchr(p->buf + from, '\n', p->end - from) : NULL;
    if (!nl) {
        p->scanned = p->end;
        if (!at_eof || p->end == p->start)
            return 0;
        llen = p->end - p->start; /* a final line without newline */
    } else {
        llen = (size_t)(nl - (p->buf + p->start));
    }
    line = p->buf + p->start;
    if (llen == 1 && line[0] == '\0' && nl) {
        *out = mi__record_invalid("", 0, MI_ETOOLONG, p->opt.max_line,
                                  "line longer than max_line");
        r = *out ? 0 : MI_ENOMEM;
    } else {
        r = mi_parse_line(line, llen, &p->opt, out);
    }
    if (r == MI_ENOMEM)
        return MI_ENOMEM; /* the line stays: the caller may retry */
    p->start += nl ? llen + 1 : llen;
    p->scanned = p->start;
    if (p->start == p->end)
        p->start = p->end = p->scanned = p->tail = 0;
    return 1;
}
int mi_parser_next(struct mi_parser *p, struct mi_record **out)
{
    return mi__next(p, out, 0);
}

int mi_parser_finish(struct mi_parser *p, struct mi_record **out)
{
    return mi__next(p, out, 1);
}
