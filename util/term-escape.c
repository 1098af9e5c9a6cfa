/*
 * Text from a run made safe for a terminal, and for JSON (term-escape.h).
 */
#include <stdlib.h>
#include <string.h>

#include "term-escape.h"

#define ESC 0x1b

static const char hex[] = "0123456789abcdef";

/* The length of the UTF-8 character lead byte B starts: 1 (ASCII), 2 to
 * 4, or 0 for a byte that starts none (a continuation, C0, C1, F5-FF). */
static size_t u8_len(unsigned char b)
{
    return b < 0x80 ? 1 : b < 0xc2 ? 0 : b < 0xe0 ? 2 : b < 0xf0 ? 3
         : b < 0xf5 ? 4 : 0;
}

/* Whether C may be the K-th byte (1: the first after it) of the character
 * LEAD starts: no overlong form, no surrogate, nothing past U+10FFFF
 * (RFC 3629's table). */
static int u8_cont(unsigned char lead, size_t k, unsigned char c)
{
    if (c < 0x80 || c > 0xbf)
        return 0;
    if (k != 1)
        return 1;
    switch (lead) {
    case 0xe0: return c >= 0xa0;
    case 0xed: return c <= 0x9f;
    case 0xf0: return c >= 0x90;
    case 0xf4: return c <= 0x8f;
    default: return 1;
    }
}

static size_t put_hex(char *out, char kind, unsigned v, int digits)
{
    size_t o = 0;
    out[o++] = '\\';
    out[o++] = kind;
    for (int d = digits - 1; d >= 0; d--)
        out[o++] = hex[(v >> (4 * d)) & 0xf];
    return o;
}

/* A byte shown as text: itself when printable ASCII, else its escape
 * (under TERM_ESCAPE_FIELD, a backslash, tab and newline escaped too). */
static size_t show_byte(unsigned char b, unsigned flags, char *out)
{
    const char *named = flags & TERM_ESCAPE_FIELD ? "\033e\rr\tt\nn\\\\"
                                                  : "\033e\rr";
    const char *nm = b ? strchr(named, b) : NULL;
    if (nm && (nm - named) % 2 == 0) {
        out[0] = '\\';
        out[1] = nm[1];
        return 2;
    }
    if ((b >= 0x20 && b < 0x7f) || b == '\t' || b == '\n') {
        out[0] = (char)b;
        return 1;
    }
    return put_hex(out, 'x', b, 2);
}

/* What T holds, shown as text (a sequence or character that did not
 * finish as one that passes). */
static size_t show_held(struct term_escape *t, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < t->nheld; i++)
        o += show_byte(t->held[i], t->flags, out + o);
    t->nheld = 0;
    return o;
}

/* A whole UTF-8 character: itself, unless a terminal may obey it. */
static size_t put_char(const unsigned char *c, size_t n, char *out)
{
    unsigned cp = n == 2 ? (c[0] & 0x1fu) << 6 | (c[1] & 0x3fu)
                : n == 3 ? (c[0] & 0x0fu) << 12 | (c[1] & 0x3fu) << 6 |
                               (c[2] & 0x3fu)
                         : 0x10000; /* four bytes: none of those below */
    if (cp <= 0x9f || (cp >= 0x202a && cp <= 0x202e) ||
        (cp >= 0x2066 && cp <= 0x2069))
        return put_hex(out, 'u', cp, 4);
    memcpy(out, c, n);
    return n;
}

void term_escape_init(struct term_escape *t, unsigned flags)
{
    memset(t, 0, sizeof *t);
    t->flags = flags;
}

/* Whether B continues the colour sequence T holds ("ESC", "ESC [1;3"). */
static int sgr_goes_on(const struct term_escape *t, unsigned char b)
{
    if (t->nheld >= TERM_ESCAPE_HELD)
        return 0;
    if (t->nheld == 1)
        return b == '[';
    return (b >= '0' && b <= '9') || b == ';' || b == ':';
}

size_t term_escape_feed(struct term_escape *t, const void *in, size_t len,
                        char *out)
{
    const unsigned char *p = in;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char b = p[i];
        if (t->nheld && t->held[0] == ESC) {
            if (sgr_goes_on(t, b)) {
                t->held[t->nheld++] = b;
                continue;
            }
            if (b == 'm' && t->nheld >= 2) {
                memcpy(out + o, t->held, t->nheld);
                o += t->nheld;
                out[o++] = 'm';
                t->nheld = 0;
                t->coloured = 1;
                continue;
            }
            o += show_held(t, out + o); /* no colour: b on its own below */
        } else if (t->nheld) {
            size_t want = u8_len(t->held[0]);
            if (u8_cont(t->held[0], t->nheld, b)) {
                t->held[t->nheld++] = b;
                if (t->nheld == want) {
                    o += put_char(t->held, want, out + o);
                    t->nheld = 0;
                }
                continue;
            }
            o += show_held(t, out + o); /* each byte invalid alone */
        }
        if ((b == ESC && (t->flags & TERM_ESCAPE_SGR)) || u8_len(b) > 1)
            t->held[t->nheld++] = b;
        else
            o += show_byte(b, t->flags, out + o);
    }
    return o;
}

size_t term_escape_end(struct term_escape *t, char *out)
{
    size_t o = show_held(t, out);
    if (t->coloured) {
        memcpy(out + o, "\033[0m", 4);
        o += 4;
        t->coloured = 0;
    }
    return o;
}

char *term_escape_mem(const void *s, size_t len, unsigned flags)
{
    struct term_escape t;
    char *out = malloc(TERM_ESCAPE_MAX(len) + 1);
    if (!out)
        return NULL;
    term_escape_init(&t, flags);
    size_t o = term_escape_feed(&t, s, len, out);
    o += term_escape_end(&t, out + o);
    out[o] = '\0';
    return out;
}

char *term_escape(const char *s, unsigned flags)
{
    return term_escape_mem(s, strlen(s), flags);
}

size_t term_json(const void *s, size_t len, char *out, int *invalid)
{
    const unsigned char *p = s;
    size_t o = 0;
    out[o++] = '"';
    for (size_t i = 0; i < len;) {
        unsigned char b = p[i];
        size_t n = u8_len(b), k = 1;
        while (n > 1 && k < n && i + k < len && u8_cont(b, k, p[i + k]))
            k++;
        if (n > 1 && k == n) { /* a whole character */
            memcpy(out + o, p + i, n);
            o += n;
            i += n;
            continue;
        }
        i++;
        const char *e = b == '"' ? "\\\"" : b == '\\' ? "\\\\"
                      : b == '\n' ? "\\n" : b == '\t' ? "\\t"
                      : b == '\r' ? "\\r" : NULL;
        if (e) {
            out[o++] = e[0];
            out[o++] = e[1];
        } else if (b >= 0x20 && b < 0x80) {
            out[o++] = (char)b;
        } else {
            if (b >= 0x80 && invalid)
                *invalid = 1;
            o += put_hex(out + o, 'u', b, 4);
        }
    }
    out[o++] = '"';
    return o;
}
