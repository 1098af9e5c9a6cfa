/*
 * The argument parser of the console's commands: the dispatcher parses a
 * command's arguments by the template of its table entry (con.h, struct
 * con_cmd) before the handler runs; handlers read the values through the
 * helpers here and args.h.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "con.h"

/* The template's next token into TOK (cut at LEN); *T after it. 0 at the
 * end. */
static int next_token(const char **t, char *tok, size_t len)
{
    const char *p = *t + strspn(*t, " ");
    size_t n = strcspn(p, " ");
    if (!n)
        return 0;
    snprintf(tok, len, "%.*s", (int)n, p);
    *t = p + n;
    return 1;
}

/* Whether the template has token WANT. */
static int has_token(const char *tmpl, const char *want)
{
    char tok[64];
    while (next_token(&tmpl, tok, sizeof tok))
        if (strcmp(tok, want) == 0)
            return 1;
    return 0;
}

/* The index of option WORD ("--from", "--from=3" when VALUE is set) among
 * the template's options, *TAKES whether it has a value; -1 when the
 * template has no such option. */
static int find_opt(const char *tmpl, const char *word, size_t len,
                    int *takes)
{
    char tok[64];
    int i = 0;
    while (next_token(&tmpl, tok, sizeof tok)) {
        if (strncmp(tok, "--", 2) != 0)
            continue;
        size_t tl = strcspn(tok, "=");
        if (tl == len && strncmp(tok, word, len) == 0) {
            *takes = tok[tl] == '=';
            return i;
        }
        i++;
    }
    return -1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* An option's value without the quotes around it ('Re*' as a shell
 * would take it), in place. */
static char *unquote(char *v)
{
    size_t n = strlen(v);
    if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) {
        v[n - 1] = '\0';
        return v + 1;
    }
    return v;
}

/* Takes the template's options out of T (cut up in place), the other words
 * into OUT, joined by single spaces. 0, or -1 after an error. */
static int split_opts(struct con_args *a, char *t, char *out)
{
    const char *tmpl = a->cmd->args;
    char *o = out;
    *o = '\0';
    for (char *w = t + strspn(t, " \t"); *w; w += strspn(w, " \t")) {
        size_t wl = con_word_len(w);
        char *next = w[wl] ? w + wl + 1 : w + wl;
        w[wl] = '\0';
        int takes, i = -1;
        if (strncmp(w, "--", 2) == 0 && w[2])
            i = find_opt(tmpl, w, strcspn(w, "="), &takes);
        if ((i < 0 && strncmp(w, "--", 2) == 0 && w[2]) ||
            i >= (int)(sizeof a->opts / sizeof a->opts[0])) {
            fprintf(stderr, "drdb: %s: unknown option '%s'\n", a->cmd->usage,
                    w);
            return -1;
        }
        if (i < 0) {
            o += sprintf(o, "%s%s", o == out ? "" : " ", w);
        } else if (!takes) {
            a->opts[i] = w + wl; /* "" */
        } else if (strchr(w, '=')) {
            a->opts[i] = unquote(strchr(w, '=') + 1);
        } else {
            next += strspn(next, " \t");
            size_t vl = con_word_len(next); /* a "{...}" whole */
            if (!vl) {
                fprintf(stderr, "drdb: %s: option '%s' needs a value\n",
                        a->cmd->usage, w);
                return -1;
            }
            a->opts[i] = next;
            next = next[vl] ? next + vl + 1 : next + vl;
            a->opts[i][vl] = '\0';
            a->opts[i] = unquote(a->opts[i]);
        }
        w = next;
    }
    return 0;
}

int con_args_parse(struct con *c, const struct con_cmd *cmd,
                   const struct rankset *set, const char *text,
                   struct con_args *a)
{
    const char *tmpl = cmd->args ? cmd->args : "";
    size_t len = strlen(text);
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->text = "";
    a->buf = malloc(2 * len + 2);
    if (!a->buf || rs_init(&a->set, c->nranks) < 0) {
        con_args_release(a);
        return -1;
    }
    rs_copy(&a->set, set);
    memcpy(a->buf, text, len + 1);
    char *t = trim(a->buf);
    /* "continue &": in the background */
    size_t n = strlen(t);
    if (has_token(tmpl, "&") && n && t[n - 1] == '&') {
        a->bg = 1;
        t[n - 1] = '\0';
        t = trim(t);
    }
    if (strstr(tmpl, "--")) {
        char *out = a->buf + len + 1;
        if (split_opts(a, t, out) < 0) {
            con_args_release(a);
            return -1;
        }
        t = out;
    }
    /* "kill 1": a word the command does not take is an error, never
     * ignored (the ranks it runs on would be the focus, not rank 1) */
    if (has_token(tmpl, ".") && *t) {
        fprintf(stderr, "drdb: '%s' takes no argument '%s' (its ranks: "
                "%s @SET, or @SET %s)\n", cmd->name, t, cmd->name,
                cmd->name);
        con_args_release(a);
        return -1;
    }
    a->text = t;
    return 0;
}

void con_args_release(struct con_args *a)
{
    if (a->set.bits)
        rs_release(&a->set);
    free(a->buf);
    free(a->argv);
    free(a->words);
    a->buf = a->words = NULL;
    a->argv = NULL;
    a->text = "";
}

int con_args_opts(struct con_args *a, const struct fe_opt *table, void *dst,
                  int npos, struct fe_pos *pos)
{
    size_t len = strlen(a->text);
    int argc = 1;
    free(a->argv);
    free(a->words);
    a->words = malloc(len + 1);
    a->argv = calloc(len / 2 + 3, sizeof *a->argv);
    if (!a->words || !a->argv) {
        fprintf(stderr, "drdb: out of memory\n");
        return -1;
    }
    memcpy(a->words, a->text, len + 1);
    a->argv[0] = (char *)a->cmd->name;
    for (char *w = a->words + strspn(a->words, " \t"); *w;
         w += strspn(w, " \t")) {
        size_t wl = con_word_len(w);
        char *next = w[wl] ? w + wl + 1 : w + wl;
        w[wl] = '\0';
        a->argv[argc++] = unquote(w);
        w = next;
    }
    a->argv[argc] = NULL;
    a->argc = argc;
    int rc = fe_opts_parse(table, a->cmd->name, argc, a->argv, dst, npos,
                           pos);
    if (rc == -2)
        fprintf(stderr, "       '%s --help' lists its options\n",
                a->cmd->name);
    return rc < 0 ? -1 : 0;
}

const char *con_args_opt(const struct con_args *a, const char *name)
{
    int takes, i = find_opt(a->cmd->args ? a->cmd->args : "", name,
                            strlen(name), &takes);
    return i >= 0 ? a->opts[i] : NULL;
}

void con_args_word(const struct con_args *a, char *word, size_t len,
                   const char **rest)
{
    size_t n = strcspn(a->text, " \t");
    snprintf(word, len, "%.*s", (int)n, a->text);
    *rest = a->text + n + strspn(a->text + n, " \t");
}

int con_args_event(struct con *c, const struct con_args *a, const char *text,
                   int *rank, uint64_t *n)
{
    if (strchr(text, ':')) {
        if (fe_parse_event(text, rank, n) == 0 && *rank < c->nranks)
            return 0;
    } else if (rs_count(&a->set) == 1 && fe_parse_u64(text, n) == 0) {
        *rank = rs_first(&a->set);
        return 0;
    }
    fprintf(stderr, "drdb: '%s': which event? RANK:EVENT, e.g. 2:17\n", text);
    return -1;
}

int con_args_set(struct con *c, const struct con_args *a, const char *text,
                 struct rankset *out)
{
    if (rs_init(out, c->nranks) < 0)
        return -1;
    rs_copy(out, &a->set);
    if (!*text)
        return 0;
    const char *s = *text == '@' ? text + 1 : text;
    if (con_parse_set(c, s, con_word_len(s), out) < 0) {
        rs_release(out);
        return -1;
    }
    return 0;
}

int con_args_events(struct con *c, const struct con_args *a, const char *text,
                    struct rankset *ranks, uint64_t *ev)
{
    int r;
    if (rs_init(ranks, c->nranks) < 0)
        return -1;
    if (*text == '{' && con_brace_len(text) == strlen(text)) {
        if (con_query_events(c, text, strlen(text), ranks, ev) == 0)
            return 0;
    } else if (con_args_event(c, a, text, &r, &ev[0]) == 0) {
        ev[r] = ev[0];
        rs_add(ranks, r);
        return 0;
    }
    rs_release(ranks);
    return -1;
}
