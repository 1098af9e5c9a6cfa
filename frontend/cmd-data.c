/*
 * Data commands: backtrace (stacks merged into a tree), info, gdb,
 * assert. (print, list, ptype, x, frame and the rest are GDB's: con-gdb.c
 * passes them through.)
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "con.h"

/*
 * backtrace: GDB's own (`bt full`, `bt -3`, `bt -frame-arguments all` and
 * the rest), each rank's frames of the replay stub left out but the
 * outermost of each run of them (the MPI function the program called),
 * which says how many it stands for. Ranks with the same stack print it
 * once; otherwise the stacks merge into a prefix tree, outermost frame
 * first, ranks sharing a node as long as their frames agree.
 */
struct frame_node {
    char *text; /* the frame's lines */
    struct rankset set;
    struct frame_node **kids;
    int nkids;
};

static struct frame_node *node_new(const char *text, size_t len, int n)
{
    struct frame_node *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->text = strndup(text, len);
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
        const char *t = k->text;
        size_t n = strcspn(t, "\n");
        printf("[%s]%*s %s%.*s\n", rs_format(&k->set, buf, sizeof buf),
               2 * depth, "", depth ? "`- " : "", (int)n, t);
        for (t += n; *t == '\n';) { /* bt full's locals */
            t++;
            n = strcspn(t, "\n");
            printf("%*s%.*s\n", 2 * depth + 6, "", (int)n, t);
            t += n;
        }
        node_print(k, depth + 1);
    }
}

/* The levels of rank R's frames that are the stub's, into STUB (MAX
 * long, 1 each): 0, or -1. */
static int stub_levels(struct con *c, int r, char *stub, int max)
{
    struct mi_reply rep;
    char stubsrc[1024];
    memset(stub, 0, (size_t)max);
    if (mi_gdb_exec_sync(c->ranks[r]->gdb, "-stack-list-frames", &rep,
                         c->timeout_ms) != 0) {
        mi_reply_release(&rep);
        return -1;
    }
    const struct mi_value *stack = mi_get(rep.record, "stack");
    con_stub_source_dir(stack, stubsrc, sizeof stubsrc);
    /* and the frames of libc's the stub called (a copy of a message),
     * inner to a stub's frame with no frame of the program's between */
    int run = 1; /* in the innermost frames, none the program's yet */
    for (const struct mi_value *fr = stack ? stack->first : NULL; fr;
         fr = fr->next) {
        const struct mi_value *lv = mi_value_get(fr, "level");
        int l = lv && lv->str ? atoi(lv->str) : -1;
        if (l < 0 || l >= max)
            continue;
        stub[l] = (char)con_stub_frame(c, stubsrc, fr);
        if (run && stub[l])
            memset(stub, 1, (size_t)l);
        else if (run && con_program_frame(c, stubsrc, fr))
            run = 0;
    }
    mi_reply_release(&rep);
    return 0;
}

/* Rank R's `backtrace ARGS` (GDB's words), its stub frames summed up
 * (malloc'd); its error in GDB's words (*FAILED set). */
static char *rank_bt(struct con *c, int r, const char *args, int *failed)
{
    enum { MAX = 4096 };
    char cli[4200], *mi, stub[MAX];
    struct mi_reply rep;
    int have = stub_levels(c, r, stub, MAX) == 0, drop = 0, hidden = 0;
    /* `backtrace N` shows N frames, the ones summed up not counted: as
     * many more are asked of GDB as there are innermost ones summed up */
    const char *last = strrchr(args, ' ');
    last = last ? last + 1 : args;
    long want = *last && strspn(last, "0123456789") == strlen(last)
        ? strtol(last, NULL, 10) : 0;
    int inner = 0;
    while (have && want > 0 && inner + 1 < MAX && stub[inner] &&
           stub[inner + 1])
        inner++;
    if (inner)
        snprintf(cli, sizeof cli, "backtrace %.*s%ld", (int)(last - args),
                 args, want + inner);
    else
        snprintf(cli, sizeof cli, "backtrace%s%s", *args ? " " : "", args);
    if (!(mi = con_mi_console(cli)))
        return NULL;
    int st = mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep, c->timeout_ms);
    free(mi);
    if (st != 0) {
        char *t = strdup(rep.message ? rep.message : mi_strerror(st));
        mi_reply_release(&rep);
        *failed = 1;
        return t;
    }
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    for (const char *l = rep.console ? rep.console : ""; f && *l;) {
        size_t n = strcspn(l, "\n");
        if (*l == '#' && have) {
            int lv = atoi(l + 1);
            int is = lv >= 0 && lv < MAX && stub[lv];
            int next = lv + 1 < MAX && stub[lv + 1];
            drop = is && next; /* summed up in the run's outermost */
            hidden += drop;
            if (!drop && is && hidden) {
                fprintf(f, "%.*s [and %d inner frame%s of the replay "
                        "stub]\n", (int)n, l, hidden, hidden > 1 ? "s" : "");
                hidden = 0;
                l += n + (l[n] == '\n');
                continue;
            }
            if (!is)
                hidden = 0;
        }
        if (!drop)
            fprintf(f, "%.*s\n", (int)n, l);
        l += n + (l[n] == '\n');
    }
    mi_reply_release(&rep);
    if (f)
        fclose(f);
    while (len && out[len - 1] == '\n')
        out[--len] = '\0';
    return out;
}

/* Adds rank R's frames TEXT (innermost first, a frame's lines from its
 * "#N" line to the next) to the tree at ROOT, outermost first. */
static void tree_add(struct frame_node *root, int r, const char *text,
                     int nranks)
{
    const char *starts[4096];
    size_t lens[4096];
    int n = 0;
    for (const char *l = text; *l && n < 4096;) {
        const char *e = l;
        do { /* the frame's lines */
            e += strcspn(e, "\n");
            if (*e == '\n')
                e++;
        } while (*e && *e != '#');
        starts[n] = l;
        lens[n] = (size_t)(e - l) - (e > l && e[-1] == '\n');
        n++;
        l = e;
    }
    struct frame_node *at = root;
    for (int i = n - 1; i >= 0; i--) {
        struct frame_node *next = NULL;
        for (int j = 0; j < at->nkids && !next; j++)
            if (strlen(at->kids[j]->text) == lens[i] &&
                !strncmp(at->kids[j]->text, starts[i], lens[i]))
                next = at->kids[j];
        if (!next) {
            struct frame_node **nk = realloc(at->kids, (size_t)(at->nkids + 1)
                                                           * sizeof *nk);
            if (!nk || !(next = node_new(starts[i], lens[i], nranks))) {
                if (nk)
                    at->kids = nk;
                return;
            }
            at->kids = nk;
            at->kids[at->nkids++] = next;
        }
        rs_add(&next->set, r);
        at = next;
    }
}

static int cmd_backtrace(struct con *c, struct con_args *a)
{
    int n = rs_count(&a->set), k = 0, failed = 0, differ = 0;
    struct con_answer *ans = calloc((size_t)n + 1, sizeof *ans);
    if (!ans)
        return -1;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(&a->set, r))
            continue;
        ans[k].rank = r;
        ans[k].text = rank_bt(c, r, a->text, &failed);
        differ |= k && ans[k].text && ans[0].text &&
                  strcmp(ans[k].text, ans[0].text) != 0;
        k++;
    }
    if (!differ || failed || c->json_f) {
        con_print_merged(c, ans, k);
    } else {
        struct frame_node *root = node_new("", 0, c->nranks);
        for (int i = 0; root && i < k; i++)
            if (ans[i].text)
                tree_add(root, ans[i].rank, ans[i].text, c->nranks);
        if (root) {
            node_print(root, 0);
            node_free(root);
        }
        fflush(stdout);
    }
    for (int i = 0; i < k; i++)
        free(ans[i].text);
    free(ans);
    return failed ? -1 : 0;
}

static int cmd_info(struct con *c, struct con_args *a)
{
    char w[64];
    const char *rest;
    size_t n;
    con_args_word(a, w, sizeof w, &rest);
    n = strlen(w);
    if (n && strncmp("breakpoints", w, n) == 0 && (n > 1 || w[0] == 'b')) {
        con_bpt_info(c, a->given ? &a->set : NULL, 0);
        return 0;
    }
    if (n > 2 && strncmp("watchpoints", w, n) == 0) {
        con_bpt_info(c, a->given ? &a->set : NULL, 1);
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
    char cli[4200];
    snprintf(cli, sizeof cli, "info %s", a->text);
    return con_passthrough(c, &a->set, cli);
}

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
        int st = mi ? mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep,
                                       c->timeout_ms)
                    : -1;
        const char *v = st == 0 ? mi_get_str(rep.record, "value") : NULL;
        if (v && strtol(v, NULL, 0) != 0)
            c->ranks[r]->end_checked = con_rank_abnormal(c->ranks[r]);
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
    {"backtrace", "bt where", "backtrace [OPTION]... [full] [N]",
     "GDB's backtrace, the stub's frames summed up; stacks that differ "
     "merge into a tree (#N: for frame N, up N)",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_backtrace, NULL},
    {"gdb", NULL, "gdb COMMAND", "any GDB command, answers merged",
     CON_NEEDS_RANKS, NULL, cmd_gdb, NULL},
    {"info", "i", "info breakpoints|sets|findings|locals|args|frame|...",
     "the session's breakpoints (GDB's table), sets and check findings, "
     "or GDB's info merged", 0,
     NULL, cmd_info, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
