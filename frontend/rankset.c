/* Rank sets: the bitmap, printing ("0-3,8") and the one grammar. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rankset.h"

int rs_init(struct rankset *s, int n)
{
    s->n = n;
    s->bits = calloc((size_t)(n + 63) / 64 + 1, sizeof *s->bits);
    return s->bits ? 0 : -1;
}

void rs_release(struct rankset *s)
{
    free(s->bits);
    s->bits = NULL;
}

void rs_clear(struct rankset *s)
{
    memset(s->bits, 0, ((size_t)(s->n + 63) / 64 + 1) * sizeof *s->bits);
}

void rs_copy(struct rankset *dst, const struct rankset *src)
{
    memcpy(dst->bits, src->bits,
           ((size_t)(src->n + 63) / 64 + 1) * sizeof *src->bits);
}

int rs_count(const struct rankset *s)
{
    int c = 0;
    for (int i = 0; i < s->n; i++)
        c += rs_has(s, i);
    return c;
}

int rs_first(const struct rankset *s)
{
    for (int i = 0; i < s->n; i++)
        if (rs_has(s, i))
            return i;
    return -1;
}

/* "0-3,8" (compressed ranges), "none" for the empty set. */
char *rs_format(const struct rankset *s, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->n && used < len; i++) {
        if (!rs_has(s, i))
            continue;
        int j = i;
        while (j + 1 < s->n && rs_has(s, j + 1))
            j++;
        used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "",
                                 i);
        if (j > i && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%d",
                                     j == i + 1 ? "," : "-", j);
        i = j;
    }
    if (!buf[0])
        snprintf(buf, len, "none");
    return buf;
}

/*
 * Grammar (no spaces inside a set):
 *   set  := term ( op term )*        evaluated left to right
 *   op   := ','  union   |  '&'  intersection  |  '!'  difference
 *   term := N | N-M | NAME | '(' set ')'
 * NAME: whatever the caller's resolver knows (the console: all, stopped,
 * running, exited, diverged, lost, or a defset name).
 */
struct parser {
    rs_names_fn *names;
    void *ud;
    const char *s, *p;
    const char **err;
};

static int parse_set(struct parser *ps, struct rankset *out);

static int parse_term(struct parser *ps, struct rankset *out)
{
    const char *p = ps->p;
    rs_clear(out);
    if (*p == '(') {
        ps->p++;
        if (parse_set(ps, out) < 0)
            return -1;
        if (*ps->p != ')') {
            *ps->err = "expected ')'";
            return -1;
        }
        ps->p++;
        return 0;
    }
    if (isdigit((unsigned char)*p)) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (a >= out->n) {
            *ps->err = "no such rank in this run";
            return -1;
        }
        if (*end == '-') {
            const char *q = end + 1;
            if (!isdigit((unsigned char)*q)) {
                ps->p = q;
                *ps->err = "expected the last rank of a range";
                return -1;
            }
            b = strtol(q, &end, 10);
            if (b < a || b >= out->n) {
                ps->p = q;
                *ps->err = b < a ? "a range must not go backwards"
                                 : "no such rank in this run";
                return -1;
            }
        }
        for (long r = a; r <= b; r++)
            rs_add(out, (int)r);
        ps->p = end;
        return 0;
    }
    if (isalpha((unsigned char)*p) || *p == '_') {
        const char *q = p;
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        char name[64];
        size_t len = (size_t)(q - p);
        if (len >= sizeof name) {
            *ps->err = "set name too long";
            return -1;
        }
        memcpy(name, p, len);
        name[len] = '\0';
        if (!ps->names || ps->names(ps->ud, name, out) < 0) {
            *ps->err = "unknown set name (see 'info sets')";
            return -1;
        }
        ps->p = q;
        return 0;
    }
    *ps->err = *p ? "expected a rank, a range or a set name"
                  : "expected a rank set";
    return -1;
}

static int parse_set(struct parser *ps, struct rankset *out)
{
    struct rankset t;
    if (parse_term(ps, out) < 0)
        return -1;
    if (rs_init(&t, out->n) < 0)
        return -1;
    while (*ps->p == ',' || *ps->p == '&' || *ps->p == '!') {
        char op = *ps->p++;
        if (parse_term(ps, &t) < 0) {
            rs_release(&t);
            return -1;
        }
        for (int i = 0; i < out->n; i++) {
            int a = rs_has(out, i), b = rs_has(&t, i);
            int v = op == ',' ? a || b : op == '&' ? a && b : a && !b;
            if (v)
                rs_add(out, i);
            else
                rs_del(out, i);
        }
    }
    rs_release(&t);
    return 0;
}

int rs_parse(const char *text, size_t len, struct rankset *out,
             rs_names_fn *names, void *ud, int *err_at, const char **err)
{
    char *s = strndup(text, len);
    if (!s) {
        *err = "out of memory";
        *err_at = 0;
        return -1;
    }
    const char *why = NULL;
    struct parser ps = {names, ud, s, s, &why};
    int rc = parse_set(&ps, out);
    if (rc == 0 && *ps.p) {
        why = "unexpected character (operators: ',' union, '&' intersection, "
              "'!' difference)";
        rc = -1;
    }
    *err_at = (int)(ps.p - s);
    *err = why;
    free(s);
    return rc;
}

void rs_report(const char *text, size_t len, int at, const char *why)
{
    fprintf(stderr, "drdb: bad rank set: %.*s\n", (int)len, text);
    fprintf(stderr, "drdb:               %*s^ %s\n", at, "", why);
}
