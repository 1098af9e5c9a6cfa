/*
 * Action point commands: break, tbreak, watch, condition, enable,
 * disable, delete, `info breakpoints`; display, undisplay, `info
 * display`. One drdb number per breakpoint (the session's table, struct
 * con_bpt), mapped to each rank's own GDB breakpoint, given again to each
 * new GDB of a rank by con_bpt_apply (con-rank.c).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "con.h"
#include "util.h"

/* Is SET every replayed rank (then ranks started later get what is set on
 * it: the group's action points)? */
static int set_is_all(struct con *c, const struct rankset *set)
{
    for (int r = 0; r < c->nranks; r++)
        if ((c->ranks[r]->gdb || c->ranks[r]->state == CON_DEFERRED) &&
            c->ranks[r]->state != CON_LOST && !rs_has(set, r))
            return 0;
    return 1;
}

/* A breakpoint on ranks not started yet is theirs once their GDBs start
 * (con_bpt_apply); GDB checks its place now in one rank's: when none of
 * SET's has a GDB, the first not started of SET starts (0, or -1 when
 * none could). */
static int one_started(struct con *c, const struct rankset *set)
{
    int first = -1;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        if (c->ranks[r]->gdb && c->ranks[r]->state != CON_LOST)
            return 0;
        if (first < 0 && c->ranks[r]->state == CON_DEFERRED)
            first = r;
    }
    if (first < 0)
        return -1;
    struct rankset one;
    if (rs_init(&one, c->nranks) < 0)
        return -1;
    rs_add(&one, first);
    int rc = con_start_deferred(c, &one);
    rs_release(&one);
    return rc;
}

/* LOCATION [if CONDITION] (or EXPRESSION [if CONDITION]): GDB's own
 * syntax, split at " if ". */
static void split_cond(const char *text, char *loc, size_t loclen,
                       char *cond, size_t condlen)
{
    const char *ifp = strstr(text, " if ");
    size_t ll = ifp ? (size_t)(ifp - text) : strlen(text);
    snprintf(loc, loclen, "%.*s", (int)ll, text);
    snprintf(cond, condlen, "%s", ifp ? ifp + 4 : "");
}

/* break, tbreak, hbreak, thbreak, watch, rwatch, awatch: GDB's own
 * command on each rank of the set, its words merged with the session's
 * number. */
static int break_common(struct con *c, struct con_args *a, int temp,
                        int kind)
{
    const struct rankset *set = &a->set;
    if (!*a->text && kind != CON_BPT_BREAK && kind != CON_BPT_HBREAK) {
        fprintf(stderr, "drdb: %s EXPRESSION\n",
                kind == CON_BPT_WATCH ? "watch"
                : kind == CON_BPT_RWATCH ? "rwatch" : "awatch");
        return -1;
    }
    if (one_started(c, set) < 0) {
        fprintf(stderr, "drdb: no rank of the set could take it\n");
        return -1;
    }
    if (util_grow(&c->bpts, &c->cap_bpts, (size_t)c->nbpts + 1,
                  sizeof *c->bpts) < 0)
        return -1;
    struct con_bpt *b = &c->bpts[c->nbpts];
    memset(b, 0, sizeof *b);
    b->id = c->next_bpt;
    b->temp = temp;
    b->watch = kind;
    b->enabled = 1;
    b->all = set_is_all(c, set);
    split_cond(a->text, b->loc, sizeof b->loc, b->cond, sizeof b->cond);
    b->gdbno = calloc((size_t)c->nranks, sizeof *b->gdbno);
    struct con_answer *ans = calloc((size_t)rs_count(set) + 1, sizeof *ans);
    if (!b->gdbno || !ans || rs_init(&b->set, c->nranks) < 0) {
        free(b->gdbno);
        free(ans);
        return -1;
    }
    rs_copy(&b->set, set);
    int n = 0, rc = 0, took = 0;
    /* in the table from now: its GDB numbers are turned into its own */
    c->nbpts++;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        ans[n].rank = r;
        if (c->ranks[r]->state == CON_DEFERRED) {
            ans[n++].text = strdup("set when its GDB starts");
            continue;
        }
        rc |= con_bpt_insert(c, b, r, &ans[n++].text);
        took += b->gdbno[r] != 0;
    }
    /* No rank took it (GDB's error says why: an unknown place, a bad
     * condition): no breakpoint, no number used. */
    if (!took)
        for (int i = 0; i < n; i++)
            if (c->ranks[ans[i].rank]->state == CON_DEFERRED) {
                free(ans[i].text);
                ans[i].text = NULL;
            }
    con_print_merged(c, ans, n);
    for (int i = 0; i < n; i++)
        free(ans[i].text);
    free(ans);
    if (!took) {
        c->nbpts--;
        rs_release(&b->set);
        free(b->gdbno);
        return -1;
    }
    c->next_bpt++;
    return rc;
}

static int cmd_break(struct con *c, struct con_args *a)
{
    return break_common(c, a, 0, CON_BPT_BREAK);
}

static int cmd_tbreak(struct con *c, struct con_args *a)
{
    return break_common(c, a, 1, CON_BPT_BREAK);
}

static int cmd_hbreak(struct con *c, struct con_args *a)
{
    return break_common(c, a, 0, CON_BPT_HBREAK);
}

static int cmd_thbreak(struct con *c, struct con_args *a)
{
    return break_common(c, a, 1, CON_BPT_HBREAK);
}

static int cmd_watch(struct con *c, struct con_args *a)
{
    return break_common(c, a, 0, CON_BPT_WATCH);
}

static int cmd_rwatch(struct con *c, struct con_args *a)
{
    return break_common(c, a, 0, CON_BPT_RWATCH);
}

static int cmd_awatch(struct con *c, struct con_args *a)
{
    return break_common(c, a, 0, CON_BPT_AWATCH);
}

/* Breakpoint N (as typed), or NULL after an error in GDB's words. */
static struct con_bpt *bpt_find(struct con *c, const char *n, size_t len)
{
    long long id;
    char w[32];
    snprintf(w, sizeof w, "%.*s", (int)(len < sizeof w ? len : sizeof w - 1),
             n);
    if (fe_parse_int(w, 1, INT_MAX, &id) == 0) {
        for (int i = 0; i < c->nbpts; i++)
            if (c->bpts[i].id == id)
                return &c->bpts[i];
        fprintf(stderr, "No breakpoint number %s.\n", w);
    } else {
        fprintf(stderr, "Convenience variable must have integer value.\n"
                "Bad breakpoint argument: '%s'\n", w);
    }
    return NULL;
}

/* Whether A's explicit @SET leaves out some of SET's ranks: a command
 * that acts on a whole breakpoint (or display) then refuses, never acting
 * on ranks it was not given. */
static int set_narrower(const struct con_args *a, const struct rankset *set)
{
    if (!a->given)
        return 0;
    for (int r = 0; r < set->n; r++)
        if (rs_has(set, r) && !rs_has(&a->set, r))
            return 1;
    return 0;
}

/* Refuses WHAT on breakpoint B for A's @SET narrower than B's ranks. */
static int whole_only(const struct con_args *a, const struct con_bpt *b,
                      const char *what)
{
    if (!set_narrower(a, &b->set))
        return 0;
    char buf[256];
    fprintf(stderr, "drdb: breakpoint %d is on ranks %s: '%s' acts on all of "
            "them ('@SET delete %d' takes it off some ranks)\n", b->id,
            rs_format(&b->set, buf, sizeof buf), what, b->id);
    return -1;
}

/* "VERB GDBNO REST" for breakpoint B on each of its ranks' GDBs, GDB's
 * words merged (PRINT: said, else only errors). 0, or -1 when a GDB
 * refused it. */
static int bpt_cli(struct con *c, struct con_bpt *b, const char *verb,
                   const char *rest, int print)
{
    int n = 0, rc = 0;
    struct con_answer *ans = calloc((size_t)c->nranks + 1, sizeof *ans);
    if (!ans)
        return -1;
    for (int r = 0; r < c->nranks; r++) {
        if (!b->gdbno[r] || !c->ranks[r]->gdb ||
            c->ranks[r]->state == CON_LOST)
            continue;
        char cli[1200], *mi;
        struct mi_reply rep;
        snprintf(cli, sizeof cli, "%s %d%s%s", verb, b->gdbno[r],
                 rest && *rest ? " " : "", rest ? rest : "");
        if (!(mi = con_mi_console(cli)))
            continue;
        int st = mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep,
                                  c->timeout_ms > 0 ? c->timeout_ms : 30000);
        free(mi);
        size_t len = rep.console_len;
        while (len && rep.console[len - 1] == '\n')
            len--;
        char *t = NULL;
        if (st == 0 && print && len)
            t = strndup(rep.console, len);
        else if (st != 0)
            asprintf(&t, "%s", rep.message ? rep.message : mi_strerror(st));
        rc |= st != 0 ? -1 : 0;
        mi_reply_release(&rep);
        if (t) {
            ans[n].rank = r;
            ans[n++].text = con_renumber(c, r, t);
            free(t);
        }
    }
    con_print_merged(c, ans, n);
    for (int i = 0; i < n; i++)
        free(ans[i].text);
    free(ans);
    return rc;
}

static int cmd_condition(struct con *c, struct con_args *a)
{
    const char *t = a->text;
    size_t nl = strcspn(t, " \t");
    const char *cond = t + nl + strspn(t + nl, " \t");
    if (!*t) {
        fprintf(stderr, "Argument required (breakpoint number).\n");
        return -1;
    }
    struct con_bpt *b = bpt_find(c, t, nl);
    if (!b || whole_only(a, b, "condition") < 0)
        return -1;
    snprintf(b->cond, sizeof b->cond, "%s", cond);
    return bpt_cli(c, b, "condition", cond, 1);
}

static int cmd_ignore(struct con *c, struct con_args *a)
{
    const char *t = a->text;
    size_t nl = strcspn(t, " \t");
    const char *count = t + nl + strspn(t + nl, " \t");
    long long n;
    if (!*t) {
        fprintf(stderr, "Argument required (a breakpoint number).\n");
        return -1;
    }
    struct con_bpt *b = bpt_find(c, t, nl);
    if (!b || whole_only(a, b, "ignore") < 0)
        return -1;
    if (!*count) {
        fprintf(stderr, "Second argument (specified ignore-count) is "
                "missing.\n");
        return -1;
    }
    b->ignore = fe_parse_int(count, 0, INT_MAX, &n) == 0 ? (int)n : 0;
    return bpt_cli(c, b, "ignore", count, 1);
}

/* The breakpoints a list of GDB's syntax names ("2 4-6", none: every
 * one), each through FN; 0, or -1 (an unknown number is said, the others
 * done). WHAT acts on whole breakpoints (whole_only), but "delete", which
 * takes a breakpoint off an @SET's ranks. */
static int each_listed(struct con *c, struct con_args *a, const char *list,
                       const char *what,
                       int (*fn)(struct con *, struct con_args *,
                                 struct con_bpt *, void *),
                       void *ud)
{
    int rc = 0;
    int whole = strcmp(what, "delete") != 0;
    if (!*list) {
        for (int i = 0; whole && i < c->nbpts; i++)
            if (whole_only(a, &c->bpts[i], what) < 0)
                return -1;
        for (int i = 0; i < c->nbpts; i++) {
            int n = c->nbpts;
            rc |= fn(c, a, &c->bpts[i], ud);
            i -= n - c->nbpts; /* FN took it out */
        }
        return rc;
    }
    for (const char *p = list; *p; p += strspn(p, " \t")) {
        size_t len = strcspn(p, " \t");
        long long lo, hi;
        char w[64];
        snprintf(w, sizeof w, "%.*s", (int)(len < 63 ? len : 63), p);
        char *dash = strchr(w, '-');
        if (dash)
            *dash = '\0';
        if (fe_parse_int(w, 1, INT_MAX, &lo) < 0 ||
            (dash && fe_parse_int(dash + 1, 1, INT_MAX, &hi) < 0)) {
            fprintf(stderr, "Convenience variable must have integer value.\n"
                    "Bad breakpoint argument: '%.*s'\n", (int)len, p);
            return -1;
        }
        if (!dash)
            hi = lo;
        for (long long id = lo; id <= hi; id++) {
            struct con_bpt *b = NULL;
            for (int i = 0; i < c->nbpts && !b; i++)
                if (c->bpts[i].id == id)
                    b = &c->bpts[i];
            if (!b) {
                fprintf(stderr, "No breakpoint number %lld.\n", id);
                rc = -1;
            } else if (whole && whole_only(a, b, what) < 0) {
                rc = -1;
            } else {
                rc |= fn(c, a, b, ud);
            }
        }
        p += len;
    }
    return rc;
}

/* enable: ONCE, DELETE or COUNT N before the list, as GDB's. */
struct enable_how {
    int on;
    const char *mode; /* "", "once", "delete", "count N" */
};

static int enable_one(struct con *c, struct con_args *a, struct con_bpt *b,
                      void *ud)
{
    const struct enable_how *h = ud;
    (void)a;
    b->enabled = h->on;
    if (!strncmp(h->mode, "delete", 6))
        b->temp = 1;
    char verb[64];
    snprintf(verb, sizeof verb, "%s%s%s", h->on ? "enable" : "disable",
             *h->mode ? " " : "", h->mode);
    return bpt_cli(c, b, verb, NULL, 0);
}

static int enable_common(struct con *c, struct con_args *a, int on)
{
    const char *t = a->text;
    struct enable_how h = {on, ""};
    char mode[64] = "";
    /* disable|enable display N...: the session's displays */
    if (!strncmp(t, "display", 7) && (!t[7] || t[7] == ' '))
        return con_display_enable(c, a, t + 7 + strspn(t + 7, " "), on);
    if (!strncmp(t, "breakpoints", 11) && (!t[11] || t[11] == ' '))
        t += 11 + strspn(t + 11, " ");
    if (on && (!strncmp(t, "once ", 5) || !strncmp(t, "delete ", 7))) {
        size_t n = strcspn(t, " ");
        snprintf(mode, sizeof mode, "%.*s", (int)n, t);
        t += n + strspn(t + n, " ");
    } else if (on && !strncmp(t, "count ", 6)) {
        const char *cnt = t + 6 + strspn(t + 6, " ");
        size_t n = strcspn(cnt, " ");
        snprintf(mode, sizeof mode, "count %.*s", (int)n, cnt);
        t = cnt + n + strspn(cnt + n, " ");
    }
    h.mode = mode;
    return each_listed(c, a, t, on ? "enable" : "disable", enable_one, &h);
}

static int cmd_enable(struct con *c, struct con_args *a)
{
    return enable_common(c, a, 1);
}

static int cmd_disable(struct con *c, struct con_args *a)
{
    return enable_common(c, a, 0);
}

/* Whether SET and ONLY share a rank (ONLY NULL: every set does). */
static int meets(const struct rankset *set, const struct rankset *only)
{
    if (!only)
        return 1;
    for (int r = 0; r < set->n; r++)
        if (rs_has(set, r) && rs_has(only, r))
            return 1;
    return 0;
}

/* Rank R's `info breakpoints` (GDB's table) with the rows of its GDB's
 * own breakpoints the session does not have (drdb's hooks) taken out and
 * the others numbered as the session's; NULL when none is left. */
static char *bpt_table(struct con *c, int r, const char *cli)
{
    char *mi = con_mi_console(cli), *out = NULL;
    struct mi_reply rep;
    size_t len = 0;
    if (!mi || mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep,
                                c->timeout_ms > 0 ? c->timeout_ms
                                                  : 30000) != 0) {
        free(mi);
        mi_reply_release(&rep);
        return NULL;
    }
    free(mi);
    FILE *f = open_memstream(&out, &len);
    int keep = 1, rows = 0;
    for (const char *l = rep.console ? rep.console : ""; f && *l;) {
        size_t n = strcspn(l, "\n");
        if (*l >= '0' && *l <= '9') {
            /* "12      breakpoint ..." or a location's "12.1 ..." */
            int gdbno = atoi(l), id = 0;
            for (int i = 0; i < c->nbpts && !id; i++)
                if (c->bpts[i].gdbno && c->bpts[i].gdbno[r] == gdbno)
                    id = c->bpts[i].id;
            keep = id != 0;
            if (keep) {
                /* the number (a location's "12.1" too), its column's
                 * width kept */
                size_t num = strspn(l, "0123456789");
                size_t tail = strspn(l + num, ".0123456789");
                size_t col = num + tail + strspn(l + num + tail, " ");
                int w = fprintf(f, "%d%.*s", id, (int)tail, l + num);
                fprintf(f, "%*s%.*s\n", (size_t)w < col ? (int)col - w : 1,
                        "", (int)(n - col), l + col);
                rows++;
            }
        } else if (keep) {
            fprintf(f, "%.*s\n", (int)n, l);
        }
        l += n + (l[n] == '\n');
    }
    mi_reply_release(&rep);
    if (f)
        fclose(f);
    if (!rows) {
        free(out);
        return NULL;
    }
    while (len && out[len - 1] == '\n')
        out[--len] = '\0';
    return out;
}

void con_bpt_info(struct con *c, const struct rankset *only, int watch)
{
    int n = 0, any = 0;
    struct con_answer *ans = calloc((size_t)c->nranks + 1, sizeof *ans);
    if (!ans)
        return;
    for (int i = 0; i < c->nbpts; i++)
        any |= meets(&c->bpts[i].set, only);
    for (int r = 0; any && r < c->nranks; r++) {
        /* (an exited rank's GDB answers too, as GDB's does after the
         * program exited) */
        if ((only && !rs_has(only, r)) || !c->ranks[r]->gdb ||
            c->ranks[r]->state == CON_LOST ||
            !(con_rank_halted(c->ranks[r]) ||
              c->ranks[r]->state == CON_EXITED))
            continue;
        char *t = bpt_table(c, r, watch ? "info watchpoints"
                                        : "info breakpoints");
        if (!t)
            continue;
        ans[n].rank = r;
        ans[n++].text = t;
    }
    /* the ranks whose GDB did not answer, with the session's breakpoints
     * on them: which, and when their GDB has them */
    for (int r = 0; any && r < c->nranks; r++) {
        int asked = 0;
        for (int i = 0; i < n && !asked; i++)
            asked = ans[i].rank == r;
        char ids[256] = "";
        int nid = 0;
        for (int i = 0; !asked && i < c->nbpts; i++)
            if (rs_has(&c->bpts[i].set, r) && (!watch || (c->bpts[i].watch &&
                            c->bpts[i].watch != CON_BPT_HBREAK)) &&
                (!only || rs_has(only, r)) && nid < 16) {
                size_t l = strlen(ids);
                snprintf(ids + l, sizeof ids - l, "%s%d", nid++ ? ", " : "",
                         c->bpts[i].id);
            }
        if (!nid)
            continue;
        const struct con_rank *k = c->ranks[r];
        ans[n].rank = r;
        if (asprintf(&ans[n].text, "%s: %s %s %s", con_state_name(k->state),
                     nid > 1 ? "breakpoints" : "breakpoint", ids,
                     k->state == CON_DEFERRED
                         ? "set when its GDB starts"
                         : k->state == CON_RUNNING
                               ? "on it (a running rank's GDB is not asked)"
                               : "set again when it starts ('restart')") >= 0)
            n++;
    }
    if (!n)
        printf(watch ? "No watchpoints.\n"
                     : "No breakpoints or watchpoints.\n");
    con_print_merged(c, ans, n);
    for (int i = 0; i < n; i++)
        free(ans[i].text);
    free(ans);
}

int con_bpt_drop(struct con *c, struct con_bpt *b, int r)
{
    if (b->gdbno[r] && c->ranks[r]->gdb) {
        char mi[64];
        struct mi_reply rep;
        snprintf(mi, sizeof mi, "-break-delete %d", b->gdbno[r]);
        if (mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep, 30000) == 0)
            mi_reply_release(&rep);
    }
    b->gdbno[r] = 0;
    rs_del(&b->set, r);
    if (rs_count(&b->set))
        return 0;
    rs_release(&b->set);
    free(b->gdbno);
    free(b->commands);
    memmove(b, b + 1, (size_t)(c->bpts + c->nbpts - b - 1) * sizeof *b);
    c->nbpts--;
    return 1;
}

static int delete_one(struct con *c, struct con_args *a, struct con_bpt *b,
                      void *ud)
{
    (void)ud;
    /* @SET delete: off those ranks only; the breakpoint stays on the
     * others (and on them at every re-run) */
    if (a->given && !meets(&b->set, &a->set))
        return 0;
    for (int r = 0; r < c->nranks; r++) {
        if (a->given && !rs_has(&a->set, r))
            continue;
        if (a->given)
            b->all = 0; /* off these: no longer every rank's */
        if (rs_has(&b->set, r) && con_bpt_drop(c, b, r))
            break;
    }
    return 0;
}

static int cmd_delete(struct con *c, struct con_args *a)
{
    const char *t = a->text;
    if (!strncmp(t, "display", 7) && (!t[7] || t[7] == ' '))
        return con_display_delete(c, a, t + 7 + strspn(t + 7, " "));
    if (!strncmp(t, "breakpoints", 11) && (!t[11] || t[11] == ' '))
        t += 11 + strspn(t + 11, " ");
    /* delete without a number: every breakpoint, or with @SET every
     * breakpoint off those ranks */
    return each_listed(c, a, t, "delete", delete_one, NULL);
}

/* commands [N...]: the lines up to 'end' run at each stop at N (GDB's
 * own; the last breakpoint made when no N). */
static int cmd_commands(struct con *c, struct con_args *a)
{
    if (!c->read_body) {
        fprintf(stderr, "drdb: commands: no lines to read here (a script "
                "or the prompt)\n");
        return -1;
    }
    struct con_bpt *b = NULL;
    if (*a->text) {
        b = bpt_find(c, a->text, strcspn(a->text, " \t"));
        if (!b)
            return -1;
    } else if (c->nbpts) {
        b = &c->bpts[c->nbpts - 1];
    } else {
        fprintf(stderr, "No breakpoints specified.\n");
        return -1;
    }
    int id = b->id;
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    int ended = 0;
    for (char *l; f && (l = c->read_body(c, len ? NULL : "Type commands "
                                         "for breakpoint(s), one per line."
                                         "\nEnd with a line saying just "
                                         "\"end\"."));) {
        const char *p = l + strspn(l, " \t");
        if (!strcmp(p, "end")) {
            free(l);
            ended = 1;
            break;
        }
        fprintf(f, "%s\n", p);
        free(l);
    }
    if (f)
        fclose(f);
    if (!ended) {
        free(body);
        fprintf(stderr, "drdb: commands: no 'end'\n");
        return -1;
    }
    /* (reading may have run nothing, but look the breakpoint up again) */
    for (b = NULL; !b && c->nbpts;)
        for (int i = 0; i < c->nbpts && !b; i++)
            if (c->bpts[i].id == id)
                b = &c->bpts[i];
    if (!b) {
        free(body);
        return -1;
    }
    free(b->commands);
    b->commands = len ? body : (free(body), NULL);
    int rc = 0;
    for (int r = 0; r < c->nranks; r++)
        if (b->gdbno[r] && c->ranks[r]->gdb && c->ranks[r]->state != CON_LOST)
            rc |= con_bpt_commands(c, b, r);
    return rc;
}

/* ---- displays ------------------------------------------------------------ */

/* display [/FMT] EXPR: shown now and at every stop of the set's ranks;
 * display alone: every display now. */
static int cmd_display(struct con *c, struct con_args *a)
{
    const char *t = a->text;
    char fmt[12] = "";
    if (!*t)
        return con_display_show(c, &a->set, 0);
    if (*t == '/') {
        size_t n = strcspn(t, " ");
        if (n >= sizeof fmt) {
            fprintf(stderr, "Invalid number \"%.*s\".\n", (int)n - 1, t + 1);
            return -1;
        }
        snprintf(fmt, sizeof fmt, "%.*s", (int)n, t);
        t += n + strspn(t + n, " ");
    }
    if (!*t || util_grow(&c->disps, &c->cap_disps, (size_t)c->ndisps + 1,
                         sizeof *c->disps) < 0) {
        fprintf(stderr, "drdb: display [/FMT] EXPRESSION\n");
        return -1;
    }
    struct con_display *d = &c->disps[c->ndisps];
    memset(d, 0, sizeof *d);
    if (rs_init(&d->set, c->nranks) < 0)
        return -1;
    d->id = ++c->next_disp;
    d->all = set_is_all(c, &a->set);
    /* an x format shows as GDB keeps it: a count and a size ("/i" is
     * "/1bi") */
    if (con_display_x(fmt) && !strpbrk(fmt + 1, "0123456789"))
        snprintf(d->fmt, sizeof d->fmt, "/1%s%s",
                 strpbrk(fmt + 1, "bhwg") ? "" : "b", fmt + 1);
    else
        snprintf(d->fmt, sizeof d->fmt, "%s", fmt);
    snprintf(d->expr, sizeof d->expr, "%s", t);
    rs_copy(&d->set, &a->set);
    c->ndisps++;
    if (con_display_show(c, &a->set, d->id) == 0)
        return 0;
    /* As GDB: an expression that cannot be shown makes no display. */
    rs_release(&c->disps[--c->ndisps].set);
    c->next_disp--;
    return -1;
}

/* Takes display I off the ranks of SET (NULL: all); a display left on
 * no rank goes. Returns whether it went. */
static int undisplay_on(struct con *c, int i, const struct rankset *set)
{
    struct con_display *d = &c->disps[i];
    for (int r = 0; set && r < c->nranks; r++)
        if (rs_has(set, r)) {
            rs_del(&d->set, r);
            d->all = 0;
        }
    if (set && rs_count(&d->set))
        return 0;
    rs_release(&d->set);
    memmove(&c->disps[i], &c->disps[i + 1],
            (size_t)(c->ndisps - i - 1) * sizeof *c->disps);
    c->ndisps--;
    return 1;
}

/* Each display LIST names ("2 4-5"; none: every one) through FN(I): 0, or
 * -1 (an unknown number is said, the others done). */
static int each_display(struct con *c, const char *list,
                        int (*fn)(struct con *, int, void *), void *ud)
{
    int rc = 0;
    if (!*list) {
        for (int i = 0; i < c->ndisps; i++)
            if (fn(c, i, ud))
                i--;
        return 0;
    }
    for (const char *p = list; *p; p += strspn(p, " \t")) {
        size_t len = strcspn(p, " \t");
        char w[64];
        long long lo, hi;
        snprintf(w, sizeof w, "%.*s", (int)(len < 63 ? len : 63), p);
        char *dash = strchr(w, '-');
        if (dash)
            *dash = '\0';
        if (fe_parse_int(w, 1, INT_MAX, &lo) < 0 ||
            (dash && fe_parse_int(dash + 1, 1, INT_MAX, &hi) < 0)) {
            fprintf(stderr, "Arguments must be display numbers.\n");
            return -1;
        }
        if (!dash)
            hi = lo;
        for (long long id = lo; id <= hi; id++) {
            int i;
            for (i = 0; i < c->ndisps && c->disps[i].id != id; i++)
                ;
            if (i == c->ndisps) {
                fprintf(stderr, "No display number %lld.\n", id);
                rc = -1;
            } else {
                fn(c, i, ud);
            }
        }
        p += len;
    }
    return rc;
}

static int undisplay_one(struct con *c, int i, void *ud)
{
    return undisplay_on(c, i, ud);
}

int con_display_delete(struct con *c, struct con_args *a, const char *list)
{
    return each_display(c, list, undisplay_one, a->given ? &a->set : NULL);
}

static int cmd_undisplay(struct con *c, struct con_args *a)
{
    return con_display_delete(c, a, a->text);
}

static int enable_display(struct con *c, int i, void *ud)
{
    c->disps[i].disabled = !*(int *)ud;
    return 0;
}

int con_display_enable(struct con *c, struct con_args *a, const char *list,
                       int on)
{
    (void)a;
    return each_display(c, list, enable_display, &on);
}

void con_display_info(struct con *c, const struct rankset *only)
{
    int n = 0;
    for (int i = 0; i < c->ndisps; i++)
        n += meets(&c->disps[i].set, only);
    if (!n) {
        printf("There are no auto-display expressions now.\n");
        return;
    }
    /* GDB's table; the ranks a display is on when not every one */
    printf("Auto-display expressions now in effect:\nNum Enb Expression\n");
    for (int i = 0; i < c->ndisps; i++) {
        const struct con_display *d = &c->disps[i];
        char buf[256];
        if (!meets(&d->set, only))
            continue;
        printf("%d:   %c  %s%s%s", d->id, d->disabled ? 'n' : 'y', d->fmt,
               d->fmt[0] ? " " : "", d->expr);
        if (!d->all)
            printf("  [ranks %s]", rs_format(&d->set, buf, sizeof buf));
        putchar('\n');
    }
}

const struct con_cmd con_cmds_break[] = {
    {"awatch", NULL, "awatch EXPRESSION [if CONDITION]",
     "stop when EXPRESSION is read or written",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_awatch, NULL},
    {"break", "b br bre brea", "break [LOCATION] [if CONDITION]",
     "a breakpoint on every rank of the set", CON_NEEDS_RANKS | CON_LAZY_OK,
     NULL, cmd_break, NULL},
    {"commands", NULL, "commands [N]",
     "GDB commands (up to 'end') run when breakpoint N stops a rank", 0,
     NULL, cmd_commands, NULL},
    {"condition", NULL, "condition N [EXPRESSION]",
     "stop at breakpoint N only if EXPRESSION (none: always)", 0, NULL,
     cmd_condition, NULL},
    {"delete", "d del", "delete [N...]",
     "delete breakpoints N... (all: no N)", 0, NULL, cmd_delete, NULL},
    {"disable", "dis disa", "disable [N...]",
     "disable breakpoints N... (all: no N)", 0, NULL, cmd_disable, NULL},
    {"display", NULL, "display [/FMT] EXPRESSION",
     "show EXPRESSION now and at every stop of the set's ranks",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_display, NULL},
    {"enable", "en", "enable [once|delete|count N] [N...]",
     "enable breakpoints N... (all: no N)", 0, NULL, cmd_enable, NULL},
    {"hbreak", NULL, "hbreak [LOCATION] [if CONDITION]",
     "a hardware-assisted breakpoint", CON_NEEDS_RANKS | CON_LAZY_OK, NULL,
     cmd_hbreak, NULL},
    {"ignore", NULL, "ignore N COUNT",
     "let breakpoint N pass COUNT times before it stops", 0, NULL,
     cmd_ignore, NULL},
    {"rwatch", NULL, "rwatch EXPRESSION [if CONDITION]",
     "stop when EXPRESSION is read",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_rwatch, NULL},
    {"tbreak", NULL, "tbreak [LOCATION] [if CONDITION]",
     "a breakpoint that deletes itself", CON_NEEDS_RANKS | CON_LAZY_OK, NULL,
     cmd_tbreak, NULL},
    {"thbreak", NULL, "thbreak [LOCATION] [if CONDITION]",
     "a hardware-assisted breakpoint that deletes itself",
     CON_NEEDS_RANKS | CON_LAZY_OK, NULL, cmd_thbreak, NULL},
    {"undisplay", NULL, "undisplay [N...]",
     "delete displays N... (all: no N)", 0, NULL, cmd_undisplay, NULL},
    {"watch", NULL, "watch EXPRESSION [if CONDITION]",
     "stop when EXPRESSION changes",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, NULL, cmd_watch, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
