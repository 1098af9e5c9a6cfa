/*
 * mi-parse-value.c - the value grammar shared by all record kinds:
 *
 *   value   := c-string | tuple | list
 *   tuple   := "{}" | "{" element ( "," element )* "}"
 *   list    := "[]" | "[" element ( "," element )* "]"
 *   element := [ variable "=" ] value
 *
 * GDB's documented grammar says lists hold either values or results and
 * tuples only results; we accept any mix (element with or without a name)
 * because GDB itself breaks the rule: in MI2, -break-list and
 * =breakpoint-modified print a multi-location breakpoint as
 * `bkpt={number="1",..},{number="1.1",..},{number="1.2",..}`.
 */
#include <string.h>

#include "mi-int.h"

void mi__fail(struct mi__ctx *c, int err, const char *msg)
{
    if (c->err)
        return;
    c->err = err;
    c->err_off = c->pos;
    c->err_msg = msg;
}

struct mi_value *mi__new_value(struct mi__ctx *c, enum mi_value_kind kind)
{
    struct mi_value *v = mi__alloc(c->a, sizeof *v);

    if (!v) {
        mi__fail(c, MI_ENOMEM, "out of memory");
        return NULL;
    }
    v->kind = kind;
    v->name = NULL;
    v->next = NULL;
    v->str = NULL;
    v->len = 0;
    v->first = NULL;
    v->count = 0;
    return v;
}

static int mi__isoct(char ch)
{
    return ch >= '0' && ch <= '7';
}

static int mi__hexval(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/*
 * GDB writes strings with printchar()/fputstr: \" \\ \n \t \r \b \f \a \e
 * \v and \NNN (octal) for other bytes, e.g. UTF-8 "é" as \303\251 when the
 * host charset is not UTF-8. We also take \xHH and keep any other escaped
 * character as itself, so an escape we do not know never fails a line.
 */
int mi__parse_cstring(struct mi__ctx *c, const char **str, size_t *len)
{
    const char *s = c->s, *p, *e = c->s + c->len;
    char *d, *out;
    size_t start;

    if (c->pos >= c->len || s[c->pos] != '"') {
        mi__fail(c, MI_ESYNTAX, "expected '\"'");
        return -1;
    }
    start = ++c->pos;
    p = s + start;
    /* Fast path: no escape before the closing quote (memchr is vectorized;
       most strings GDB sends have no escape at all). */
    {
        const char *q = memchr(p, '"', (size_t)(e - p));
        if (q && !memchr(p, '\\', (size_t)(q - p))) {
            out = mi__strndup(c->a, p, (size_t)(q - p));
            if (!out) {
                mi__fail(c, MI_ENOMEM, "out of memory");
                return -1;
            }
            *str = out;
            *len = (size_t)(q - p);
            c->pos = (size_t)(q - s) + 1;
            return 0;
        }
    }
    /* Find the end first: the decoded string is never longer. */
    while (p < e && *p != '"') {
        if (*p == '\\') {
            if (p + 1 >= e)
                break;
            p += 2;
        } else {
            p++;
        }
    }
    if (p >= e || *p != '"') {
        c->pos = c->len;
        mi__fail(c, MI_ESYNTAX, "unterminated c-string");
        return -1;
    }
    out = mi__alloc(c->a, (size_t)(p - (s + start)) + 1);
    if (!out) {
        mi__fail(c, MI_ENOMEM, "out of memory");
        return -1;
    }
    e = p; /* the closing quote */
    d = out;
    for (p = s + start; p < e;) {
        const char *q = p;
        while (q < e && *q != '\\')
            q++;
        memcpy(d, p, (size_t)(q - p));
        d += q - p;
        if (q >= e)
            break;
        q++; /* backslash; an escaped char always follows (checked above) */
        switch (*q) {
        case 'n': *d++ = '\n'; q++; break;
        case 't': *d++ = '\t'; q++; break;
        case 'r': *d++ = '\r'; q++; break;
        case 'b': *d++ = '\b'; q++; break;
        case 'f': *d++ = '\f'; q++; break;
        case 'a': *d++ = '\a'; q++; break;
        case 'v': *d++ = '\v'; q++; break;
        case 'e': *d++ = '\033'; q++; break;
        case 'x': {
            int h1 = q + 1 < e ? mi__hexval(q[1]) : -1, h2;
            if (h1 < 0) {
                *d++ = 'x';
                q++;
                break;
            }
            h2 = q + 2 < e ? mi__hexval(q[2]) : -1;
            if (h2 < 0) {
                *d++ = (char)h1;
                q += 2;
            } else {
                *d++ = (char)(h1 * 16 + h2);
                q += 3;
            }
            break;
        }
        default:
            if (mi__isoct(*q)) {
                unsigned v = 0;
                int k;
                for (k = 0; k < 3 && q < e && mi__isoct(*q); k++, q++)
                    v = v * 8 + (unsigned)(*q - '0');
                *d++ = (char)(v & 0xff);
            } else {
                *d++ = *q++; /* \" \\ \' \? and anything unknown */
            }
        }
        p = q;
    }
    *d = '\0';
    *str = out;
    *len = (size_t)(d - out);
    c->pos = (size_t)(e - s) + 1;
    return 0;
}

/* Keys GDB uses: letters, digits, '-' and '_' ("thread-id", "bkpt"). We also
   take '.' and '/', seen in some target-specific field names. */
#define MI__V(ch) [ch] = 1
static const unsigned char mi__var_table[256] = {
    MI__V('-'), MI__V('_'), MI__V('.'), MI__V('/'),
    MI__V('0'), MI__V('1'), MI__V('2'), MI__V('3'), MI__V('4'), MI__V('5'),
    MI__V('6'), MI__V('7'), MI__V('8'), MI__V('9'),
    MI__V('a'), MI__V('b'), MI__V('c'), MI__V('d'), MI__V('e'), MI__V('f'),
    MI__V('g'), MI__V('h'), MI__V('i'), MI__V('j'), MI__V('k'), MI__V('l'),
    MI__V('m'), MI__V('n'), MI__V('o'), MI__V('p'), MI__V('q'), MI__V('r'),
    MI__V('s'), MI__V('t'), MI__V('u'), MI__V('v'), MI__V('w'), MI__V('x'),
    MI__V('y'), MI__V('z'),
    MI__V('A'), MI__V('B'), MI__V('C'), MI__V('D'), MI__V('E'), MI__V('F'),
    MI__V('G'), MI__V('H'), MI__V('I'), MI__V('J'), MI__V('K'), MI__V('L'),
    MI__V('M'), MI__V('N'), MI__V('O'), MI__V('P'), MI__V('Q'), MI__V('R'),
    MI__V('S'), MI__V('T'), MI__V('U'), MI__V('V'), MI__V('W'), MI__V('X'),
    MI__V('Y'), MI__V('Z'),
};
#undef MI__V

static inline int mi__isvar(unsigned char ch)
{
    return mi__var_table[ch];
}

/* element := [ variable "=" ] value */
static struct mi_value *mi__parse_element(struct mi__ctx *c)
{
    const char *name = NULL;
    struct mi_value *v;

    if (c->pos < c->len && mi__isvar((unsigned char)c->s[c->pos])) {
        size_t st = c->pos;
        while (c->pos < c->len && mi__isvar((unsigned char)c->s[c->pos]))
            c->pos++;
        if (c->pos >= c->len || c->s[c->pos] != '=') {
            mi__fail(c, MI_ESYNTAX, "expected '=' after the variable name");
            return NULL;
        }
        name = mi__strndup(c->a, c->s + st, c->pos - st);
        if (!name) {
            mi__fail(c, MI_ENOMEM, "out of memory");
            return NULL;
        }
        c->pos++;
    }
    v = mi__parse_value(c);
    if (v)
        v->name = name;
    return v;
}

static struct mi_value *mi__parse_container(struct mi__ctx *c,
                                            enum mi_value_kind kind,
                                            char close)
{
    struct mi_value *v, **tail, *el;

    if (++c->depth > c->max_depth) {
        mi__fail(c, MI_ETOODEEP, "value nested too deeply");
        return NULL;
    }
    v = mi__new_value(c, kind);
    if (!v)
        return NULL;
    c->pos++; /* '{' or '[' */
    tail = &v->first;
    if (c->pos < c->len && c->s[c->pos] == close) {
        c->pos++;
        c->depth--;
        return v;
    }
    for (;;) {
        el = mi__parse_element(c);
        if (!el)
            return NULL;
        *tail = el;
        tail = &el->next;
        v->count++;
        if (c->pos >= c->len) {
            mi__fail(c, MI_ESYNTAX, close == '}' ? "expected ',' or '}'"
                                                 : "expected ',' or ']'");
            return NULL;
        }
        if (c->s[c->pos] == close) {
            c->pos++;
            break;
        }
        if (c->s[c->pos] != ',') {
            mi__fail(c, MI_ESYNTAX, close == '}' ? "expected ',' or '}'"
                                                 : "expected ',' or ']'");
            return NULL;
        }
        c->pos++;
    }
    c->depth--;
    return v;
}

struct mi_value *mi__parse_value(struct mi__ctx *c)
{
    struct mi_value *v;

    if (c->pos >= c->len) {
        mi__fail(c, MI_ESYNTAX, "expected a value");
        return NULL;
    }
    switch (c->s[c->pos]) {
    case '"':
        v = mi__new_value(c, MI_VALUE_STRING);
        if (!v || mi__parse_cstring(c, &v->str, &v->len) < 0)
            return NULL;
        return v;
    case '{':
        return mi__parse_container(c, MI_VALUE_TUPLE, '}');
    case '[':
        return mi__parse_container(c, MI_VALUE_LIST, ']');
    default:
        mi__fail(c, MI_ESYNTAX, "expected a value ('\"', '{' or '[')");
        return NULL;
    }
}

int mi__parse_results(struct mi__ctx *c, struct mi_value *t)
{
    struct mi_value **tail = &t->first, *el;

    while (c->pos < c->len) {
        if (c->s[c->pos] != ',') {
            mi__fail(c, MI_ESYNTAX, "expected ',' or end of line");
            return -1;
        }
        c->pos++;
        el = mi__parse_element(c);
        if (!el)
            return -1;
        *tail = el;
        tail = &el->next;
        t->count++;
    }
    return 0;
}
