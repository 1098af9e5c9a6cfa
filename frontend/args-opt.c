/*
 * Option tables (args.h): the one parser of the subcommands' command lines
 * and the renderer of their options' help.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "fe.h"

/* fe_opts_each over TABLE, whose offsets are from BASE. */
static int each_at(const struct fe_opt *table, size_t base,
                   int (*fn)(const struct fe_opt *o, size_t off, void *ud),
                   void *ud)
{
    for (const struct fe_opt *o = table; o && o->kind != FE_OPT_END; o++) {
        int rc = o->kind == FE_OPT_GROUP
                     ? each_at(o->group, base + o->off, fn, ud)
                     : fn(o, base + o->off, ud);
        if (rc)
            return rc;
    }
    return 0;
}

int fe_opts_each(const struct fe_opt *table,
                 int (*fn)(const struct fe_opt *o, size_t off, void *ud),
                 void *ud)
{
    return each_at(table, 0, fn, ud);
}

/* ---- parsing ---------------------------------------------------------- */

struct find {
    const char *word; /* the long name typed (up to '=' or its end) */
    size_t len;
    int short_name;
    const struct fe_opt *exact, *prefix;
    size_t exact_off, prefix_off;
    int nprefix;
    char others[256]; /* the names a prefix could mean */
};

static int find_one(const struct fe_opt *o, size_t off, void *ud)
{
    struct find *f = ud;
    if (f->short_name) {
        if (o->short_name == f->short_name) {
            f->exact = o;
            f->exact_off = off;
            return 1;
        }
        return 0;
    }
    if (strncmp(o->name, f->word, f->len) != 0)
        return 0;
    if (!o->name[f->len]) {
        f->exact = o;
        f->exact_off = off;
        return 1;
    }
    /* Two entries of one target (an alias) are one meaning. */
    if (!f->prefix || f->prefix->off != o->off || f->prefix_off != off) {
        size_t used = strlen(f->others);
        snprintf(f->others + used, sizeof f->others - used, "%s--%s",
                 f->nprefix ? ", " : "", o->name);
        f->nprefix++;
    }
    if (!f->prefix) {
        f->prefix = o;
        f->prefix_off = off;
    }
    return 0;
}

static int value_error(const struct fe_opt *o, const char *name,
                       const char *arg)
{
    fe_error("%s: --%s takes %s, not '%s'", name, o->name,
             o->what ? o->what : o->kind == FE_OPT_INT ||
                                 o->kind == FE_OPT_U64 ? "a number"
                                                       : "a value",
             arg);
    return -1;
}

int fe_opt_apply(const struct fe_opt *o, const char *name, void *dst,
                 const char *arg)
{
    char *p = (char *)dst;
    switch (o->kind) {
    case FE_OPT_FLAG:
        *(int *)p = 1;
        return 0;
    case FE_OPT_STR:
        *(const char **)p = arg;
        return 0;
    case FE_OPT_INT: {
        long long max = o->max ? o->max : INT64_MAX;
        return fe_parse_int(arg, o->min, max, (long long *)p) < 0
                   ? value_error(o, name, arg) : 0;
    }
    case FE_OPT_U64: {
        uint64_t v;
        if (fe_parse_u64(arg, &v) < 0 || v < (uint64_t)o->min)
            return value_error(o, name, arg);
        *(uint64_t *)p = v;
        return 0;
    }
    case FE_OPT_WORDS:
        ((struct fe_words *)p)->given = 1;
        return 0;
    case FE_OPT_CALL:
        return o->fn(p, o, arg) < 0 ? -1 : 0;
    case FE_OPT_END:
    case FE_OPT_GROUP:
        break;
    }
    return -1;
}

/* Whether option O takes a value. */
static int takes_value(const struct fe_opt *o)
{
    return o->kind == FE_OPT_STR || o->kind == FE_OPT_INT ||
           o->kind == FE_OPT_U64 || (o->kind == FE_OPT_CALL && o->arg);
}

/* The long option ARGV[*I] ("--name" or "--name=value"): 0, or -1 after
 * an error message about its value, -2 about the option itself. */
static int long_opt(const struct fe_opt *table, const char *name, int argc,
                    char **argv, int *i, char *dst)
{
    const char *w = argv[*i] + 2, *eq = strchr(w, '=');
    struct find f = {.word = w, .len = eq ? (size_t)(eq - w) : strlen(w)};
    fe_opts_each(table, find_one, &f);
    const struct fe_opt *o = f.exact ? f.exact : f.prefix;
    size_t off = f.exact ? f.exact_off : f.prefix_off;
    if (!o) {
        fe_error("%s: unknown option '--%.*s'", name, (int)f.len, w);
        return -2;
    }
    if (!f.exact && f.nprefix > 1) {
        fe_error("%s: option '--%.*s' is ambiguous: %s", name, (int)f.len,
                 w, f.others);
        return -2;
    }
    const char *arg = eq ? eq + 1 : NULL;
    if (!takes_value(o) && arg) {
        fe_error("%s: option '--%s' takes no value", name, o->name);
        return -2;
    }
    if (takes_value(o) && !arg && !(o->flags & FE_OPT_OPTIONAL)) {
        if (*i + 1 >= argc) {
            fe_error("%s: option '--%s' needs a value (%s)", name, o->name,
                     o->arg);
            return -2;
        }
        arg = argv[++*i];
    }
    if (fe_opt_apply(o, name, dst + off, arg) < 0)
        return -1;
    if (o->kind == FE_OPT_WORDS) {
        struct fe_words *ws = (struct fe_words *)(dst + off);
        ws->v = argv + *i + 1;
        ws->n = 0;
        while (*i + 1 < argc && argv[*i + 1][0] != '-') {
            ++*i;
            ws->n++;
        }
    }
    return 0;
}

/* The short options of ARGV[*I] ("-q", "-qr 0", "-r0"): as long_opt. */
static int short_opts(const struct fe_opt *table, const char *name,
                      int argc, char **argv, int *i, char *dst)
{
    for (const char *c = argv[*i] + 1; *c; c++) {
        struct find f = {.short_name = (unsigned char)*c};
        fe_opts_each(table, find_one, &f);
        const struct fe_opt *o = f.exact;
        if (!o) {
            fe_error("%s: unknown option '-%c'", name, *c);
            return -2;
        }
        const char *arg = NULL;
        if (takes_value(o)) {
            if (c[1]) {
                arg = c + 1;
            } else if (*i + 1 < argc) {
                arg = argv[++*i];
            } else {
                fe_error("%s: option '-%c' needs a value (%s)", name, *c,
                         o->arg);
                return -2;
            }
        }
        if (fe_opt_apply(o, name, dst + f.exact_off, arg) < 0)
            return -1;
        if (arg)
            break;
    }
    return 0;
}

int fe_opts_parse(const struct fe_opt *table, const char *name, int argc,
                  char **argv, void *dst, int npos, struct fe_pos *pos)
{
    memset(pos, 0, sizeof *pos);
    pos->v = pos->fixed;
    if (npos == FE_POS_ALL) {
        if (!(pos->v = calloc((size_t)argc + 1, sizeof *pos->v)))
            return fe_error("out of memory"), -1;
        npos = argc;
    } else if (npos > FE_POS_MAX) {
        npos = FE_POS_MAX;
    }
    int i;
    for (i = 1; i < argc; i++) {
        const char *w = argv[i];
        if (strcmp(w, "--") == 0) {
            pos->dashdash = 1;
            i++;
            break;
        }
        int rc = 0;
        if (w[0] == '-' && w[1] == '-')
            rc = long_opt(table, name, argc, argv, &i, dst);
        else if (w[0] == '-' && w[1])
            rc = short_opts(table, name, argc, argv, &i, dst);
        else if (pos->n < npos)
            pos->v[pos->n++] = w;
        else
            break;
        if (rc < 0) {
            fe_pos_release(pos);
            return rc;
        }
    }
    pos->rest = i;
    return 0;
}

void fe_pos_release(struct fe_pos *pos)
{
    if (pos->v != pos->fixed)
        free((void *)pos->v);
    pos->v = pos->fixed;
    pos->n = 0;
}

/* ---- help ------------------------------------------------------------- */

#define HELP_COL 23 /* where an option's help starts */
#define HELP_WIDTH 79

void fe_wrap(FILE *out, const char *text, int col, int indent)
{
    const char *p = text;
    while (*p) {
        if (col < indent) {
            fprintf(out, "%*s", indent - col, "");
            col = indent;
        }
        /* the words that fit on this line */
        const char *end = p, *brk = NULL;
        while (*end && *end != '\n' &&
               (col + (end - p) < HELP_WIDTH || !brk)) {
            if (*end == ' ')
                brk = end;
            end++;
        }
        if (*end && *end != '\n' && brk)
            end = brk;
        fprintf(out, "%.*s\n", (int)(end - p), p);
        p = end;
        if (*p == ' ' || *p == '\n')
            p++;
        col = 0;
    }
}

static int help_one(const struct fe_opt *o, size_t off, void *ud)
{
    FILE *out = ud;
    (void)off;
    if (!o->help)
        return 0;
    char left[128];
    int n = snprintf(left, sizeof left, "  %c%c%s--%s", o->short_name
                     ? '-' : ' ', o->short_name ? o->short_name : ' ',
                     o->short_name ? ", " : "  ", o->name);
    if (o->kind != FE_OPT_WORDS && o->arg)
        n += snprintf(left + n, sizeof left - (size_t)n,
                      o->flags & FE_OPT_OPTIONAL ? "[=%s]" : " %s", o->arg);
    else if (o->kind == FE_OPT_WORDS)
        n += snprintf(left + n, sizeof left - (size_t)n, " [%s...]",
                      o->arg ? o->arg : "WORD");
    fputs(left, out);
    if (n + 2 > HELP_COL) {
        fputc('\n', out);
        n = 0;
    }
    fe_wrap(out, o->help, n, HELP_COL);
    return 0;
}

void fe_opts_help(const struct fe_opt *table, FILE *out)
{
    fe_opts_each(table, help_one, out);
}

struct synopsis {
    char *buf;
    size_t len, used;
};

static int synopsis_one(const struct fe_opt *o, size_t off, void *ud)
{
    struct synopsis *y = ud;
    (void)off;
    if (!o->help || y->used >= y->len)
        return 0;
    y->used += (size_t)snprintf(y->buf + y->used, y->len - y->used,
                                "%s[--%s%s%s%s]", y->used ? " " : "",
                                o->name, o->arg ? (o->flags & FE_OPT_OPTIONAL
                                                   ? "[=" : " ") : "",
                                o->arg ? o->arg : "",
                                o->arg && o->flags & FE_OPT_OPTIONAL ? "]"
                                                                     : "");
    return 0;
}

void fe_opts_synopsis(const struct fe_opt *table, char *buf, size_t len)
{
    struct synopsis y = {buf, len, 0};
    if (len)
        buf[0] = '\0';
    fe_opts_each(table, synopsis_one, &y);
}
