/*
 * Data commands: print, backtrace (stacks merged into a tree), info, the
 * GDB commands passed through with their answers merged (list, ptype,
 * whatis, x, frame, up, down, gdb), assert.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "con.h"

static char *fmt_value(const struct mi_reply *r, const char *expr)
{
    const char *v = mi_get_str(r->record, "value");
    char *t = NULL;
    if (asprintf(&t, "%s = %s", expr, v ? v : "?") < 0)
        return NULL;
    return t;
}

static int cmd_print(struct con *c, struct con_args *a)
{
    if (!*a->text) {
        fprintf(stderr, "drdb: print EXPRESSION\n");
        return -1;
    }
    char *mi = con_mi_arg("-data-evaluate-expression", a->text);
    int rc = mi ? con_run_merged(c, &a->set, mi, fmt_value, a->text) : -1;
    free(mi);
    return rc;
}

/* Backtraces merged into a prefix tree, outermost frame first: ranks
 * share a node as long as their stacks agree. */
struct frame_node {
    char *text;
    struct rankset set;
    struct frame_node **kids;
    int nkids;
};

static struct frame_node *node_new(const char *text, int n)
{
    struct frame_node *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->text = strdup(text);
    rs_init(&f->set, n);
    return f;
}

static void node_free(struct frame_node *f)
{
    for (int i = 0; i < f->nkids; i++)
        node_free(f->kids[i]);
    free(f->kids);
    free(f->text);
    rs_release(&f->set);
    free(f);
}

static void node_print(const struct frame_node *f, int depth)
{
    char buf[256];
    for (int i = 0; i < f->nkids; i++) {
        const struct frame_node *k = f->kids[i];
        printf("[%s]%*s %s%s\n", rs_format(&k->set, buf, sizeof buf),
               2 * depth, "", depth ? "`- " : "", k->text);
        node_print(k, depth + 1);
    }
}

/*
 * Rank R's frames as backtrace lines, innermost first, into TEXTS (at most
 * MAX): "#N  func (args) at file:line" with GDB's frame numbers, so that
 * `frame N` and `up N` work from them. A run of the replay stub's frames
 * shows as its outermost one (the MPI function the program called), with
 * how many it stands for: the frame the rank is in is never hidden, only
 * summed up. The number of lines, or -1 after an error (printed).
 */
static int rank_frames(struct con *c, int r, char **texts, int max)
{
    struct mi_reply rep, ra;
    int k = 0;
    if (mi_gdb_exec_sync(c->ranks[r].gdb, "-stack-list-frames", &rep,
                         c->timeout_ms) != 0) {
        printf("[%d] error: %s\n", r, rep.message ? rep.message : "no "
               "answer");
        mi_reply_release(&rep);
        return -1;
    }
    int have_args = mi_gdb_exec_sync(c->ranks[r].gdb,
                                     "-stack-list-arguments --simple-values",
                                     &ra, c->timeout_ms) == 0;
    const struct mi_value *stack = mi_get(rep.record, "stack");
    const struct mi_value *sargs = have_args ? mi_get(ra.record, "stack-args")
                                             : NULL;
    const struct mi_value *fa = sargs ? sargs->first : NULL;
    char stubsrc[1024];
    int hidden = 0;
    con_stub_source_dir(stack, stubsrc, sizeof stubsrc);
    for (const struct mi_value *fr = stack ? stack->first : NULL;
         fr && k < max; fr = fr->next, fa = fa ? fa->next : NULL) {
        const struct mi_value *args = fa ? mi_value_get(fa, "args") : NULL;
        const struct mi_value *lv = mi_value_get(fr, "level");
        if (con_stub_frame(c, stubsrc, fr) && fr->next &&
            con_stub_frame(c, stubsrc, fr->next)) {
            hidden++; /* summed up in the run's outermost */
            continue;
        }
        char *ft = con_frame_text(fr, args);
        char more[64] = "";
        if (hidden)
            snprintf(more, sizeof more, " [and %d inner frame%s of the "
                     "replay stub]", hidden, hidden > 1 ? "s" : "");
        hidden = 0;
        if (ft)
            asprintf(&texts[k++], "#%-2s %s%s", lv && lv->str ? lv->str : "?",
                     ft, more);
        free(ft);
    }
    if (have_args)
        mi_reply_release(&ra);
    mi_reply_release(&rep);
    return k;
}

static int cmd_backtrace(struct con *c, struct con_args *a)
{
    const struct rankset *set = &a->set;
    long long limit = 0;
    if (*a->text && fe_parse_int(a->text, 0, INT_MAX, &limit) < 0) {
        fprintf(stderr, "drdb: backtrace [N]: '%s' is not a number of "
                "frames\n", a->text);
        return -1;
    }
    struct frame_node *root = node_new("", c->nranks);
    enum { MAX_FRAMES = 4096 };
    char **texts = calloc(MAX_FRAMES, sizeof *texts);
    int rc = 0;
    if (!root || !texts) {
        free(texts);
        if (root)
            node_free(root);
        return -1;
    }
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        int k = rank_frames(c, r, texts, MAX_FRAMES);
        if (k < 0) {
            rc = -1;
            continue;
        }
        /* Outermost first; with a limit, only the innermost LIMIT. */
        struct frame_node *at = root;
        int from = k - 1, to = limit > 0 && limit < k ? k - (int)limit : 0;
        for (int i = from; i >= to; i--) {
            struct frame_node *next = NULL;
            for (int j = 0; j < at->nkids && !next; j++)
                if (strcmp(at->kids[j]->text, texts[i]) == 0)
                    next = at->kids[j];
            if (!next) {
                struct frame_node **nk = realloc(at->kids, (size_t)(at->nkids + 1)
                                                               * sizeof *nk);
                next = node_new(texts[i], c->nranks);
                if (!nk || !next) {
                    free(next);
                    break;
                }
                at->kids = nk;
                at->kids[at->nkids++] = next;
            }
            rs_add(&next->set, r);
            at = next;
        }
        for (int i = 0; i < k; i++) {
            free(texts[i]);
            texts[i] = NULL;
        }
    }
    free(texts);
    node_print(root, 0);
    fflush(stdout);
    node_free(root);
    return rc;
}

/* Commands GDB's CLI does well: passed through, answers merged. */
static int cli_word(struct con *c, struct con_args *a, const char *word)
{
    char cli[4096];
    snprintf(cli, sizeof cli, "%s %s", word, a->text);
    return con_passthrough(c, &a->set, cli);
}

static int cmd_info(struct con *c, struct con_args *a)
{
    char w[64];
    const char *rest;
    size_t n;
    con_args_word(a, w, sizeof w, &rest);
    n = strlen(w);
    if (n && strncmp("breakpoints", w, n) == 0 && (n > 1 || w[0] == 'b')) {
        con_bpt_info(c, a->given ? &a->set : NULL);
        return 0;
    }
    if (n > 1 && strncmp("display", w, n) == 0) {
        con_display_info(c, a->given ? &a->set : NULL);
        return 0;
    }
    if (strcmp("findings", w) == 0)
        return con_check_info(c, a->given ? &a->set : NULL);
    if (n > 1 && strncmp("sets", w, n) == 0) {
        char buf[256];
        for (int i = 0; i < c->nsets; i++)
            printf("%s = %s\n", c->sets[i].name,
                   rs_format(&c->sets[i].set, buf, sizeof buf));
        if (!c->nsets)
            printf("no named sets ('defset NAME SET' makes one)\n");
        return 0;
    }
    if (!rs_count(&a->set)) {
        fprintf(stderr, "drdb: info: no stopped rank to ask\n");
        return -1;
    }
    return cli_word(c, a, "info");
}

#define CLI(fn, word)                                                       \
    static int fn(struct con *c, struct con_args *a)                        \
    {                                                                       \
        return cli_word(c, a, word);                                        \
    }
CLI(cmd_list, "list")
CLI(cmd_ptype, "ptype")
CLI(cmd_whatis, "whatis")
CLI(cmd_x, "x")
CLI(cmd_frame, "frame")
CLI(cmd_up, "up")
CLI(cmd_down, "down")

static int cmd_gdb(struct con *c, struct con_args *a)
{
    if (!*a->text) {
        fprintf(stderr, "drdb: gdb COMMAND: which GDB command?\n");
        return -1;
    }
    return con_passthrough(c, &a->set, a->text);
}

/* assert EXPR: true (non-zero) on every rank of the set. */
static int cmd_assert(struct con *c, struct con_args *a0)
{
    const struct rankset *set = &a0->set;
    const char *a = a0->text;
    int n = rs_count(set), i = 0, bad = 0;
    struct rankset fails;
    char buf[256];
    if (!*a || rs_init(&fails, c->nranks) < 0) {
        fprintf(stderr, "drdb: assert EXPRESSION\n");
        return -1;
    }
    for (int r = 0; r < c->nranks && i < n; r++) {
        if (!rs_has(set, r))
            continue;
        i++;
        char *mi = con_mi_arg("-data-evaluate-expression", a);
        struct mi_reply rep;
        int st = mi ? mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep,
                                       c->timeout_ms)
                    : -1;
        const char *v = st == 0 ? mi_get_str(rep.record, "value") : NULL;
        if (v && strtol(v, NULL, 0) != 0)
            c->ranks[r].end_checked = con_rank_abnormal(&c->ranks[r]);
        if (!v || strtol(v, NULL, 0) == 0) {
            rs_add(&fails, r);
            printf("[%d] assert %s failed: %s\n", r, a,
                   v ? v : (rep.message ? rep.message : "no value"));
            bad = 1;
        }
        if (mi)
            mi_reply_release(&rep);
        free(mi);
    }
    if (!bad)
        printf("[%s] assert %s: true\n", rs_format(set, buf, sizeof buf), a);
    rs_release(&fails);
    return bad ? -1 : 0;
}

const struct con_cmd con_cmds_data[] = {
    {"assert", NULL, "assert EXPRESSION",
     "fail unless EXPRESSION is true on every rank",
     CON_NEEDS_RANKS, NULL, cmd_assert, NULL},
    {"backtrace", "bt where", "backtrace [N]",
     "the stack merged across ranks (#N: for frame N, up N)",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_backtrace, NULL},
    {"down", NULL, "down [N]", "select an inner frame",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_down, NULL},
    {"frame", "f", "frame [N]", "select or show a frame",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_frame, NULL},
    {"gdb", NULL, "gdb COMMAND", "any GDB command, answers merged",
     CON_NEEDS_RANKS, NULL, cmd_gdb, NULL},
    {"info", "i", "info breakpoints|sets|findings|locals|args|frame|...",
     "drdb's breakpoints, sets and check findings, or GDB's info merged", 0,
     NULL, cmd_info, NULL},
    {"list", "l", "list [LOCATION]", "source lines",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_list, NULL},
    {"print", "p", "print EXPRESSION", "evaluate, merged across ranks",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_print, NULL},
    {"ptype", NULL, "ptype EXPRESSION", "the type of an expression",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_ptype, NULL},
    {"up", NULL, "up [N]", "select an outer frame",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_up, NULL},
    {"whatis", NULL, "whatis EXPRESSION", "the type name of an expression",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_whatis, NULL},
    {"x", NULL, "x/FMT ADDRESS", "examine memory",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_x, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
