/*
 * Tab completion of the console's command lines (con-complete.h): drdb's
 * commands, sets, options and subjects from its own tables; everything
 * GDB's from GDB (-complete).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "con-complete.h"
#include "con.h"

/* ---- a list of completions --------------------------------------------- */

struct words {
    char **v;
    size_t n, cap;
};

static void words_add(struct words *w, const char *s, size_t len)
{
    if (w->n + 2 > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 64;
        char **v = realloc(w->v, cap * sizeof *v);
        if (!v)
            return;
        w->v = v;
        w->cap = cap;
    }
    char *copy = strndup(s, len);
    if (copy)
        w->v[w->n++] = copy;
}

static void words_adds(struct words *w, const char *s)
{
    words_add(w, s, strlen(s));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* W sorted, each once, NULL-terminated; NULL when empty. */
static char **words_finish(struct words *w)
{
    if (!w->n) {
        free(w->v);
        return NULL;
    }
    qsort(w->v, w->n, sizeof *w->v, cmp_str);
    size_t k = 0;
    for (size_t i = 0; i < w->n; i++)
        if (k && strcmp(w->v[k - 1], w->v[i]) == 0)
            free(w->v[i]);
        else
            w->v[k++] = w->v[i];
    w->v[k] = NULL;
    return w->v;
}

void con_compl_list_free(char **list)
{
    for (size_t i = 0; list && list[i]; i++)
        free(list[i]);
    free(list);
}

/* ---- the completer ----------------------------------------------------- */

#define MAX_OBJS 64

struct con_compl {
    struct con *c;
    struct con_compl_stat last;
};

struct con_compl *con_compl_new(struct con *c)
{
    struct con_compl *cc = calloc(1, sizeof *cc);
    if (cc)
        cc->c = c;
    return cc;
}

void con_compl_free(struct con_compl *cc)
{
    if (!cc)
        return;
    free(cc);
}

void con_compl_last(const struct con_compl *cc, struct con_compl_stat *st)
{
    *st = cc->last;
}

/* ---- asking GDB --------------------------------------------------------- */

/* The rank whose GDB answers: the focus's first rank GDB can answer on
 * (stopped, or its program ended), else any other's. NULL: none. */
static struct con_rank *answering_rank(struct con *c)
{
    for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < c->nranks; r++) {
            struct con_rank *k = &c->ranks[r];
            if ((pass || rs_has(&c->focus, r)) && k->gdb &&
                (con_rank_halted(k) || k->state == CON_EXITED))
                return k;
        }
    return NULL;
}

#define GDB_WAIT_MS 2000

/* MC (released here) on K's GDB into REP: 0 (REP released by the
 * caller), or -1. */
static int ask(struct con_rank *k, struct mi_cmd *mc, struct mi_reply *rep)
{
    int rc = -1;
    if (mi_cmd_str(mc)) {
        rc = mi_gdb_exec_sync(k->gdb, mi_cmd_str(mc), rep, GDB_WAIT_MS);
        if (rc != 0)
            mi_reply_release(rep);
    }
    mi_cmd_release(mc);
    return rc ? -1 : 0;
}

/* ---- GDB's completions ------------------------------------------------ */

/* GDB's completions of LINE (a GDB command line, TEXT its last word) on
 * K's GDB, as the words that replace TEXT. */
static void gdb_words(struct con_rank *k, const char *line, const char *text,
                      struct words *out)
{
    struct mi_cmd mc;
    struct mi_reply rep;
    size_t off = strlen(line) - strlen(text);
    mi_cmd_init(&mc);
    mi_cmd_op(&mc, "-complete");
    mi_cmd_arg_quoted(&mc, line);
    if (ask(k, &mc, &rep) < 0)
        return;
    const struct mi_value *list = mi_get(rep.record, "matches");
    for (const struct mi_value *v = list ? list->first : NULL; v; v = v->next)
        if (v->str && v->len >= off && strncmp(v->str, line, off) == 0)
            words_adds(out, v->str + off);
    mi_reply_release(&rep);
}

static void words_add2(struct words *out, const char *head, size_t hlen,
                       const char *tail)
{
    size_t tlen = strlen(tail);
    char *s = malloc(hlen + tlen + 1);
    if (!s)
        return;
    memcpy(s, head, hlen);
    memcpy(s + hlen, tail, tlen + 1);
    words_add(out, s, hlen + tlen);
    free(s);
}

/* ---- drdb's own words -----------------------------------------------------
 */

static void prefixed(struct words *out, const char *const *list, size_t n,
                     const char *text)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(list[i], text, strlen(text)) == 0)
            words_adds(out, list[i]);
}

/* The commands' names: drdb's and the user's (define). */
static void command_words(struct con *c, const char *text, struct words *out)
{
    size_t len = strlen(text);
    const char *u;
    for (const struct con_cmd *k = con_cmd_next(NULL); k; k = con_cmd_next(k))
        if (strncmp(k->name, text, len) == 0)
            words_adds(out, k->name);
    for (size_t i = 0; (u = con_flow_user_name(c, i)); i++)
        if (strncmp(u, text, len) == 0)
            words_adds(out, u);
}

/* The rank sets' names, "@" first (TEXT without it). */
static void set_words(struct con *c, const char *text, struct words *out)
{
    static const char *const builtin[] = {"all",    "stopped",  "running",
                                          "exited", "diverged", "lost"};
    size_t nb = sizeof builtin / sizeof builtin[0];
    for (size_t i = 0; i < nb + (size_t)c->nsets; i++) {
        const char *w = i < nb ? builtin[i] : c->sets[i - nb].name;
        if (strncmp(w, text, strlen(text)) == 0)
            words_add2(out, "@", 1, w);
    }
}

struct opt_words {
    const char *text;
    struct words *out;
    int any;
};

static void opt_word(struct opt_words *ow, const char *name, size_t len)
{
    char buf[128];
    ow->any = 1;
    snprintf(buf, sizeof buf, "--%.*s", (int)len, name);
    if (strncmp(buf, ow->text, strlen(ow->text)) == 0)
        words_adds(ow->out, buf);
}

static int opt_each(const struct fe_opt *o, size_t off, void *ud)
{
    (void)off;
    if (o->name)
        opt_word(ud, o->name, strlen(o->name));
    return 0;
}

/* The options of drdb command K that complete TEXT ("--co": --count):
 * those of its table, its argument template and its usage line. 1 when
 * K takes options, else 0. */
static int option_words(const struct con_cmd *k, const char *text,
                        struct words *out)
{
    struct opt_words ow = {text, out, 0};
    const char *from[] = {k->args, k->usage};
    if (k->opts)
        fe_opts_each(k->opts, opt_each, &ow);
    for (size_t i = 0; i < 2; i++)
        for (const char *p = from[i] ? strstr(from[i], "--") : NULL; p;
             p = strstr(p + 2, "--")) {
            size_t n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
            if (n && (p == from[i] || !isalnum((unsigned char)p[-1])))
                opt_word(&ow, p + 2, n);
        }
    return ow.any;
}

/* LINE[FROM..TO) without its "@SET" words after HEAD, into BUF: 0, or -1
 * when it does not fit. */
static int gdb_line(char *buf, size_t len, const char *head, const char *line,
                    size_t from, size_t to)
{
    size_t n = (size_t)snprintf(buf, len, "%s", head);
    for (size_t i = from; i < to && n + 1 < len;) {
        if (line[i] == '@' &&
            (i == from || isspace((unsigned char)line[i - 1]))) {
            i += con_word_len(line + i);
            while (i < to && isspace((unsigned char)line[i]))
                i++;
            continue;
        }
        buf[n++] = line[i++];
    }
    if (n + 1 >= len)
        return -1;
    buf[n] = '\0';
    return 0;
}

/* The arguments LINE[FROM..TO) of GDB command HEAD ("" when the line's
 * first word is GDB's), TEXT the last word: GDB's completions. */
static void gdb_args(struct con_compl *cc, const char *head, const char *line,
                     size_t from, size_t to, const char *text,
                     struct words *out)
{
    char gl[4096];
    size_t tl = strlen(text);
    if (gdb_line(gl, sizeof gl, head, line, from, to) < 0 ||
        strlen(gl) < tl || strcmp(gl + strlen(gl) - tl, text) != 0)
        return;
    struct con_rank *k = answering_rank(cc->c);
    if (k) {
        cc->last.rank = k->rank;
        gdb_words(k, gl, text, out);
    }
}

/* The K-th word (from 0) of LINE[FROM..TO) that is not a "@SET", into
 * *W (*LEN bytes): 0, or -1 when there are fewer. */
static int nth_word(const char *line, size_t from, size_t to, int k,
                    const char **w, size_t *len)
{
    for (size_t i = from; i < to;) {
        if (isspace((unsigned char)line[i])) {
            i++;
            continue;
        }
        size_t n = con_word_len(line + i);
        if (i + n > to)
            n = to - i;
        if (line[i] != '@' && k-- == 0) {
            *w = line + i;
            *len = n;
            return 0;
        }
        i += n ? n : 1;
    }
    return -1;
}

static int word_is(const char *w, size_t len, const char *s)
{
    return strlen(s) == len && strncmp(w, s, len) == 0;
}

/* drdb commands whose arguments are a GDB command's (after SKIP words of
 * their own: condition N EXPRESSION). */
static const struct {
    const char *drdb, *gdb;
    int skip;
} as_gdb[] = {
    {"advance", "advance", 0},  {"assert", "print", 0},
    {"bisect", "print", 0},     {"break", "break", 0},
    {"condition", "print ", 1}, {"display", "display", 0},
    {"frame", "frame", 0},      {"if", "print", 0},
    {"list", "list", 0},        {"print", "print", 0},
    {"ptype", "ptype", 0},      {"tbreak", "tbreak", 0},
    {"watch", "watch", 0},      {"whatis", "whatis", 0},
    {"while", "print", 0},      {"x", "x", 0},
};

static void complete_line(struct con_compl *cc, const char *line, size_t start,
                          size_t end, const char *text, struct words *out)
{
    static const char *const set_opts[] = {
        "checkpoint-every", "checkpoint-interval",
        "groups",           "merge",
        "prefix",           "timeout",
        "timing",           "var",
        "variable",         "width"};
    static const char *const on_off[] = {"off", "on"};
    static const char *const subjects[] = {"breakpoints", "display",
                                           "findings", "sets"};
    struct con *c = cc->c;
    if (text[0] == '@') {
        set_words(c, text + 1, out);
        return;
    }
    /* the command's name: the first word, or the second after "@SET" */
    size_t i = 0;
    while (i < start && isspace((unsigned char)line[i]))
        i++;
    if (i < start && line[i] == '@') {
        i += con_word_len(line + i);
        while (i < start && isspace((unsigned char)line[i]))
            i++;
    }
    if (i >= start) {
        command_words(c, text, out);
        return;
    }
    /* it ends at a space or, as in GDB, at a '/' (x/4xw, p/x) */
    size_t e = i;
    while (e < end && !isspace((unsigned char)line[e]) &&
           (line[e] != '/' || e == i))
        e++;
    const struct con_cmd *k = con_cmd_lookup(line + i, e - i);
    if (!k) {
        for (size_t u = 0; con_flow_user_name(c, u); u++)
            if (word_is(line + i, e - i, con_flow_user_name(c, u)))
                return; /* a user command's arguments: its own */
        gdb_args(cc, "", line, i, end, text, out);
        return;
    }
    if (text[0] == '-' && option_words(k, text, out))
        return;
    const char *w0 = NULL;
    size_t l0 = 0;
    int first = nth_word(line, e, start, 0, &w0, &l0) < 0; /* TEXT is */
    if (strcmp(k->name, "help") == 0) {
        if (first)
            command_words(c, text, out);
    } else if (strcmp(k->name, "gdb") == 0) {
        gdb_args(cc, "", line, e, end, text, out);
    } else if (strcmp(k->name, "set") == 0) {
        const char *w1;
        size_t l1;
        int second = !first && nth_word(line, e, start, 1, &w1, &l1) < 0;
        if (first)
            prefixed(out, set_opts, sizeof set_opts / sizeof set_opts[0],
                     text);
        if (second && (word_is(w0, l0, "merge") || word_is(w0, l0, "prefix") ||
                       word_is(w0, l0, "timing")))
            prefixed(out, on_off, 2, text);
        else if (second && (word_is(w0, l0, "checkpoint-interval") ||
                            word_is(w0, l0, "checkpoint-every")))
            prefixed(out, on_off, 1, text);
        else if (first ||
                 !(word_is(w0, l0, "groups") || word_is(w0, l0, "timeout")))
            gdb_args(cc, "set", line, e, end, text, out);
    } else if (strcmp(k->name, "info") == 0) {
        if (first)
            prefixed(out, subjects, sizeof subjects / sizeof subjects[0],
                     text);
        gdb_args(cc, "info", line, e, end, text, out);
    } else {
        for (size_t g = 0; g < sizeof as_gdb / sizeof as_gdb[0]; g++) {
            if (strcmp(k->name, as_gdb[g].drdb) != 0)
                continue;
            size_t from = e;
            if (as_gdb[g].skip) {
                if (first)
                    return;
                from = (size_t)(w0 + l0 - line);
                while (from < end && isspace((unsigned char)line[from]))
                    from++;
            }
            gdb_args(cc, as_gdb[g].gdb, line, from, end, text, out);
            break;
        }
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

char **con_compl_words(struct con_compl *cc, const char *line, int start,
                       int end, int *nospace)
{
    double t0 = now_ms();
    struct words out = {0};
    char *text = strndup(line + start, (size_t)(end - start));
    *nospace = 0;
    cc->last.rank = -1;
    if (text)
        complete_line(cc, line, (size_t)start, (size_t)end, text, &out);
    free(text);
    char **list = words_finish(&out);
    size_t n = 0;
    while (list && list[n])
        n++;
    if (n == 1) { /* "complete.c:", "dir/": not a whole word yet */
        size_t len = strlen(list[0]);
        *nospace = len && (list[0][len - 1] == ':' || list[0][len - 1] == '/');
    }
    cc->last.n = (int)n;
    cc->last.ms = now_ms() - t0;
    return list;
}
