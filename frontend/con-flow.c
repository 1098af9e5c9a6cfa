/*
 * Control flow in the console, with GDB's CLI syntax (docs/console.md,
 * "Control flow"): `foreach (SELECT ...)`, `if COND` / `else`, `while
 * COND`, `loop_break`, `loop_continue`, each ended by `end`; the bodies
 * of every block, user commands' too (`define`, con-flow-user.c).
 *
 * A block's body is the lines up to its `end` (nested blocks counted): at
 * the prompt read with GDB's '>' prompt, in a script the lines after it
 * (c->read_body), inside a running body the lines the body holds (given
 * to the block's command in flow->pending). Whole blocks are read before
 * anything runs, so a bad block never leaves its lines to run as commands.
 *
 * $-references are replaced in each line a body runs, just before it
 * runs: the columns of the enclosing foreach rows (innermost first), the
 * arguments of the user command running ($argN, $argc); a user command
 * sees no foreach row of its caller. Anything else ($i, $pc) is GDB's.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "con-flow.h"

void con__body_release(struct flow_body *b)
{
    for (size_t i = 0; b->owned && i < b->n; i++)
        free(b->lines[i]);
    if (b->owned)
        free(b->lines);
    memset(b, 0, sizeof *b);
}

int con__body_add(struct flow_body *b, char *line)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        char **l = realloc(b->lines, cap * sizeof *l);
        if (!l)
            return -1;
        b->lines = l;
        b->cap = cap;
    }
    b->lines[b->n++] = line;
    return 0;
}

struct con_flow *con__flow_get(struct con *c)
{
    if (!c->flow)
        c->flow = calloc(1, sizeof *c->flow);
    return c->flow;
}

/* ---- what a line is --------------------------------------------------- */

/* The command name of LINE (after an @SET) at *NAME, its length. */
static size_t line_name(const char *line, const char **name)
{
    const char *p = line + strspn(line, " \t");
    if (*p == '@') {
        p += con_word_len(p);
        p += strspn(p, " \t");
    }
    const char *e = p;
    while (*e && !isspace((unsigned char)*e) && (*e != '/' || e == p))
        e++;
    *name = p;
    return (size_t)(e - p);
}

static enum flow_kind line_kind(const char *line)
{
    const char *name;
    size_t n = line_name(line, &name);
    if (n == 3 && strncmp(name, "end", 3) == 0 &&
        !name[n + strspn(name + n, " \t")])
        return K_END;
    if (n == 4 && strncmp(name, "else", 4) == 0)
        return K_ELSE;
    /* only a block command's name or prefix needs the table's lookup */
    static const char *const blocks[] = {"if", "while", "foreach", "define",
                                         "document"};
    int maybe = 0;
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        maybe |= n && strlen(blocks[i]) >= n &&
                 strncmp(blocks[i], name, n) == 0;
    const struct con_cmd *k = maybe ? con_cmd_lookup(name, n) : NULL;
    if (!k)
        return K_OTHER;
    return strcmp(k->name, "if") == 0         ? K_IF
           : strcmp(k->name, "document") == 0 ? K_DOC
           : strcmp(k->name, "foreach") == 0 || strcmp(k->name, "while") == 0 ||
                   strcmp(k->name, "define") == 0
               ? K_BLOCK
               : K_OTHER;
}

/* The index of the `end` of the block whose body starts at FROM in LINES
 * (N when none: bodies are checked when read). KIND: the block's. */
static size_t match_end(char **lines, size_t from, size_t n,
                        enum flow_kind kind)
{
    int depth = 0;
    for (size_t i = from; i < n; i++) {
        enum flow_kind k = line_kind(lines[i]);
        if (kind == K_DOC) {
            if (k == K_END)
                return i;
        } else if (k == K_END) {
            if (depth-- == 0)
                return i;
        } else if (k == K_DOC) {
            i = match_end(lines, i + 1, n, K_DOC);
        } else if (k == K_IF || k == K_BLOCK) {
            depth++;
        }
    }
    return n;
}

/* ---- reading a body ------------------------------------------------------ */

/* The body of block command NAME (KIND) into B: flow->pending inside a
 * running body, else the lines the reader gives up to the block's `end`,
 * checked (an `else` only in an `if`, no `end` missing). INTRO: said at a
 * prompt first. 0, or -1 (reported) once the whole block is read. */
int con__read_body(struct con *c, const char *name, enum flow_kind kind,
                    const char *intro, struct flow_body *b)
{
    struct con_flow *f = con__flow_get(c);
    memset(b, 0, sizeof *b);
    if (!f)
        return -1;
    if (f->has_pending) {
        b->lines = f->pending;
        b->n = f->npending;
        f->has_pending = 0;
        return 0;
    }
    if (!c->read_body) {
        fprintf(stderr, "drdb: '%s': its body goes on the lines after it, "
                "ended by 'end' (in a script or at the prompt)\n", name);
        return -1;
    }
    b->owned = 1;
    /* the kinds of the blocks open, the outermost (this one) first */
    enum flow_kind open[FLOW_MAX_NEST];
    int nopen = 1, elses = 0, bad = 0;
    open[0] = kind;
    for (;;) {
        char *line = c->read_body(c, intro);
        intro = NULL;
        if (!line) {
            if (con_sigint)
                fprintf(stderr, "drdb: '%s': cancelled by Ctrl-C: nothing "
                        "run\n", name);
            else
                fprintf(stderr, "drdb: '%s': no 'end' before the end of "
                        "the input: nothing run\n", name);
            con_sigint = 0;
            con__body_release(b);
            return -1;
        }
        enum flow_kind k = open[nopen - 1] == K_DOC
                               ? (line_kind(line) == K_END ? K_END : K_OTHER)
                               : line_kind(line);
        if (k == K_END && --nopen == 0) {
            free(line);
            break;
        }
        if (k == K_ELSE && open[nopen - 1] != K_IF) {
            fprintf(stderr, "drdb: '%s': an 'else' outside an 'if' block "
                    "(if COND ... else ... end)\n", name);
            bad = 1;
        } else if (k == K_ELSE && nopen == 1 && ++elses > 1) {
            fprintf(stderr, "drdb: '%s': two 'else' in one 'if'\n", name);
            bad = 1;
        }
        if (k == K_IF || k == K_BLOCK || k == K_DOC) {
            if (nopen == FLOW_MAX_NEST) {
                if (!bad)
                    fprintf(stderr, "drdb: '%s': blocks nested more than "
                            "%d deep\n", name, FLOW_MAX_NEST);
                bad = 1;
            } else {
                open[nopen++] = k;
            }
        }
        if (con__body_add(b, line) < 0) {
            free(line);
            bad = 1;
        }
    }
    if (bad)
        con__body_release(b);
    return bad ? -1 : 0;
}

/* ---- $-references -------------------------------------------------------- */

/* Appends S[0..N) to *OUT (length *LEN, capacity *CAP): 0 or -1. */
static int out_add(char **out, size_t *len, size_t *cap, const char *s,
                   size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t nc = (*len + n + 1) * 2;
        char *o = realloc(*out, nc);
        if (!o)
            return -1;
        *out = o;
        *cap = nc;
    }
    memcpy(*out + *len, s, n);
    *len += n;
    (*out)[*len] = '\0';
    return 0;
}

/* A text value as a C string literal nothing in a command line reads
 * otherwise: every byte but letters, digits, space and "_.,:/+-=" as an
 * octal escape (no quote, '@', '{', '$' or newline stays). */
static char *quote_text(const char *s)
{
    char *q = malloc(strlen(s) * 4 + 3), *p = q;
    if (!q)
        return NULL;
    *p++ = '"';
    for (const unsigned char *u = (const unsigned char *)s; *u; u++)
        if (isalnum(*u) || (*u && strchr(" _.,:/+-=", *u)))
            *p++ = (char)*u;
        else
            p += sprintf(p, "\\%03o", *u);
    *p++ = '"';
    *p = '\0';
    return q;
}

/* The value of $NAME (LEN bytes) in the scopes from F (malloc'd); NULL
 * when no scope has it (*ERR 0), or after an error (*ERR 1, reported). */
static char *lookup(const struct flow_frame *f, const char *name, size_t len,
                    int *err)
{
    *err = 0;
    for (; f; f = f->up) {
        if (f->user) {
            char *end;
            if (len == 4 && strncmp(name, "argc", 4) == 0) {
                char *v;
                return asprintf(&v, "%d", f->argc) < 0 ? NULL : v;
            }
            if (len > 3 && strncmp(name, "arg", 3) == 0 &&
                isdigit((unsigned char)name[3])) {
                long i = strtol(name + 3, &end, 10);
                if (end == name + len) {
                    if (i < f->argc)
                        return strdup(f->argv[i]);
                    fprintf(stderr, "drdb: '%s': missing argument %ld: it "
                            "was given %d ($argc)\n", f->user, i, f->argc);
                    *err = 1;
                    return NULL;
                }
            }
            return NULL; /* the caller's scopes are not the command's */
        }
        for (int i = 0; i < f->res->ncols; i++) {
            if (strlen(f->res->names[i]) != len ||
                strncmp(f->res->names[i], name, len) != 0)
                continue;
            size_t cell = f->row * (size_t)f->res->ncols + (size_t)i;
            const char *v = f->res->cells[cell];
            switch (f->res->types[cell]) {
            case EV_SQL_NULL:
                fprintf(stderr, "drdb: foreach: row %zu: column '%s' is "
                        "NULL (coalesce(%s, -1) in the query gives a "
                        "number)\n", f->row + 1, f->res->names[i],
                        f->res->names[i]);
                *err = 1;
                return NULL;
            case EV_SQL_TEXT:
                return quote_text(v);
            default:
                return strdup(v);
            }
        }
    }
    return NULL;
}

/* The names of the columns of the innermost foreach, for an error. */
static void columns(const struct flow_frame *f, char *buf, size_t len)
{
    snprintf(buf, len, "none: not in a foreach");
    for (; f && !f->user; f = f->up) {
        buf[0] = '\0';
        for (int i = 0; i < f->res->ncols; i++)
            snprintf(buf + strlen(buf), len - strlen(buf), "%s$%s",
                     i ? ", " : "", f->res->names[i]);
        return;
    }
}

/* LINE with its $-references replaced (malloc'd); NULL after an error
 * (reported). "${NAME}" must be one; "$NAME" that is none stays. */
static char *substitute(struct con_flow *f, const char *line)
{
    char *out = NULL;
    size_t len = 0, cap = 0;
    line += strspn(line, " \t");
    if (out_add(&out, &len, &cap, "", 0) < 0)
        return NULL;
    for (const char *p = line; *p;) {
        if (*p != '$' || !f->top) {
            size_t n = f->top ? strcspn(p, "$") : strlen(p);
            if (out_add(&out, &len, &cap, p, n) < 0)
                goto fail;
            p += n;
            continue;
        }
        int braced = p[1] == '{', err;
        const char *name = p + 1 + braced;
        size_t n = 0;
        while (isalnum((unsigned char)name[n]) || name[n] == '_')
            n++;
        if (braced && (name[n] != '}' || !n)) {
            fprintf(stderr, "drdb: '%s': '${' without a name and '}'\n", line);
            goto fail;
        }
        char *v = n ? lookup(f->top, name, n, &err) : NULL;
        if (!v && braced && !err) {
            char cols[512];
            columns(f->top, cols, sizeof cols);
            fprintf(stderr, "drdb: '%s': no column '%.*s' in the foreach's "
                    "query (its columns: %s)\n", line, (int)n, name, cols);
        }
        if (!v && (braced || err))
            goto fail;
        size_t used = 1 + (size_t)braced + n + (size_t)braced;
        int rc = v ? out_add(&out, &len, &cap, v, strlen(v))
                   : out_add(&out, &len, &cap, p, used);
        free(v);
        if (rc < 0)
            goto fail;
        p += used;
    }
    return out;
fail:
    free(out);
    return NULL;
}

/* ---- running a body ------------------------------------------------------ */

/* Stops everything running when Ctrl-C came or the session's timeout
 * passed since the outermost block started (said once, naming WHAT):
 * -1, else 0. */
static int check_stop(struct con *c, const char *what, long iter)
{
    struct con_flow *f = c->flow;
    if (f->stopped)
        return -1;
    int intr = con_sigint || c->interrupted;
    int late = c->timeout_ms > 0 && mi_now_ms() - f->t0 > c->timeout_ms;
    if (!intr && !late)
        return 0;
    con_sigint = 0;
    c->interrupted = 1;
    f->stopped = 1;
    char it[64] = "";
    if (iter >= 0)
        snprintf(it, sizeof it, " after %ld iteration%s", iter,
                 iter == 1 ? "" : "s");
    if (intr)
        fprintf(stderr, "drdb: '%s' stopped by Ctrl-C%s\n", what, it);
    else
        fprintf(stderr, "drdb: '%s' stopped%s: it ran longer than the "
                "timeout of %d ms (--timeout, set timeout MS)\n", what, it,
                c->timeout_ms);
    return -1;
}

/* Runs the lines of B, each with its $-references replaced; a block's
 * lines go to its command. Stops at the first that fails (-1), at a
 * loop_break or loop_continue (0, left pending for the loop), on Ctrl-C
 * or the timeout (-1, said naming WHAT, the block, and ITER). */
int con__run_body(struct con *c, const struct flow_body *b, const char *what,
                  long iter)
{
    struct con_flow *f = c->flow;
    for (size_t i = 0; i < b->n && !f->brk && !f->cont;) {
        if (check_stop(c, what, iter) < 0)
            return -1;
        enum flow_kind k = line_kind(b->lines[i]);
        size_t next = i + 1;
        if (k == K_IF || k == K_BLOCK || k == K_DOC) {
            next = match_end(b->lines, i + 1, b->n, k);
            f->pending = b->lines + i + 1;
            f->npending = next - i - 1;
            next++;
        }
        char *line = substitute(f, b->lines[i]);
        if (!line)
            return -1;
        if (c->echo && *line && *line != '#') {
            /* one '+' per block around it, as GDB's trace-commands */
            printf("(drdb) %.*s%s\n", f->active, "++++++++++++++++", line);
            fflush(stdout);
        }
        f->has_pending = k == K_IF || k == K_BLOCK || k == K_DOC;
        int rc = con_execute(c, line);
        f->has_pending = 0;
        if ((rc < 0 || c->interrupted) && check_stop(c, what, iter) == 0 &&
            !f->failed) {
            /* where, once: the blocks around it fail with it */
            char it[64] = "";
            if (iter >= 0)
                snprintf(it, sizeof it, " (iteration %ld)", iter + 1);
            fprintf(stderr, "drdb: '%s' failed in '%s'%s\n", line, what, it);
            f->failed = 1;
        }
        free(line);
        if (rc < 0 || c->interrupted)
            return -1;
        i = next;
    }
    return 0;
}

/* Around a block or user command: the outermost starts the clock and, when
 * it ends, forgets a stop. */
void con__flow_enter(struct con_flow *f)
{
    if (f->active++ == 0) {
        f->t0 = mi_now_ms();
        f->stopped = f->failed = f->brk = f->cont = 0;
    }
}

void con__flow_leave(struct con_flow *f)
{
    if (--f->active == 0)
        f->stopped = f->failed = f->brk = f->cont = 0;
}

/* A block's @SET is the focus of its body: makes SET the focus when it is
 * another set, the focus before it into SAVED (to be given back), 1;
 * else 0 (a body's `focus` then stays). */
int con__focus_on(struct con *c, const struct rankset *set,
                   struct rankset *saved)
{
    int same = 1;
    for (int r = 0; r < c->nranks && same; r++)
        same = rs_has(set, r) == rs_has(&c->focus, r);
    if (same || rs_init(saved, c->nranks) < 0)
        return 0;
    rs_copy(saved, &c->focus);
    rs_copy(&c->focus, set);
    return 1;
}

void con__focus_back(struct con *c, struct rankset *saved, int changed)
{
    if (!changed)
        return;
    rs_copy(&c->focus, saved);
    rs_release(saved);
}

/* ---- conditions ---------------------------------------------------------- */

/* Does TEXT start with "(SELECT" or "(WITH" (an SQL scalar)? */
static int sql_cond(const char *text)
{
    if (*text != '(')
        return 0;
    text += 1 + strspn(text + 1, " \t");
    return (strncasecmp(text, "select", 6) == 0 &&
            !isalnum((unsigned char)text[6])) ||
           (strncasecmp(text, "with", 4) == 0 &&
            !isalnum((unsigned char)text[4]));
}

/* Is V, a value as GDB prints it in the program's language, true? False:
 * a zero number ("0", "0x0", "0.0", "0 '\\000'", "(int *) 0x0"), C++'s
 * false, Fortran's .FALSE.; anything else is true. */
static int gdb_true(const char *v)
{
    if (*v == '(' && strstr(v, ") "))
        v = strstr(v, ") ") + 2;
    if (strcasecmp(v, "false") == 0 || strcasecmp(v, ".false.") == 0)
        return 0;
    char *end;
    double d = strtod(v, &end);
    return end == v || d != 0;
}

/* COND of command NAME on the ranks of A: 1 true, 0 false, -1 an error
 * (reported). An SQL scalar is true when it is a non-zero number; a GDB
 * expression when it is non-zero on every rank of the set. */
static int eval_cond(struct con *c, const char *name, struct con_args *a)
{
    const char *cond = a->text;
    if (!*cond) {
        fprintf(stderr, "drdb: '%s': which condition? %s EXPRESSION, or %s "
                "(SELECT ...) ...\n", name, name, name);
        return -1;
    }
    if (sql_cond(cond)) {
        struct ev_sql_result res;
        char *sql;
        if (asprintf(&sql, "SELECT %s", cond) < 0)
            return -1;
        int rc = con_query_run(c, sql, &res);
        free(sql);
        if (rc == 0 && (res.ncols != 1 || res.nrows != 1 ||
                        res.types[0] == EV_SQL_TEXT)) {
            fprintf(stderr, "drdb: '%s %s': the condition is not one "
                    "number\n", name, cond);
            rc = -1;
        }
        if (rc == 0)
            rc = res.types[0] != EV_SQL_NULL && atof(res.cells[0]) != 0;
        ev_sql_result_release(&res);
        return rc;
    }
    struct rankset set;
    if (rs_init(&set, c->nranks) < 0)
        return -1;
    rs_copy(&set, &a->set);
    int truth = 1;
    if (con_runnable(c, &set, CON_NEEDS_RANKS | CON_NEEDS_STOPPED, name) < 0)
        truth = -1;
    char *mi = truth < 0 ? NULL : con_mi_arg("-data-evaluate-expression",
                                             cond);
    for (int r = 0; mi && r < c->nranks && truth == 1; r++) {
        if (!rs_has(&set, r))
            continue;
        struct mi_reply rep;
        int st = mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep, c->timeout_ms);
        const char *v = st == 0 ? mi_get_str(rep.record, "value") : NULL;
        if (!v) {
            fprintf(stderr, "drdb: '%s %s': [%d] %s\n", name, cond, r,
                    rep.message ? rep.message : "no value");
            truth = -1;
        } else {
            truth = gdb_true(v);
        }
        mi_reply_release(&rep);
    }
    if (!mi)
        truth = -1;
    free(mi);
    rs_release(&set);
    return truth;
}

/* ---- the commands -------------------------------------------------------- */

static int cmd_if(struct con *c, struct con_args *a)
{
    struct flow_body b, part;
    if (con__read_body(c, "if", K_IF, NULL, &b) < 0)
        return -1;
    struct con_flow *f = c->flow;
    con__flow_enter(f);
    int rc = eval_cond(c, "if", a);
    if (rc >= 0) {
        /* the top-level else splits the body */
        size_t e = 0;
        for (int depth = 0; e < b.n; e++) {
            enum flow_kind k = line_kind(b.lines[e]);
            if (k == K_DOC)
                e = match_end(b.lines, e + 1, b.n, K_DOC);
            else if (k == K_IF || k == K_BLOCK)
                depth++;
            else if (k == K_END)
                depth--;
            else if (k == K_ELSE && depth == 0)
                break;
        }
        part = (struct flow_body){b.lines, rc ? e : 0, 0, 0};
        if (!rc && e < b.n)
            part = (struct flow_body){b.lines + e + 1, b.n - e - 1, 0, 0};
        struct rankset saved;
        int changed = con__focus_on(c, &a->set, &saved);
        char what[300];
        snprintf(what, sizeof what, "if %s", a->text);
        rc = con__run_body(c, &part, what, -1);
        con__focus_back(c, &saved, changed);
    }
    con__flow_leave(f);
    con__body_release(&b);
    return rc < 0 ? -1 : 0;
}

/* After a loop's body: a loop_continue is done, a loop_break ends it. */
static int loop_next(struct con_flow *f)
{
    f->cont = 0;
    if (f->brk) {
        f->brk = 0;
        return 0;
    }
    return 1;
}

static int cmd_while(struct con *c, struct con_args *a)
{
    struct flow_body b;
    if (con__read_body(c, "while", K_BLOCK, NULL, &b) < 0)
        return -1;
    struct con_flow *f = c->flow;
    char what[300];
    snprintf(what, sizeof what, "while %s", a->text);
    con__flow_enter(f);
    f->loops++;
    struct rankset saved;
    int changed = con__focus_on(c, &a->set, &saved), rc = 0;
    for (long iter = 0;; iter++) {
        if (check_stop(c, what, iter) < 0) {
            rc = -1;
            break;
        }
        int truth = eval_cond(c, "while", a);
        if (truth <= 0) {
            rc = truth;
            break;
        }
        if (con__run_body(c, &b, what, iter) < 0) {
            rc = -1;
            break;
        }
        if (!loop_next(f))
            break;
    }
    con__focus_back(c, &saved, changed);
    f->loops--;
    con__flow_leave(f);
    con__body_release(&b);
    return rc;
}

static int cmd_foreach(struct con *c, struct con_args *a)
{
    struct flow_body b;
    if (con__read_body(c, "foreach", K_BLOCK, NULL, &b) < 0)
        return -1;
    const char *q = a->text;
    size_t len = strlen(q);
    if (len < 2 || q[0] != '(' || q[len - 1] != ')') {
        fprintf(stderr, "drdb: 'foreach %s': foreach (SELECT ...): the query "
                "in parentheses\n", q);
        con__body_release(&b);
        return -1;
    }
    struct con_flow *f = c->flow;
    struct ev_sql_result res;
    char *sql = strndup(q + 1, len - 2), what[300];
    if (!sql) {
        con__body_release(&b);
        return -1;
    }
    int rc = con_query_run(c, sql, &res);
    free(sql);
    snprintf(what, sizeof what, "foreach %s", q);
    int rankcol = -1;
    for (int i = 0; rc == 0 && i < res.ncols; i++)
        if (strcmp(res.names[i], "rank") == 0)
            rankcol = i;
    /* each row's rank is its body's focus: it must be a rank of the run */
    for (size_t r = 0; rc == 0 && rankcol >= 0 && r < res.nrows; r++) {
        size_t cell = r * (size_t)res.ncols + (size_t)rankcol;
        long long k = res.cells[cell] ? atoll(res.cells[cell]) : -1;
        if (res.types[cell] != EV_SQL_INT || k < 0 || k >= c->nranks) {
            fprintf(stderr, "drdb: foreach: row %zu: rank '%s' is not a rank "
                    "of the run (0-%d)\n", r + 1,
                    res.cells[cell] ? res.cells[cell] : "NULL", c->nranks - 1);
            rc = -1;
        }
    }
    if (rc == 0 && !res.nrows)
        fprintf(stderr, "drdb: foreach: the query returned no rows: the body "
                "ran 0 times\n");
    con__flow_enter(f);
    f->loops++;
    struct rankset saved;
    int changed = con__focus_on(c, &a->set, &saved);
    if (!changed && rankcol >= 0 && rs_init(&saved, c->nranks) == 0) {
        rs_copy(&saved, &c->focus);
        changed = 1;
    }
    for (size_t r = 0; rc == 0 && r < res.nrows; r++) {
        if (check_stop(c, what, (long)r) < 0) {
            rc = -1;
            break;
        }
        if (rankcol >= 0) {
            rs_clear(&c->focus);
            rs_add(&c->focus, atoi(ev_sql_cell(&res, r, rankcol)));
        }
        struct flow_frame fr = {&res, r, NULL, 0, NULL, f->top};
        f->top = &fr;
        rc = con__run_body(c, &b, what, (long)r);
        f->top = fr.up;
        if (rc < 0 || !loop_next(f))
            break;
    }
    con__focus_back(c, &saved, changed);
    f->loops--;
    con__flow_leave(f);
    ev_sql_result_release(&res);
    con__body_release(&b);
    return rc;
}

static int loop_jump(struct con *c, struct con_args *a, int brk)
{
    struct con_flow *f = con__flow_get(c);
    (void)a;
    if (!f || !f->loops) {
        fprintf(stderr, "drdb: '%s' is only for the body of a 'while' or a "
                "'foreach'\n", brk ? "loop_break" : "loop_continue");
        return -1;
    }
    *(brk ? &f->brk : &f->cont) = 1;
    return 0;
}

static int cmd_loop_break(struct con *c, struct con_args *a)
{
    return loop_jump(c, a, 1);
}

static int cmd_loop_continue(struct con *c, struct con_args *a)
{
    return loop_jump(c, a, 0);
}

const struct con_cmd con_cmds_flow[] = {
    {"foreach", NULL, "foreach (SELECT ...)",
     "run the lines up to 'end' once per row; $COLUMN: its value, the "
     "row's rank the focus", 0, NULL, cmd_foreach, NULL},
    {"if", NULL, "if COND|(SELECT ...)",
     "run the lines up to 'else' or 'end' if COND is true on every rank", 0,
     NULL, cmd_if, NULL},
    {"loop_break", NULL, "loop_break", "leave the innermost while or foreach",
     0, ".", cmd_loop_break, NULL},
    {"loop_continue", NULL, "loop_continue",
     "the next iteration of the innermost while or foreach", 0, ".",
     cmd_loop_continue, NULL},
    {"while", NULL, "while COND|(SELECT ...)",
     "run the lines up to 'end' while COND is true on every rank", 0, NULL,
     cmd_while, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
