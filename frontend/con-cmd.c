/*
 * The dispatcher: the one command table (every family's entries, cmd-*.c,
 * in one order), unique prefixes, the preconditions a command's flags ask
 * for, enforced here for all of them, its arguments parsed by its template
 * (con-args.c), command lines and scripts; `help` (and docs/commands.md)
 * and `source`, which need the table and the dispatcher.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "con.h"
#include "fe.h"
#include "log-reader.h"
#include "log.h"

static int cmd_help(struct con *c, struct con_args *a);
static void print_help(const struct con_cmd *k);
static int is_help(const char *rest);
static int cmd_source(struct con *c, struct con_args *a);
static int one_gdb(struct con *c, const struct rankset *set);

static const struct con_cmd con_cmds_dispatch[] = {
    {"help", "h", "help [COMMAND]", "the commands, or one in full", 0, NULL,
     cmd_help, NULL},
    {"source", NULL, "source FILE", "run the commands of FILE", 0, NULL,
     cmd_source, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};

static const struct con_cmd *const families[] = {
    con_cmds_exec,    con_cmds_events, con_cmds_break,    con_cmds_data,
    con_cmds_session, con_cmds_ckpt,   con_cmds_dispatch, con_cmds_bisect,
    con_cmds_flow,    con_cmds_user,   con_cmds_graph,    con_cmds_check,
};

/* The table's order: alphabetical, except that a name's '-' forms come
 * before it ("goto-send", then "goto"), as the listing always was. */
static int order_key(char ch)
{
    return ch == '-' ? 0 : ch == '\0' ? 1 : (unsigned char)ch + 2;
}

static int cmp_names(const char *a, const char *b)
{
    for (; *a && *a == *b; a++, b++)
        ;
    return order_key(*a) - order_key(*b);
}

const struct con_cmd *con_cmd_next(const struct con_cmd *prev)
{
    const struct con_cmd *best = NULL;
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const struct con_cmd *k = families[f]; k->name; k++)
            if ((!prev || cmp_names(k->name, prev->name) > 0) &&
                (!best || cmp_names(k->name, best->name) < 0))
                best = k;
    return best;
}

int con_cmd_is_alias(const struct con_cmd *k, const char *name, size_t len)
{
    for (const char *a = k->alias; a && *a;) {
        size_t n = strcspn(a, " ");
        if (n == len && strncmp(a, name, len) == 0)
            return 1;
        a += n + (a[n] == ' ');
    }
    return 0;
}

/* The command named NAME, its alias or its unique prefix; NULL, with the
 * number of commands NAME is a prefix of in *MATCHES. */
static const struct con_cmd *lookup(const char *name, size_t len,
                                    int *matches)
{
    const struct con_cmd *found = NULL;
    *matches = 0;
    /* the families in place, not in the table's order (con_cmd_next is
     * quadratic): names and aliases are unique, so the answer is the
     * same, and a loop's body looks commands up at every line */
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const struct con_cmd *k = families[f]; k->name; k++) {
            if ((strlen(k->name) == len && strncmp(k->name, name, len) == 0) ||
                con_cmd_is_alias(k, name, len))
                return k;
            if (strncmp(k->name, name, len) == 0) {
                found = k;
                ++*matches;
            }
        }
    return *matches == 1 ? found : NULL;
}

const struct con_cmd *con_cmd_lookup(const char *name, size_t len)
{
    int matches;
    return lookup(name, len, &matches);
}

const char *con_cmd_usage(const struct con_cmd *k, char *buf, size_t len)
{
    char syn[900];
    const char *o = strstr(k->usage, "[OPTIONS]");
    if (!o || !k->opts)
        return k->usage;
    fe_opts_synopsis(k->opts, syn, sizeof syn);
    snprintf(buf, len, "%.*s%s%s", (int)(o - k->usage), k->usage, syn,
             o + strlen("[OPTIONS]"));
    return buf;
}

void con_cmds_markdown(FILE *out)
{
    fprintf(out, "# Console commands\n\nGenerated from the console's command "
            "table (`frontend/con-cmd.c`). Any command runs on a rank set "
            "once with `@SET` before its name, as its first argument or as "
            "the line's last word (`@1 kill`, `kill @1`, `print rank @0`); "
            "`focus SET` changes the default.\n\n| command | alias | what "
            "it does |\n|---|---|---|\n");
    for (const struct con_cmd *k = con_cmd_next(NULL); k;
         k = con_cmd_next(k)) {
        /* a '|' splits a table cell, even in a code span: escaped */
        char usage[1024];
        fputs("| `", out);
        for (const char *u = con_cmd_usage(k, usage, sizeof usage); *u; u++)
            fputs(*u == '|' ? "\\|" : (char[]){*u, 0}, out);
        fprintf(out, "` | %s | %s |\n", k->alias ? k->alias : "",
                k->summary);
    }
}

/* ---- command lines ------------------------------------------------------- */

/* Whether [P, P+N) is a rank-set token: a whole word starting with '@'. */
static int set_token(const char *p, size_t n)
{
    return n && *p == '@';
}

/* Parses the rank-set token [TOK, TOK+N) into SET, unless the line had one
 * already (*GIVEN): two are an error, never a guess. 0 or -1 (reported). */
static int take_set(struct con *c, const char *tok, size_t n,
                    struct rankset *set, int *given)
{
    if (*given) {
        fprintf(stderr, "drdb: two rank sets on one line ('%.*s'): give one "
                "@SET, before or after the command\n", (int)n, tok);
        return -1;
    }
    *given = 1;
    return con_parse_set(c, tok + 1, n - 1, set);
}

/* The rank-set rule, for every command: a word starting with '@' before
 * the command's name, as its first argument, or as the line's last word
 * (before a trailing '&') is the command's rank set; the rest of the line,
 * without it, is the command's text (*ARGS, malloc'd); *GIVEN is set
 * when the line has one. CMDLEN: the length of the name at NAME. A command that takes a set as its argument
 * (CON_SET_ARG) keeps the words after its name. 0, or -1 (reported). */
static int split_sets(struct con *c, const struct con_cmd *cmd,
                      const char *name, size_t cmdlen, struct rankset *set,
                      int *given, char **args)
{
    const char *p = name + cmdlen;
    p += strspn(p, " \t");
    size_t len = strlen(p);
    while (len && isspace((unsigned char)p[len - 1]))
        len--;
    char *t = malloc(len + 1);
    if (!t)
        return -1;
    memcpy(t, p, len);
    t[len] = '\0';
    *args = t;
    if (cmd->flags & CON_SET_ARG)
        return 0;
    /* the first word */
    size_t n = con_word_len(t);
    if (set_token(t, n)) {
        if (take_set(c, t, n, set, given) < 0)
            return -1;
        n += strspn(t + n, " \t");
        memmove(t, t + n, strlen(t + n) + 1);
    }
    /* the last word, or the one before a trailing '&' */
    size_t end = strlen(t), amp = end;
    if (end && t[end - 1] == '&' &&
        (end == 1 || isspace((unsigned char)t[end - 2]))) {
        amp = end - 1;
        while (amp && isspace((unsigned char)t[amp - 1]))
            amp--;
    }
    /* words from the start: a "{...}" in one holds spaces */
    size_t b = 0;
    for (size_t w = 0; w < amp; w += strspn(t + w, " \t")) {
        b = w;
        w += con_word_len(t + w);
    }
    if (set_token(t + b, amp - b)) {
        if (take_set(c, t + b, amp - b, set, given) < 0)
            return -1;
        memmove(t + b, t + amp, end - amp + 1);
        size_t m = strlen(t);
        while (m && isspace((unsigned char)t[m - 1]))
            t[--m] = '\0';
    }
    return 0;
}

int con_runnable(struct con *c, struct rankset *set, int flags,
                 const char *name)
{
    /* Ranks not started yet start now, unless the command starts those
     * it needs itself. */
    if (!(flags & CON_LAZY_OK) && con_start_deferred(c, set) < 0 &&
        c->interrupted)
        return -1;
    /* Only replayed ranks take commands; say which are left out. */
    struct rankset off;
    char buf[256];
    if (rs_init(&off, c->nranks) < 0)
        return -1;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) &&
            !(c->ranks[r]->state == CON_DEFERRED && (flags & CON_LAZY_OK)) &&
            (!c->ranks[r]->gdb || c->ranks[r]->state == CON_LOST ||
             ((flags & CON_NEEDS_STOPPED) && !con_rank_halted(c->ranks[r])))) {
            rs_add(&off, r);
            rs_del(set, r);
        }
    if (rs_count(&off))
        fprintf(stderr, "drdb: [%s] %s\n", rs_format(&off, buf, sizeof buf),
                flags & CON_NEEDS_STOPPED
                    ? "not stopped (or not replayed): left out"
                    : "not replayed: left out ('replay @SET' starts ranks)");
    rs_release(&off);
    if (!rs_count(set)) {
        fprintf(stderr, "drdb: '%s': no rank to run it on\n", name);
        return -1;
    }
    return 0;
}

/* GDB's commands the console does not define run on their set through
 * this entry (con-gdb.c): the line as typed, its @SET taken out. */
static int cmd_gdb_default(struct con *c, struct con_args *a)
{
    return con_passthrough(c, &a->set, a->text);
}

static const struct con_cmd gdb_default = {
    "gdb", NULL, "COMMAND", "a GDB command", CON_NEEDS_STOPPED |
    CON_NEEDS_RANKS, NULL, cmd_gdb_default, NULL};

/* Ranks of SET that are not started yet: the first starts, so that a GDB
 * can say which command a word is (0, or -1 when none could). */
static int one_gdb(struct con *c, const struct rankset *set)
{
    for (int r = 0; r < c->nranks; r++)
        if (c->ranks[r]->gdb && c->ranks[r]->state != CON_LOST)
            return 0;
    struct rankset one;
    if (rs_init(&one, c->nranks) < 0)
        return -1;
    for (int r = 0; r < c->nranks && !rs_count(&one); r++)
        if (rs_has(set, r) && c->ranks[r]->state == CON_DEFERRED)
            rs_add(&one, r);
    int rc = rs_count(&one) ? con_start_deferred(c, &one) : -1;
    rs_release(&one);
    return rc;
}

/* GDB's command CANON as the console takes it: the console's command
 * that gives it its drdb meaning, or GDB's own (CON_MEANS_GDB); refused
 * (CON_MEANS_REFUSED, *WHY the reason). */
static const struct con_cmd *gdb_meaning(const char *canon, int *means,
                                         const char **why)
{
    const char *mine = con_gdb_caught(canon, why);
    if (!mine && *why) {
        *means = CON_MEANS_REFUSED;
        return NULL;
    }
    const struct con_cmd *k = con_cmd_lookup(mine ? mine : canon,
                                             strlen(mine ? mine : canon));
    *means = k ? CON_MEANS_CONSOLE : CON_MEANS_GDB;
    return k ? k : &gdb_default;
}

const struct con_cmd *con_cmd_meaning(struct con *c, const char *name,
                                      size_t len, int *means,
                                      const char **canon, const char **why)
{
    *canon = *why = NULL;
    *means = CON_MEANS_CONSOLE;
    int matches, amb = 0;
    const struct con_cmd *cmd = con_flow_cmd(c, name, len), *mine;
    if (cmd)
        return cmd;
    mine = lookup(name, len, &matches);
    if (mine && (strlen(mine->name) == len || con_cmd_is_alias(mine, name,
                                                               len)))
        return mine; /* its name or alias, as typed */
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)len, name);
    if ((*canon = con_gdb_exact(c, word)) != NULL)
        return gdb_meaning(*canon, means, why);
    *canon = con_gdb_resolve(c, &c->focus, name, len, &amb);
    const struct con_cmd *theirs = NULL;
    int gdb_own = 0;
    if (*canon && !amb) {
        const char *m = con_gdb_caught(*canon, why);
        theirs = m || !*why ? con_cmd_lookup(m ? m : *canon,
                                             strlen(m ? m : *canon))
                            : NULL;
        gdb_own = !theirs;
    }
    /* a unique prefix of the console's that GDB's commands share only
     * where they are the same command */
    if (mine && !amb && !gdb_own && (!theirs || theirs == mine))
        return mine;
    if (!mine && matches == 0 && *canon && !amb)
        return gdb_meaning(*canon, means, why);
    *means = matches || amb || *canon ? CON_MEANS_AMBIGUOUS
                                      : CON_MEANS_UNKNOWN;
    return NULL;
}

/* The command NAME (LEN bytes) names (con_cmd_meaning), a GDB started to
 * tell GDB's commands when none is: the console's command (*GDB set:
 * GDB's own, run through gdb_default), or NULL after saying why not (a
 * refused GDB command, an ambiguous or unknown word). */
static const struct con_cmd *resolve(struct con *c, const struct rankset *set,
                                     const char *name, size_t len, int *gdb)
{
    int means;
    const char *canon, *why;
    const struct con_cmd *cmd = con_cmd_lookup(name, len);
    if (!con_flow_cmd(c, name, len) &&
        (!cmd || !(strlen(cmd->name) == len ||
                   con_cmd_is_alias(cmd, name, len))))
        one_gdb(c, set); /* (not for the console's own names) */
    cmd = con_cmd_meaning(c, name, len, &means, &canon, &why);
    *gdb = means == CON_MEANS_GDB;
    if (cmd)
        return cmd;
    if (means == CON_MEANS_REFUSED) {
        fprintf(stderr, "drdb: '%.*s' (GDB's %s) is not passed to the "
                "ranks' GDBs: %s\n", (int)len, name, canon, why);
    } else if (means == CON_MEANS_AMBIGUOUS) {
        fprintf(stderr, "drdb: ambiguous command '%.*s', could be:",
                (int)len, name);
        for (const struct con_cmd *k = con_cmd_next(NULL); k;
             k = con_cmd_next(k))
            if (strncmp(k->name, name, len) == 0)
                fprintf(stderr, " %s", k->name);
        con_gdb_candidates(c, name, len, stderr);
        fputc('\n', stderr);
    } else {
        fprintf(stderr, "drdb: undefined command: \"%.*s\": neither the "
                "console's nor GDB's ('help' lists the console's)\n",
                (int)len, name);
    }
    return NULL;
}

/* The @SET among the words at P (the first or the last, as split_sets
 * takes them) into SET when it names ranks; silent (split_sets reports a
 * bad one) and no query run ({...}: SET stays). */
static void hint_set(struct con *c, const char *p, struct rankset *set)
{
    const char *tok = NULL;
    size_t n = 0;
    for (p += strspn(p, " \t"); *p; p += strspn(p, " \t")) {
        size_t w = con_word_len(p);
        if (!w)
            break;
        if (*p == '@' && (!tok || !p[w + strspn(p + w, " \t&")])) {
            tok = p;
            n = w;
        }
        p += w;
    }
    struct rankset t;
    if (!tok || n < 2 || tok[1] == '{' || rs_init(&t, c->nranks) < 0)
        return;
    if (con_parse_set_quiet(c, tok + 1, n - 1, &t) == 0 && rs_count(&t))
        rs_copy(set, &t);
    rs_release(&t);
}

/* Runs LINE on SET (the focus, or the line's @SET). */
static int execute(struct con *c, const char *line, struct rankset *set)
{
    const char *whole = line;
    int given = 0, gdb;
    if (*line == '@') {
        const char *s = line + 1, *e = s + con_word_len(s);
        if (con_parse_set(c, s, (size_t)(e - s), set) < 0)
            return -1;
        given = 1;
        line = e;
        while (isspace((unsigned char)*line))
            line++;
    }
    /* the name ends at a space or, as in GDB, at a '/' (x/4xw, p/x) */
    const char *e = line;
    while (*e && !isspace((unsigned char)*e) && (*e != '/' || e == line))
        e++;
    /* (a GDB to say what the word is comes from the line's @SET when it
     * has one after the name) */
    struct rankset hint;
    if (rs_init(&hint, c->nranks) < 0)
        return -1;
    rs_copy(&hint, set);
    if (!given)
        hint_set(c, e, &hint);
    const struct con_cmd *cmd = resolve(c, &hint, line, (size_t)(e - line),
                                        &gdb);
    rs_release(&hint);
    if (!cmd)
        return -1;
    if (!gdb && is_help(e)) { /* CMD --help: as 'help CMD' */
        print_help(cmd);
        return 0;
    }
    char *text = NULL;
    if (split_sets(c, cmd, line, (size_t)(e - line), set, &given, &text) < 0) {
        free(text);
        return -1;
    }
    if (gdb) { /* GDB's command as typed, its @SET taken out */
        char *full = NULL;
        if (asprintf(&full, "%.*s%s%s", (int)(e - line), line,
                     *text && *e != '/' ? " " : "", text) < 0) {
            free(text);
            return -1;
        }
        free(text);
        text = full;
    }
    int rc;
    int64_t t0 = mi_now_ms(); /* with the ranks it starts */
    if ((cmd->flags & CON_NEEDS_RANKS) &&
        con_runnable(c, set, cmd->flags, gdb ? "gdb" : cmd->name) < 0) {
        free(text);
        return -1;
    }
    struct con_args args;
    rc = con_args_parse(c, cmd, set, text, &args);
    free(text);
    if (rc < 0)
        return -1;
    args.given = given;
    rc = cmd->run(c, &args);
    con_args_release(&args);
    if (c->timing)
        fprintf(stderr, "drdb: '%s' took %lld ms\n", whole,
                (long long)(mi_now_ms() - t0));
    return rc;
}

int con_execute(struct con *c, const char *line)
{
    c->interrupted = 0;
    while (isspace((unsigned char)*line))
        line++;
    if (!*line || *line == '#')
        return 0;
    con_host_check(c); /* a connection lost while idle loses its ranks */
    struct rankset set;
    if (rs_init(&set, c->nranks) < 0)
        return -1;
    rs_copy(&set, &c->focus);
    con_json_begin(c);
    int rc = execute(c, line, &set);
    con_json_end(c, line, &set, rc);
    rs_release(&set);
    con_keep_update(c); /* --keep: the note as the command left things */
    return rc;
}

/* A script being read: the body of a block comes from its next lines. */
struct script {
    FILE *f;
    char *line;
    size_t cap;
    int lineno;
};

static char *script_line(struct script *s)
{
    if (getline(&s->line, &s->cap, s->f) <= 0)
        return NULL;
    s->lineno++;
    s->line[strcspn(s->line, "\n")] = '\0';
    return s->line;
}

static char *script_body(struct con *c, const char *intro)
{
    (void)intro;
    char *l = script_line(c->read_ud);
    return l ? strdup(l) : NULL;
}

/* Scripts sourced deeper than this stop: a script that sources itself
 * would otherwise run until the open files run out, each level saying
 * its failure. Each level holds its file open: far below that limit. */
#define CON_MAX_SOURCE_DEPTH 64

/* Runs FILE's commands (con_source, one level). */
static int source_file(struct con *c, const char *file)
{
    struct script s = {strcmp(file, "-") == 0 ? stdin : fopen(file, "r"),
                       NULL, 0, 0};
    int rc = 0;
    if (!s.f) {
        fprintf(stderr, "drdb: cannot read '%s': %s\n", file,
                strerror(errno));
        return -1;
    }
    char *(*read_body)(struct con *, const char *) = c->read_body;
    void *read_ud = c->read_ud;
    int echo = c->echo;
    c->read_body = script_body;
    c->read_ud = &s;
    c->echo = !c->json;
    for (char *line; !c->quit && (line = script_line(&s));) {
        const char *p = line + strspn(line, " \t");
        int at = s.lineno;
        if (!*p || *p == '#')
            continue;
        if (!c->json) {
            printf("(drdb) %s\n", p);
            fflush(stdout);
        }
        /* the line may be read again (a block's body): kept */
        char *cmd = strdup(p);
        if (!cmd || con_execute(c, cmd) < 0) {
            if (!c->source_unwind)
                fprintf(stderr, "drdb: %s:%d: '%s' failed\n", file, at,
                        cmd ? cmd : p);
            rc = -1;
        }
        free(cmd);
        if (rc < 0 && (!c->keep_going || c->source_unwind))
            break;
    }
    c->read_body = read_body;
    c->read_ud = read_ud;
    c->echo = echo;
    free(s.line);
    if (s.f != stdin)
        fclose(s.f);
    return rc;
}

int con_source(struct con *c, const char *file)
{
    if (c->source_depth >= CON_MAX_SOURCE_DEPTH) {
        fprintf(stderr, "drdb: source '%s': scripts sourced %d deep (a "
                "script that sources itself?): stopped; give 'source' a "
                "condition (if) or source the file once\n", file,
                CON_MAX_SOURCE_DEPTH);
        c->source_unwind = 1;
        return -1;
    }
    c->source_depth++;
    int rc = source_file(c, file);
    if (--c->source_depth == 0)
        c->source_unwind = 0;
    return rc;
}

/* ---- help, source -------------------------------------------------------- */

static void print_help(const struct con_cmd *k)
{
    char usage[1024];
    printf("usage: [@SET] %s\n%s%s%s\n", con_cmd_usage(k, usage,
                                                         sizeof usage),
           k->summary,
           k->alias ? "\nalias: " : "", k->alias ? k->alias : "");
    if (k->opts) {
        printf("options:\n");
        fe_opts_help(k->opts, stdout);
    }
}

/* Whether the rest of a command line REST is "--help": every command
 * answers it with its help, as drdb's own commands do. (Not "-h": `print
 * -h` prints minus h.) */
static int is_help(const char *rest)
{
    while (isspace((unsigned char)*rest))
        rest++;
    size_t n = strcspn(rest, " \t\r\n");
    const char *end = rest + n;
    while (isspace((unsigned char)*end))
        end++;
    return !*end && n == 6 && !strncmp(rest, "--help", 6);
}

static int cmd_help(struct con *c, struct con_args *args)
{
    const char *a = args->text;
    if (*a) {
        size_t n = strcspn(a, " \t");
        const struct con_cmd *k = con_flow_cmd(c, a, n);
        if (!k)
            k = con_cmd_lookup(a, n);
        if (k) {
            print_help(k);
            return 0;
        }
        /* GDB's command: GDB's help, from one rank (no rank's: help is
         * the same in each); 'help all' lists the console's too */
        char cli[600], *t = NULL;
        int r, rc;
        one_gdb(c, &args->set);
        for (r = 0; r < c->nranks && (!c->ranks[r]->gdb ||
                                      c->ranks[r]->state == CON_LOST); r++)
            ;
        if (r == c->nranks) {
            fprintf(stderr, "drdb: no started rank to ask GDB's help of\n");
            return -1;
        }
        snprintf(cli, sizeof cli, "help %.500s", a);
        rc = con_cli_sync(c, r, cli, &t);
        if (t)
            printf("%s\n", t);
        free(t);
        if (rc == 0 && strcmp(a, "all") == 0) {
            printf("\nCommand class: drdb, the console's own\n\n");
            for (const struct con_cmd *d = con_cmd_next(NULL); d;
                 d = con_cmd_next(d))
                printf("%s%s%s -- %s\n", d->name, d->alias ? ", " : "",
                       d->alias ? d->alias : "", d->summary);
        }
        return rc;
    }
    printf("the console's commands (any unique prefix works; any other "
           "command is GDB's:\nit runs on each rank of the set, its answers "
           "merged; 'help COMMAND' for GDB's help):\n");
    for (const struct con_cmd *k = con_cmd_next(NULL); k;
         k = con_cmd_next(k))
        printf("  %-34s %s\n", k->usage, k->summary);
    printf("rank sets: a word starting with '@' before the command, as its "
           "first argument\n  or as the line's last word is its rank set "
           "(else the focus):\n    @1 kill   kill @1   print @0 rank   "
           "print rank @0   continue @3 &\n  a bad set is an error; write "
           "GDB's arr[0]@4 without a space before '@'\n  sets: 0-3,8  names "
           "(all stopped running exited diverged lost, defset)\n  operators: "
           "',' union, '&' intersection, '!' difference, (...)\n  a query's "
           "ranks: @{SELECT rank FROM ...}; events: {SELECT rank, seq ...}\n"
           "blocks, each ended by 'end': foreach (SELECT ...), if COND "
           "[else], while COND,\n  define NAME, document NAME; $COLUMN of "
           "a foreach's row, $arg0 of a define\n");
    con_flow_help(c);
    return 0;
}

static int cmd_source(struct con *c, struct con_args *a)
{
    if (!*a->text) {
        fprintf(stderr, "drdb: source FILE\n");
        return -1;
    }
    return con_source(c, a->text);
}
