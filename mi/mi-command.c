/*
 * mi-command.c - building MI command lines with safely quoted arguments.
 *
 * GDB splits an MI command's arguments on blanks; a quoted argument is a C
 * string read by mi_parse_argv()/parse_escape(): \" \\ \n \t \r and octal
 * \NNN are understood, other bytes are taken as they are. A raw newline
 * would end the command and start another one, so it is always escaped.
 */
#include <stdlib.h>
#include <string.h>

#include "mi-int.h"

void mi_cmd_init(struct mi_cmd *c)
{
    c->buf = NULL;
    c->len = c->cap = 0;
    c->err = 0;
}

void mi_cmd_release(struct mi_cmd *c)
{
    free(c->buf);
    mi_cmd_init(c);
}

static void mi__cmd_put(struct mi_cmd *c, const char *s, size_t n)
{
    if (!c->err)
        c->err = mi__buf_append(&c->buf, &c->len, &c->cap, s, n);
}

static int mi__bare_ok(const char *s, size_t n)
{
    size_t i;

    if (n == 0)
        return 0;
    for (i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
            (ch >= '0' && ch <= '9'))
            continue;
        if (!strchr("_./:+*@$<>=!-", ch) || ch == '\0')
            return 0;
    }
    return 1;
}

static void mi__cmd_put_quoted(struct mi_cmd *c, const char *s, size_t n)
{
    size_t i, run = 0;
    char esc[8];

    mi__cmd_put(c, "\"", 1);
    for (i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        const char *e = NULL;
        switch (ch) {
        case '"': e = "\\\""; break;
        case '\\': e = "\\\\"; break;
        case '\n': e = "\\n"; break;
        case '\t': e = "\\t"; break;
        case '\r': e = "\\r"; break;
        default:
            if (ch < 0x20 || ch == 0x7f) {
                /* always three digits: a following digit is not eaten */
                esc[0] = '\\';
                esc[1] = (char)('0' + ((ch >> 6) & 7));
                esc[2] = (char)('0' + ((ch >> 3) & 7));
                esc[3] = (char)('0' + (ch & 7));
                esc[4] = '\0';
                e = esc;
            }
        }
        if (e) {
            mi__cmd_put(c, s + i - run, run);
            run = 0;
            mi__cmd_put(c, e, strlen(e));
        } else {
            run++;
        }
    }
    mi__cmd_put(c, s + n - run, run);
    mi__cmd_put(c, "\"", 1);
}

int mi_cmd_op(struct mi_cmd *c, const char *op)
{
    c->len = 0;
    c->err = 0;
    if (!op || !mi__bare_ok(op, strlen(op))) {
        c->err = MI_EINVAL;
        return c->err;
    }
    mi__cmd_put(c, op, strlen(op));
    return c->err;
}

int mi_cmd_argn(struct mi_cmd *c, const char *arg, size_t len)
{
    if (!arg) {
        if (!c->err)
            c->err = MI_EINVAL;
        return c->err;
    }
    mi__cmd_put(c, " ", 1);
    if (mi__bare_ok(arg, len))
        mi__cmd_put(c, arg, len);
    else
        mi__cmd_put_quoted(c, arg, len);
    return c->err;
}

int mi_cmd_arg(struct mi_cmd *c, const char *arg)
{
    return mi_cmd_argn(c, arg, arg ? strlen(arg) : 0);
}

int mi_cmd_arg_quoted(struct mi_cmd *c, const char *arg)
{
    if (!arg) {
        if (!c->err)
            c->err = MI_EINVAL;
        return c->err;
    }
    mi__cmd_put(c, " ", 1);
    mi__cmd_put_quoted(c, arg, strlen(arg));
    return c->err;
}

int mi_cmd_opt(struct mi_cmd *c, const char *opt, const char *value)
{
    if (!opt || opt[0] != '-' || !mi__bare_ok(opt, strlen(opt))) {
        if (!c->err)
            c->err = MI_EINVAL;
        return c->err;
    }
    mi_cmd_arg(c, opt);
    return mi_cmd_arg(c, value);
}

int mi_cmd_console(struct mi_cmd *c, const char *cli)
{
    mi_cmd_op(c, "-interpreter-exec");
    mi_cmd_arg(c, "console");
    return mi_cmd_arg_quoted(c, cli);
}

const char *mi_cmd_str(const struct mi_cmd *c)
{
    return c->err || !c->buf ? NULL : c->buf;
}

char *mi_quote(const char *s, size_t len)
{
    struct mi_cmd c;

    mi_cmd_init(&c);
    mi__cmd_put_quoted(&c, s, len);
    if (c.err) {
        mi_cmd_release(&c);
        return NULL;
    }
    return c.buf;
}
