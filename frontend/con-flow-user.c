/*
 * User commands, as GDB's (docs/console.md, "Control flow"): `define
 * NAME` ... `end` with $arg0... and $argc in its lines, `document NAME`
 * ... `end` for `help NAME`, recursion up to FLOW_MAX_DEPTH calls; `end`
 * and `else` out of a block.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "con-flow.h"

void con_flow_release(struct con *c)
{
    struct con_flow *f = c->flow;
    if (!f)
        return;
    for (size_t i = 0; i < f->nusers; i++) {
        struct flow_user *u = f->users[i];
        struct flow_body b = {u->lines, u->nlines, u->nlines, 1};
        con__body_release(&b);
        free(u->name);
        free(u->usage);
        free(u->doc);
        free(u);
    }
    free(f->users);
    free(f);
    c->flow = NULL;
}

/* ---- user commands ------------------------------------------------------- */

static struct flow_user *user_find(struct con_flow *f, const char *name,
                                   size_t len)
{
    for (size_t i = 0; f && i < f->nusers; i++)
        if (strlen(f->users[i]->name) == len &&
            strncmp(f->users[i]->name, name, len) == 0)
            return f->users[i];
    return NULL;
}

static int cmd_user(struct con *c, struct con_args *a);

/* A user command's name: letters, digits, '_' and '-', not a command's. */
static int check_name(const char *name, const char *what)
{
    size_t n = strlen(name);
    int ok = n && n < 64 && !isdigit((unsigned char)*name) &&
             strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789_-") == n;
    if (!ok) {
        fprintf(stderr, "drdb: '%s %s': a command name is letters, digits, "
                "'_' and '-'\n", what, name);
        return -1;
    }
    const struct con_cmd *k = con_cmd_lookup(name, n);
    if (k && k->run != cmd_user &&
        (strcmp(k->name, name) == 0 || con_cmd_is_alias(k, name, n))) {
        fprintf(stderr, "drdb: 'define %s': '%s' is a drdb command: choose "
                "another name\n", name, k->name);
        return -1;
    }
    if (strcmp(name, "end") == 0 || strcmp(name, "else") == 0) {
        fprintf(stderr, "drdb: 'define %s': '%s' ends blocks: choose another "
                "name\n", name, name);
        return -1;
    }
    return 0;
}

/* The body of `define NAME` or `document NAME` (WHAT: "commands for
 * definition of", "documentation for"), said at the prompt as GDB does. */
static int read_named(struct con *c, struct con_args *a, const char *what,
                      enum flow_kind kind, struct flow_body *b)
{
    char intro[300];
    snprintf(intro, sizeof intro, "Type %s \"%s\".\nEnd with a line "
             "saying just \"end\".", what, a->text);
    return con__read_body(c, kind == K_DOC ? "document" : "define", kind,
                          intro, b);
}

static int cmd_define(struct con *c, struct con_args *a)
{
    struct flow_body b;
    if (read_named(c, a, "commands for definition of", K_BLOCK, &b) < 0)
        return -1;
    struct con_flow *f = c->flow;
    const char *name = a->text;
    struct flow_user *u = user_find(f, name, strlen(name));
    int rc = check_name(name, "define");
    const char *gdb = rc == 0 ? con_gdb_exact(c, name) : NULL;
    if (gdb) {
        fprintf(stderr, "drdb: 'define %s': '%s' is %s%s: choose another "
                "name\n", name, name, strcmp(gdb, name) ? "GDB's alias of "
                : "a GDB command", strcmp(gdb, name) ? gdb : "");
        rc = -1;
    }
    if (rc == 0 && u && u->busy) {
        fprintf(stderr, "drdb: 'define %s': '%s' is running: it cannot be "
                "redefined now\n", name, name);
        rc = -1;
    }
    if (rc == 0 && !u && f->nusers == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 8;
        struct flow_user **us = realloc(f->users, cap * sizeof *us);
        if (us) {
            f->users = us;
            f->cap = cap;
        } else {
            rc = -1;
        }
    }
    if (rc == 0 && !u) {
        u = calloc(1, sizeof *u);
        if (!u || !(u->name = strdup(name)) ||
            asprintf(&u->usage, "%s [ARGUMENTS]", name) < 0) {
            free(u ? u->name : NULL);
            free(u);
            con__body_release(&b);
            return -1;
        }
        u->cmd = (struct con_cmd){u->name, NULL, u->usage, "User-defined.", 0,
                                  NULL, cmd_user, NULL};
        f->users[f->nusers++] = u;
    }
    /* keep the lines: borrowed ones are copied */
    struct flow_body keep = {NULL, 0, 0, 1};
    for (size_t i = 0; rc == 0 && i < b.n; i++) {
        char *l = strdup(b.lines[i]);
        if (!l || con__body_add(&keep, l) < 0) {
            free(l);
            rc = -1;
        }
    }
    if (rc == 0) {
        struct flow_body old = {u->lines, u->nlines, u->nlines, 1};
        con__body_release(&old);
        u->lines = keep.lines;
        u->nlines = keep.n;
    } else {
        con__body_release(&keep);
    }
    con__body_release(&b);
    return rc;
}

static int cmd_document(struct con *c, struct con_args *a)
{
    struct flow_body b;
    if (read_named(c, a, "documentation for", K_DOC, &b) < 0)
        return -1;
    struct flow_user *u = user_find(c->flow, a->text, strlen(a->text));
    if (!u) {
        fprintf(stderr, "drdb: 'document %s': no user command '%s' ('define "
                "%s' first)\n", a->text, a->text, a->text);
        con__body_release(&b);
        return -1;
    }
    size_t len = 0;
    for (size_t i = 0; i < b.n; i++)
        len += strlen(b.lines[i]) + 1;
    char *doc = malloc(len + 1);
    if (!doc) {
        con__body_release(&b);
        return -1;
    }
    doc[0] = '\0';
    for (size_t i = 0; i < b.n; i++)
        strcat(strcat(doc, b.lines[i] + strspn(b.lines[i], " \t")),
               i + 1 < b.n ? "\n" : "");
    free(u->doc);
    u->doc = doc;
    u->cmd.summary = doc;
    con__body_release(&b);
    return 0;
}

/* A user command's arguments, split as GDB does: at spaces outside quotes
 * ('...', "...") and after a backslash; quotes kept. */
static int split_args(const char *text, char ***argv)
{
    int n = 0;
    *argv = NULL;
    for (const char *p = text + strspn(text, " \t"); *p;
         p += strspn(p, " \t")) {
        const char *s = p;
        char q = 0;
        for (; *p && (q || (*p != ' ' && *p != '\t')); p++) {
            if (*p == '\\' && p[1])
                p++;
            else if (q && *p == q)
                q = 0;
            else if (!q && (*p == '\'' || *p == '"'))
                q = *p;
        }
        char **v = realloc(*argv, (size_t)(n + 1) * sizeof *v);
        if (!v)
            return n;
        *argv = v;
        if (!(v[n] = strndup(s, (size_t)(p - s))))
            return n;
        n++;
    }
    return n;
}

static int cmd_user(struct con *c, struct con_args *a)
{
    struct con_flow *f = c->flow;
    struct flow_user *u = user_find(f, a->cmd->name, strlen(a->cmd->name));
    if (!u)
        return -1;
    if (f->depth >= FLOW_MAX_DEPTH) {
        fprintf(stderr, "drdb: '%s': user commands called %d deep (a "
                "recursion without end?): stopped\n", u->name,
                FLOW_MAX_DEPTH);
        return -1;
    }
    struct flow_frame fr = {NULL, 0, NULL, 0, u->name, f->top};
    fr.argc = split_args(a->text, &fr.argv);
    struct flow_body b = {u->lines, u->nlines, u->nlines, 0};
    struct rankset saved;
    int changed = con__focus_on(c, &a->set, &saved);
    con__flow_enter(f);
    f->depth++;
    u->busy++;
    f->top = &fr;
    /* a loop of the caller is not the command's */
    int loops = f->loops;
    f->loops = 0;
    int rc = con__run_body(c, &b, u->name, -1);
    f->loops = loops;
    f->top = fr.up;
    u->busy--;
    f->depth--;
    con__flow_leave(f);
    con__focus_back(c, &saved, changed);
    for (int i = 0; i < fr.argc; i++)
        free(fr.argv[i]);
    free(fr.argv);
    return rc;
}

/* `end` and `else` out of a block. */
static int cmd_stray(struct con *c, struct con_args *a)
{
    (void)c;
    fprintf(stderr, strcmp(a->cmd->name, "end") == 0
                        ? "drdb: 'end' without a block to end (foreach, if, "
                          "while, define, document)\n"
                        : "drdb: 'else' without an 'if'\n");
    return -1;
}

static const struct con_cmd stray[] = {
    {"end", NULL, "end", "ends a block", 0, NULL, cmd_stray, NULL},
    {"else", NULL, "else", "the other branch of an if", 0, NULL, cmd_stray,
     NULL},
};

const struct con_cmd *con_flow_cmd(struct con *c, const char *name,
                                   size_t len)
{
    for (size_t i = 0; i < sizeof stray / sizeof stray[0]; i++)
        if (strlen(stray[i].name) == len &&
            strncmp(stray[i].name, name, len) == 0)
            return &stray[i];
    struct flow_user *u = user_find(c->flow, name, len);
    return u ? &u->cmd : NULL;
}

const char *con_flow_user_name(struct con *c, size_t i)
{
    return c->flow && i < c->flow->nusers ? c->flow->users[i]->name : NULL;
}

void con_flow_help(struct con *c)
{
    struct con_flow *f = c->flow;
    if (!f || !f->nusers)
        return;
    printf("user-defined commands (define, document):\n ");
    for (size_t i = 0; i < f->nusers; i++)
        printf(" %s", f->users[i]->name);
    putchar('\n');
}

const struct con_cmd con_cmds_user[] = {
    {"define", NULL, "define NAME",
     "a user command: the lines up to 'end', with $arg0... and $argc", 0,
     NULL, cmd_define, NULL},
    {"document", NULL, "document NAME",
     "the help of user command NAME: the lines up to 'end'", 0, NULL,
     cmd_document, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
