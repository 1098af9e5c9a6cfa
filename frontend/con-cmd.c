/*
 * The console's commands: one table (con_cmds[]), each entry with its name,
 * alias, usage, summary, preconditions and handler. `help` and
 * docs/commands.md are generated from the table.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "con.h"
#include "ev.h"
#include "fe.h"
#include "log-reader.h"
#include "log.h"

/* ---- merged answers ---------------------------------------------------------- */

static int cmp_group(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return y[1] - x[1]; /* larger groups first */
}

/* Keeps a copy of ANS for `expand`. */
static void keep_last(struct con *c, const struct con_answer *ans, int n)
{
    for (int i = 0; i < c->nlast; i++)
        free(c->last[i].text);
    free(c->last);
    c->nlast = 0;
    c->last = calloc((size_t)n + 1, sizeof *c->last);
    if (!c->last)
        return;
    for (int i = 0; i < n; i++) {
        c->last[i].rank = ans[i].rank;
        c->last[i].text = ans[i].text ? strdup(ans[i].text) : NULL;
    }
    c->nlast = n;
}

void con_print_merged(struct con *c, struct con_answer *ans, int n)
{
    /* group[i]: the group of answer i; groups[g] = {first answer, size} */
    int *group = calloc((size_t)n + 1, sizeof *group), ng = 0;
    int(*groups)[2] = calloc((size_t)n + 1, sizeof *groups);
    int(*order)[2] = calloc((size_t)n + 1, sizeof *order);
    struct rankset s;
    char buf[512];
    if (!group || !groups || !order || rs_init(&s, c->nranks) < 0) {
        free(group);
        free(groups);
        free(order);
        return;
    }
    keep_last(c, ans, n);
    for (int i = 0; i < n; i++) {
        if (!ans[i].text)
            continue;
        group[i] = -1;
        for (int g = 0; c->merge && g < ng; g++)
            if (strcmp(ans[groups[g][0]].text, ans[i].text) == 0) {
                group[i] = g;
                groups[g][1]++;
                break;
            }
        if (group[i] < 0) {
            group[i] = ng;
            groups[ng][0] = i;
            groups[ng][1] = 1;
            ng++;
        }
    }
    for (int g = 0; g < ng; g++) {
        order[g][0] = g;
        order[g][1] = groups[g][1];
    }
    qsort(order, (size_t)ng, sizeof *order, cmp_group);
    /* Many distinct answers: the largest groups, then counts only. */
    int shown = ng > c->max_groups && c->max_groups > 0 && !c->json_f
                    ? 3 : ng;
    for (int o = 0; o < ng; o++) {
        int g = order[o][0];
        rs_clear(&s);
        for (int i = 0; i < n; i++)
            if (ans[i].text && group[i] == g)
                rs_add(&s, ans[i].rank);
        const char *text = ans[groups[g][0]].text;
        rs_format(&s, buf, sizeof buf);
        if (c->json_f) {
            fprintf(c->json_f, "%s{\"ranks\": \"%s\", \"text\": ",
                    o ? ", " : "", buf);
            con_json_str(c->json_f, text);
            fputc('}', c->json_f);
        } else if (o < shown) {
            /* A multi-line answer: the tag on its own line. */
            if (strchr(text, '\n'))
                printf("[%s]\n%s\n", buf, text);
            else
                printf("[%s] %s\n", buf, text);
        }
    }
    if (shown < ng) {
        int rest = 0;
        for (int o = shown; o < ng; o++)
            rest += order[o][1];
        printf("... and %d more distinct answers from %d ranks ('expand' "
               "shows each rank's)\n", ng - shown, rest);
    }
    fflush(stdout);
    rs_release(&s);
    free(order);
    free(group);
    free(groups);
}

/* ---- sending one command to every rank of a set --------------------------- */

typedef char *formatter(const struct mi_reply *r, const char *arg);

struct slot {
    struct con_answer *ans;
    formatter *fmt;
    const char *arg;
    int failed;
    struct con_rank *k;
};

static char *fmt_error(const struct mi_reply *r)
{
    char *t = NULL;
    if (asprintf(&t, "error: %s", r->message ? r->message
                                               : mi_strerror(r->status)) < 0)
        return NULL;
    return t;
}

static void on_reply(struct mi_gdb *g, const struct mi_reply *r, void *ud)
{
    struct slot *sl = ud;
    (void)g;
    if (r->status == MI_ETIMEDOUT && sl->k) {
        /* A GDB that does not answer in time is hung: its rank is lost
         * (its GDB is ended once the callback is over). */
        sl->k->state = CON_LOST;
        sl->k->hung = 1;
        snprintf(sl->k->reason, sizeof sl->k->reason,
                 "its GDB did not answer '%s' in time", r->command);
    }
    if (r->status != 0) {
        sl->failed = 1;
        sl->ans->text = fmt_error(r);
        return;
    }
    sl->ans->text = sl->fmt ? sl->fmt(r, sl->arg) : NULL;
}

/* Sends the MI command BUILD(rank) to every rank of SET, waits for all the
 * replies, prints them merged. Returns -1 when a rank failed. */
static int run_merged(struct con *c, const struct rankset *set,
                      const char *mi, formatter *fmt, const char *arg)
{
    int n = rs_count(set), i = 0, failed = 0;
    struct con_answer *ans = calloc((size_t)n + 1, sizeof *ans);
    struct slot *slots = calloc((size_t)n + 1, sizeof *slots);
    if (!ans || !slots) {
        free(ans);
        free(slots);
        return -1;
    }
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        ans[i].rank = r;
        slots[i] = (struct slot){&ans[i], fmt, arg, 0, &c->ranks[r]};
        struct con_rank *k = &c->ranks[r];
        if (!k->gdb || k->state == CON_LOST || k->state == CON_RUNNING) {
            asprintf(&ans[i].text, "error: %s", k->gdb ? con_state_name(k->state)
                                                       : "not replayed");
            slots[i].failed = 1;
            i++;
            continue;
        }
        if (mi_gdb_send(c->ranks[r].gdb, mi, c->timeout_ms, on_reply,
                        &slots[i]) < 0) {
            slots[i].failed = 1;
            ans[i].text = strdup("error: its GDB is gone");
        }
        i++;
    }
    if (con_wait(c, set, 0) < 0)
        fprintf(stderr, "drdb: timed out after %d ms\n", c->timeout_ms);
    for (int k = 0; k < n; k++)
        if (!slots[k].failed && !ans[k].text && fmt) {
            ans[k].text = strdup("error: no answer (timed out)");
            slots[k].failed = 1;
        }
    con_print_merged(c, ans, n);
    for (int k = 0; k < n; k++) {
        failed |= slots[k].failed;
        free(ans[k].text);
    }
    free(ans);
    free(slots);
    return failed ? -1 : 0;
}

static char *fmt_value(const struct mi_reply *r, const char *expr)
{
    const char *v = mi_get_str(r->record, "value");
    char *t = NULL;
    if (asprintf(&t, "%s = %s", expr, v ? v : "?") < 0)
        return NULL;
    return t;
}

static char *fmt_console(const struct mi_reply *r, const char *arg)
{
    (void)arg;
    size_t len = r->console_len;
    while (len && (r->console[len - 1] == '\n'))
        len--;
    return len ? strndup(r->console, len) : strdup("(no output)");
}

/* Builds "-OP ARG" with ARG quoted. */
static char *mi_with_arg(const char *op, const char *arg)
{
    struct mi_cmd mc;
    mi_cmd_init(&mc);
    mi_cmd_op(&mc, op);
    if (arg && *arg)
        mi_cmd_arg(&mc, arg);
    char *s = mi_cmd_str(&mc) ? strdup(mi_cmd_str(&mc)) : NULL;
    mi_cmd_release(&mc);
    return s;
}

static char *mi_console(const char *cli)
{
    struct mi_cmd mc;
    mi_cmd_init(&mc);
    mi_cmd_console(&mc, cli);
    char *s = mi_cmd_str(&mc) ? strdup(mi_cmd_str(&mc)) : NULL;
    mi_cmd_release(&mc);
    return s;
}

/* ---- execution ------------------------------------------------------------------ */


/* A diverged rank's report (drdb_divergence_msg), into its reason. */
static void divergence_reason(struct con_rank *k)
{
    struct mi_cmd mc;
    struct mi_reply rep;
    mi_cmd_init(&mc);
    mi_cmd_console(&mc, "printf \"%s\", drdb_divergence_msg");
    if (mi_cmd_str(&mc) &&
        mi_gdb_exec_sync(k->gdb, mi_cmd_str(&mc), &rep, 10000) == 0 &&
        rep.console_len)
        snprintf(k->reason, sizeof k->reason, "%.*s", (int)rep.console_len,
                 rep.console);
    if (mi_cmd_str(&mc))
        mi_reply_release(&rep);
    mi_cmd_release(&mc);
}

/* Prints where each rank of SET is now, merged. */
void con_print_where(struct con *c, const struct rankset *set)
{
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && c->ranks[r].state == CON_DIVERGED &&
            strncmp(c->ranks[r].reason, "rank ", 5) != 0) {
            /* Stopped at the offending call: the program's frame. */
            divergence_reason(&c->ranks[r]);
            con_select_user_frame(c, &c->ranks[r]);
        }
    int n = rs_count(set), i = 0;
    struct con_answer *ans = calloc((size_t)n + 1, sizeof *ans);
    if (!ans)
        return;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        struct con_rank *k = &c->ranks[r];
        ans[i].rank = r;
        if (k->state == CON_DIVERGED)
            asprintf(&ans[i].text, "diverged at %s: %s", k->where,
                     k->reason);
        else if (k->state == CON_STOPPED)
            asprintf(&ans[i].text, "%s%s%s", k->where,
                     k->reason[0] ? ", " : "", k->reason);
        else
            asprintf(&ans[i].text, "%s%s%s", con_state_name(k->state),
                     k->reason[0] ? ": " : "", k->reason);
        i++;
    }
    con_print_merged(c, ans, n);
    for (int k = 0; k < n; k++)
        free(ans[k].text);
    free(ans);
}

/* An execution command GDB refused: the rank did not run. */
static void on_exec_reply(struct mi_gdb *g, const struct mi_reply *r,
                          void *ud)
{
    struct con_rank *k = ud;
    (void)g;
    if (r->status != 0 && k->state == CON_RUNNING) {
        k->state = CON_STOPPED;
        snprintf(k->reason, sizeof k->reason, "%s",
                 r->message ? r->message : mi_strerror(r->status));
    }
}

/* Ranks of SET stopped before an event (in the stub, the program's frame
 * selected) first finish the stub's frames, so that next, step and until
 * step over the MPI call in the program's code, not in the stub's. */
static void leave_stub(struct con *c, const struct rankset *set)
{
    struct rankset in;
    rs_init(&in, c->nranks);
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        if (!rs_has(set, r) || !k->at_event || k->state != CON_STOPPED ||
            k->user_level < 1)
            continue;
        char mi[64];
        struct mi_reply rep;
        snprintf(mi, sizeof mi, "-stack-select-frame %d", k->user_level - 1);
        int ok = mi_gdb_exec_sync(k->gdb, mi, &rep, 10000) == 0;
        mi_reply_release(&rep);
        if (!ok)
            continue;
        k->state = CON_RUNNING;
        if (mi_gdb_send(k->gdb, "-exec-finish", 0, on_exec_reply, k) < 0)
            k->state = CON_LOST;
        else
            rs_add(&in, r);
    }
    if (rs_count(&in))
        con_wait(c, &in, 1);
    rs_release(&in);
}

static int exec_cmd(struct con *c, const struct rankset *set, const char *mi,
                    int background)
{
    int rc = 0;
    if (strcmp(mi, "-exec-next") == 0 || strcmp(mi, "-exec-step") == 0 ||
        strcmp(mi, "-exec-until") == 0)
        leave_stub(c, set);
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        struct con_rank *k = &c->ranks[r];
        k->reason[0] = '\0';
        /* Running from now: GDB's ^running may come before its *running,
         * and the rank must not look stopped in between. */
        k->state = CON_RUNNING;
        if (mi_gdb_send(k->gdb, mi, 0, on_exec_reply, k) < 0) {
            k->state = CON_LOST;
            rc = -1;
        }
    }
    if (background) {
        /* "continue &": the prompt comes back at once; the ranks' output
         * shows above it; 'interrupt' (or Ctrl-C) stops them. */
        con_wait(c, set, 0);
        return rc;
    }
    if (con_wait(c, set, 1) < 0) {
        fprintf(stderr, "drdb: timed out after %d ms: the ranks still "
                "running are left running ('interrupt' stops them)\n",
                c->timeout_ms);
        rc = -1;
    }
    con_print_where(c, set);
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && (c->ranks[r].state == CON_DIVERGED ||
                               c->ranks[r].state == CON_LOST))
            rc = -1;
    return rc;
}

/* A trailing "&" runs in the background. */
static int background(char *a)
{
    size_t len = strlen(a);
    while (len && (a[len - 1] == ' ' || a[len - 1] == '\t'))
        len--;
    if (!len || a[len - 1] != '&')
        return 0;
    a[len - 1] = '\0';
    return 1;
}

#define EXEC(fn, op)                                                        \
    static int fn(struct con *c, const struct rankset *set, const char *a)  \
    {                                                                       \
        char *arg = strdup(a);                                              \
        int bg = arg ? background(arg) : 0;                                 \
        char *mi = arg ? mi_with_arg(op, arg + strspn(arg, " ")) : NULL;    \
        int rc = mi ? exec_cmd(c, set, mi, bg) : -1;                        \
        free(mi);                                                           \
        free(arg);                                                          \
        return rc;                                                          \
    }
EXEC(cmd_continue, "-exec-continue")
EXEC(cmd_next, "-exec-next")
EXEC(cmd_step, "-exec-step")
EXEC(cmd_finish, "-exec-finish")
EXEC(cmd_until, "-exec-until")

static int cmd_advance(struct con *c, const struct rankset *set, const char *a)
{
    if (!*a) {
        fprintf(stderr, "drdb: advance LOCATION: where to?\n");
        return -1;
    }
    char *mi = mi_with_arg("-exec-until", a);
    int rc = mi ? exec_cmd(c, set, mi, 0) : -1;
    free(mi);
    return rc;
}

static int cmd_interrupt(struct con *c, const struct rankset *set,
                         const char *a)
{
    (void)a;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r) && c->ranks[r].state == CON_RUNNING)
            mi_gdb_interrupt(c->ranks[r].gdb);
    con_wait(c, set, 1);
    con_print_where(c, set);
    return 0;
}

static int cmd_restart(struct con *c, const struct rankset *set,
                       const char *a)
{
    (void)a;
    con_drop(c, set);
    int rc = con_replay(c, set);
    con_print_where(c, set);
    return rc;
}

/* ---- MPI events: goto, next-event, prev-event, until-call ------------------ */

/* An integer expression on rank R (0 and *ok = 0 when it fails). */
long long con_eval_int(struct con *c, int r, const char *expr, int *ok)
{
    char *mi = mi_with_arg("-data-evaluate-expression", expr);
    struct mi_reply rep;
    long long v = 0;
    *ok = mi && mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep, 10000) == 0 &&
          mi_get_int(rep.record, "value", &v) == 0;
    if (mi)
        mi_reply_release(&rep);
    free(mi);
    return v;
}

/*
 * Frames of the replay stub (and of MPICH's Fortran bindings) are not the
 * program's: a frame is the stub's when its source file lies in the
 * directory of drdb_stop_hook's (replayer/) or in the stub's build
 * directory (the generated rpl_stubs.c), or, without debug information,
 * when its function is an MPI entry point.
 */
static int stub_frame(const struct con *c, const char *stubsrc,
                      const struct mi_value *fr)
{
    const struct mi_value *full = mi_value_get(fr, "fullname");
    const struct mi_value *fn = mi_value_get(fr, "func");
    if (full && full->str) {
        const char *slash = strrchr(full->str, '/');
        size_t dl = slash ? (size_t)(slash - full->str) : 0;
        return (stubsrc[0] && strlen(stubsrc) == dl &&
                strncmp(full->str, stubsrc, dl) == 0) ||
               (strlen(c->stub) == dl && strncmp(full->str, c->stub, dl) == 0);
    }
    static const char *const pre[] = {"drdb_", "PMPI_", "MPI_", "PMPIX_",
                                      "MPIX_", "mpi_", "pmpi_"};
    for (size_t i = 0; fn && fn->str && i < sizeof pre / sizeof pre[0]; i++)
        if (strncmp(fn->str, pre[i], strlen(pre[i])) == 0)
            return 1;
    return 0;
}

/* The directory of the stub's sources: that of drdb_stop_hook's frame. */
static void stub_source_dir(const struct mi_value *stack, char *out,
                            size_t len)
{
    out[0] = '\0';
    for (const struct mi_value *fr = stack ? stack->first : NULL; fr;
         fr = fr->next) {
        const struct mi_value *fn = mi_value_get(fr, "func");
        const struct mi_value *full = mi_value_get(fr, "fullname");
        if (fn && fn->str && full && full->str &&
            strncmp(fn->str, "drdb_", 5) == 0) {
            const char *slash = strrchr(full->str, '/');
            if (slash)
                snprintf(out, len, "%.*s", (int)(slash - full->str),
                         full->str);
            return;
        }
    }
}

/* After a stop in drdb_stop_hook: select the program's frame, say where. */
void con_select_user_frame(struct con *c, struct con_rank *k)
{
    struct mi_reply rep;
    char stubsrc[1024];
    if (mi_gdb_exec_sync(k->gdb, "-stack-list-frames", &rep, 10000) == 0) {
        const struct mi_value *stack = mi_get(rep.record, "stack");
        stub_source_dir(stack, stubsrc, sizeof stubsrc);
        for (const struct mi_value *fr = stack ? stack->first : NULL; fr;
             fr = fr->next) {
            if (stub_frame(c, stubsrc, fr))
                continue;
            const struct mi_value *fn = mi_value_get(fr, "func");
            const struct mi_value *lv = mi_value_get(fr, "level");
            const struct mi_value *fi = mi_value_get(fr, "file");
            const struct mi_value *li = mi_value_get(fr, "line");
            char mi[64];
            snprintf(mi, sizeof mi, "-stack-select-frame %s",
                     lv && lv->str ? lv->str : "0");
            k->user_level = lv && lv->str ? atoi(lv->str) : 0;
            struct mi_reply r2;
            mi_gdb_exec_sync(k->gdb, mi, &r2, 10000);
            mi_reply_release(&r2);
            snprintf(k->where, sizeof k->where, "%s () at %s:%s",
                     fn && fn->str ? fn->str : "??",
                     fi && fi->str ? fi->str : "??",
                     li && li->str ? li->str : "?");
            break;
        }
    }
    mi_reply_release(&rep);
}

/* The name of rank R's event N, from its log ("?" if unknown). */
static const char *event_name(struct con *c, int r, uint64_t n)
{
    char path[4200], err[256];
    struct log_rank lr;
    struct log_event ev;
    const char *name = "?";
    log_path(path, sizeof path, c->dir, r);
    if (log_rank_open(&lr, path, err, sizeof err) < 0)
        return name;
    if (log_rank_event(&lr, n, &ev, err, sizeof err) == 0)
        name = log_func_name(ev.fn);
    log_rank_release(&lr);
    return name;
}

/* Runs each rank of SET to just before its event TARGET[rank]: forward
 * through the stub's stop-at-event hook, backward by re-running the rank
 * from the start of its log (replay is deterministic). */
static int goto_events(struct con *c, const struct rankset *set,
                       const uint64_t *target)
{
    struct rankset back, fwd;
    int rc = 0, ok;
    rs_init(&back, c->nranks);
    rs_init(&fwd, c->nranks);
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        if (target[r] >= c->nevents[r]) {
            fprintf(stderr, "drdb: rank %d has %llu events (0-%llu): no event "
                    "%llu\n", r, (unsigned long long)c->nevents[r],
                    (unsigned long long)(c->nevents[r] ? c->nevents[r] - 1
                                                       : 0),
                    (unsigned long long)target[r]);
            rc = -1;
            continue;
        }
        long long cur = c->ranks[r].state == CON_EXITED
                            ? (long long)c->nevents[r]
                            : con_eval_int(c, r, "drdb_event", &ok);
        if (c->ranks[r].state == CON_EXITED || !ok)
            ok = 0;
        if (!ok || (uint64_t)cur > target[r] ||
            ((uint64_t)cur == target[r] && !c->ranks[r].at_event &&
             c->ranks[r].state != CON_STOPPED))
            rs_add(&back, r);
        else if ((uint64_t)cur == target[r] && c->ranks[r].at_event)
            continue; /* already there */
        rs_add(&fwd, r);
    }
    /* The nearest checkpoint at or before the target, when it is ahead of
     * where the rank can start from (back: the start; forward: here). */
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r) || target[r] >= c->nevents[r])
            continue;
        long long cur = rs_has(&back, r) ? -1
                        : c->ranks[r].state == CON_STOPPED
                            ? con_eval_int(c, r, "drdb_event", &ok)
                            : -1;
        int rolled = con_ckpt_nearest(c, r, target[r], cur);
        if (rolled == 1) {
            rs_del(&back, r);
            rs_add(&fwd, r);
            long long now = con_eval_int(c, r, "drdb_event", &ok);
            if (ok && (uint64_t)now == target[r] && c->ranks[r].at_event)
                rs_del(&fwd, r);
        }
    }
    if (rs_count(&back)) {
        char buf[256];
        printf("[%s] re-running from the start of the log\n",
               rs_format(&back, buf, sizeof buf));
        con_drop(c, &back);
        if (con_replay(c, &back) < 0)
            rc = -1;
    }
    for (int round = 0; rs_count(&fwd) && round < 1000; round++) {
        for (int r = 0; r < c->nranks; r++) {
            if (!rs_has(&fwd, r))
                continue;
            struct con_rank *k = &c->ranks[r];
            if (k->state != CON_STOPPED) {
                rs_del(&fwd, r);
                continue;
            }
            char expr[64];
            snprintf(expr, sizeof expr, "drdb_stop_event = %llu",
                     (unsigned long long)target[r]);
            con_eval_int(c, r, expr, &ok);
            k->reason[0] = '\0';
            k->at_event = 0;
            k->state = CON_RUNNING;
            if (mi_gdb_send(k->gdb, "-exec-continue", 0, NULL, NULL) < 0)
                k->state = CON_LOST;
        }
        if (con_wait(c, &fwd, 1) < 0)
            rc = -1;
        /* A user breakpoint on the way: go on to the event. */
        for (int r = 0; r < c->nranks; r++) {
            struct con_rank *k = &c->ranks[r];
            if (!rs_has(&fwd, r))
                continue;
            if (k->at_event || k->state != CON_STOPPED)
                rs_del(&fwd, r);
        }
    }
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        if (!rs_has(set, r) || !k->at_event || k->state != CON_STOPPED)
            continue;
        con_eval_int(c, r, "drdb_stop_event = 18446744073709551615", &ok);
        if (con_eval_int(c, r, "drdb_event", &ok) != (long long)target[r])
            continue;
        con_select_user_frame(c, k);
        snprintf(k->reason, sizeof k->reason, "before event %llu (%s)",
                 (unsigned long long)target[r], event_name(c, r, target[r]));
    }
    con_print_where(c, set);
    rs_release(&back);
    rs_release(&fwd);
    return rc;
}

/* The event number an argument gives ("N"), or -1. */
static long long parse_event(const char *a)
{
    char *end;
    long long n = strtoll(a, &end, 10);
    if (end == a || n < 0)
        return -1;
    return n;
}

static int cmd_goto(struct con *c, const struct rankset *set, const char *a)
{
    long long n = parse_event(a);
    if (n < 0) {
        fprintf(stderr, "drdb: goto N: which event number?\n");
        return -1;
    }
    uint64_t *t = calloc((size_t)c->nranks, sizeof *t);
    if (!t)
        return -1;
    for (int r = 0; r < c->nranks; r++)
        t[r] = (uint64_t)n;
    int rc = goto_events(c, set, t);
    free(t);
    return rc;
}

/* next-event / prev-event: each rank K events on from where it is. */
static int step_events(struct con *c, const struct rankset *set,
                       const char *a, int dir)
{
    long long k = *a ? parse_event(a) : 1;
    int ok;
    if (k < 0) {
        fprintf(stderr, "drdb: %s [K]: how many events?\n",
                dir > 0 ? "next-event" : "prev-event");
        return -1;
    }
    uint64_t *t = calloc((size_t)c->nranks, sizeof *t);
    if (!t)
        return -1;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        long long cur = con_eval_int(c, r, "drdb_event", &ok);
        long long want = cur + dir * k;
        t[r] = want < 0 ? 0 : (uint64_t)want;
    }
    int rc = goto_events(c, set, t);
    free(t);
    return rc;
}

static int cmd_next_event(struct con *c, const struct rankset *set,
                          const char *a)
{
    return step_events(c, set, a, 1);
}

static int cmd_prev_event(struct con *c, const struct rankset *set,
                          const char *a)
{
    return step_events(c, set, a, -1);
}

/* until-call NAME: each rank to its next call of NAME, found in its log. */
static int cmd_until_call(struct con *c, const struct rankset *set,
                          const char *a)
{
    const struct log_func_desc *d = *a ? log_func_by_name(a) : NULL;
    int ok, rc = 0;
    if (!d) {
        fprintf(stderr, "drdb: until-call MPI_FUNCTION: '%s' is not an MPI "
                "function ('drdb functions' lists them)\n", a);
        return -1;
    }
    uint64_t *t = calloc((size_t)c->nranks, sizeof *t);
    struct rankset found;
    if (!t || rs_init(&found, c->nranks) < 0) {
        free(t);
        return -1;
    }
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        long long cur = con_eval_int(c, r, "drdb_event", &ok);
        /* From the next event when already stopped before one. */
        uint64_t from = (uint64_t)cur + (c->ranks[r].at_event ? 1 : 0);
        char path[4200], err[256];
        struct log_rank lr;
        log_path(path, sizeof path, c->dir, r);
        if (log_rank_open(&lr, path, err, sizeof err) < 0)
            continue;
        for (uint64_t n = from; n < lr.nevents; n++) {
            struct log_event ev;
            if (log_rank_event(&lr, n, &ev, err, sizeof err) == 0 &&
                ev.fn == d->id) {
                t[r] = n;
                rs_add(&found, r);
                break;
            }
        }
        log_rank_release(&lr);
        if (!rs_has(&found, r))
            printf("[%d] no more calls of %s in the log\n", r, d->name);
    }
    if (rs_count(&found))
        rc = goto_events(c, &found, t);
    else
        rc = -1;
    rs_release(&found);
    free(t);
    return rc;
}

/* ---- the logs: events, one event, matches, queues ------------------------ */

/* "R:N" (or "N" with a one-rank SET): 0, or -1 after an error. */
static int parse_ref(struct con *c, const struct rankset *set, const char *a,
                     int *rank, uint64_t *n)
{
    char *end;
    long r = strtol(a, &end, 10);
    if (end != a && *end == ':') {
        long long e = strtoll(end + 1, &end, 10);
        if (e >= 0 && r >= 0 && r < c->nranks) {
            *rank = (int)r;
            *n = (uint64_t)e;
            return 0;
        }
    } else if (end != a && rs_count(set) == 1 && r >= 0) {
        *rank = rs_first(set);
        *n = (uint64_t)r;
        return 0;
    }
    fprintf(stderr, "drdb: '%s': which event? RANK:EVENT, e.g. 2:17\n", a);
    return -1;
}

/* The current event of rank R: drdb_event when it is replayed and
 * stopped, else -1. */
static long long current_event(struct con *c, int r)
{
    int ok;
    struct con_rank *k = &c->ranks[r];
    if (!k->gdb || (k->state != CON_STOPPED && k->state != CON_DIVERGED))
        return -1;
    long long v = con_eval_int(c, r, "drdb_event", &ok);
    return ok ? v : -1;
}

/* events [--from N] [--count K] [--call NAME] [--peer P] [--tag T] */
static int cmd_events(struct con *c, const struct rankset *set,
                      const char *a)
{
    struct ev_run *x = con_events(c);
    long long from = -1, count = 20, peer = LLONG_MIN, tag = LLONG_MIN;
    const struct log_func_desc *call = NULL;
    char opt[64], val[128];
    int off = 0, used;
    if (!x)
        return -1;
    while (sscanf(a + off, " %63s %127s%n", opt, val, &used) == 2) {
        off += used;
        if (strcmp(opt, "--from") == 0)
            from = atoll(val);
        else if (strcmp(opt, "--count") == 0)
            count = atoll(val);
        else if (strcmp(opt, "--peer") == 0)
            peer = atoll(val);
        else if (strcmp(opt, "--tag") == 0)
            tag = atoll(val);
        else if (strcmp(opt, "--call") == 0 &&
                 (call = log_func_by_name(val)))
            ;
        else {
            fprintf(stderr, "drdb: events [--from N] [--count K] [--call "
                    "NAME] [--peer P] [--tag T]: bad '%s %s'\n", opt, val);
            return -1;
        }
    }
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r) || !x->ranks[r].present)
            continue;
        long long cur = current_event(c, r);
        /* Around the current event by default. */
        uint64_t n = from >= 0          ? (uint64_t)from
                     : cur > count / 2 ? (uint64_t)(cur - count / 2)
                                       : 0;
        long long shown = 0;
        printf("rank %d (%llu events)%s\n", r,
               (unsigned long long)c->nevents[r],
               cur >= 0 ? "" : " (not stopped: no position)");
        for (; n < c->nevents[r] && shown < count; n++) {
            struct log_event ev;
            struct fe_event_info in;
            char err[256];
            if (ev_event(x, r, n, &ev, err, sizeof err) < 0)
                break;
            fe_event_brief(&ev, &in);
            if (call && ev.fn != call->id)
                continue;
            if (peer != LLONG_MIN && (!in.has_peer || in.peer != peer))
                continue;
            if (tag != LLONG_MIN && (!in.has_tag || in.tag != tag))
                continue;
            printf("%s %7llu  %-22s", (long long)n == cur ? "=>" : "  ",
                   (unsigned long long)n, log_func_name(ev.fn));
            if (in.has_peer)
                printf(" peer %lld", (long long)in.peer);
            if (in.has_tag)
                printf(" tag %lld", (long long)in.tag);
            if (in.has_count)
                printf(" count %lld", (long long)in.count);
            if (in.bytes)
                printf(" %llu bytes", (unsigned long long)in.bytes);
            putchar('\n');
            shown++;
        }
    }
    return 0;
}

static int cmd_event(struct con *c, const struct rankset *set, const char *a)
{
    struct ev_run *x = con_events(c);
    int r, raw = strstr(a, "--raw") != NULL;
    uint64_t n;
    char err[512];
    if (!x || parse_ref(c, set, a, &r, &n) < 0)
        return -1;
    if (ev_print_event(x, stdout, r, n, raw, err, sizeof err) < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        return -1;
    }
    return 0;
}

static int cmd_match(struct con *c, const struct rankset *set, const char *a)
{
    struct ev_run *x = con_events(c);
    int r;
    uint64_t n;
    char err[512];
    if (!x || parse_ref(c, set, a, &r, &n) < 0)
        return -1;
    if (ev_print_match(x, stdout, r, n, err, sizeof err) != 0) {
        fprintf(stderr, "drdb: %s\n", err);
        return -1;
    }
    return 0;
}

static int cmd_queues(struct con *c, const struct rankset *set,
                      const char *a)
{
    struct ev_run *x = con_events(c);
    char err[512];
    (void)a;
    if (!x)
        return -1;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        long long cur = current_event(c, r);
        if (cur < 0) {
            fprintf(stderr, "drdb: rank %d is not stopped: no position\n", r);
            continue;
        }
        if (ev_print_queues(x, stdout, r, (uint64_t)cur, err, sizeof err) < 0)
            fprintf(stderr, "drdb: %s\n", err);
    }
    return 0;
}

/* goto-send R:N / goto-collective R:N: the partners, replayed if needed,
 * run to their calls. KIND: EV_K_SEND or EV_K_COLL. */
static int goto_partners(struct con *c, const struct rankset *set,
                         const char *a, int kind)
{
    struct ev_run *x = con_events(c);
    struct rankset all, todo;
    struct ev_ref refs[256];
    char err[512], buf[256];
    int r, rc;
    uint64_t n;
    rs_init(&all, c->nranks);
    rs_copy(&all, set);
    if (!x) {
        rs_release(&all);
        return -1;
    }
    if (!*a && kind == EV_K_SEND && rs_count(&all) == 1) {
        /* No event given: the last message the rank received before where
         * it stands. */
        r = rs_first(&all);
        long long cur = current_event(c, r);
        n = EV_NONE;
        for (long long e = cur - 1; e >= 0 && n == EV_NONE; e--) {
            int k = ev_partners(x, r, (uint64_t)e, refs, 256, err,
                                sizeof err);
            for (int i = 0; i < k && i < 256; i++)
                if (refs[i].kind == EV_K_SEND)
                    n = (uint64_t)e;
        }
        if (n == EV_NONE) {
            fprintf(stderr, "drdb: rank %d received no message before its "
                    "position\n", r);
            rs_release(&all);
            return -1;
        }
        printf("[%d] its last receive: event %llu\n", r,
               (unsigned long long)n);
    } else if (parse_ref(c, &all, a, &r, &n) < 0) {
        rs_release(&all);
        return -1;
    }
    int np = ev_partners(x, r, n, refs, 256, err, sizeof err);
    if (np < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        rs_release(&all);
        return -1;
    }
    uint64_t *t = calloc((size_t)c->nranks, sizeof *t);
    rs_init(&todo, c->nranks);
    for (int i = 0; t && i < np && i < 256; i++) {
        if (refs[i].kind != kind)
            continue;
        /* goto-collective: the members being replayed; goto-send: the
         * sender, started if it is not replayed yet. */
        if (kind == EV_K_COLL && !c->ranks[refs[i].rank].gdb)
            continue;
        rs_add(&todo, refs[i].rank);
        t[refs[i].rank] = refs[i].event;
    }
    if (!rs_count(&todo)) {
        fprintf(stderr, "drdb: rank %d's event %llu has no %s%s\n", r,
                (unsigned long long)n,
                kind == EV_K_SEND ? "matching send" : "replayed member",
                kind == EV_K_SEND ? " (not a receive, or it matched none: "
                                    "'match' tells)" : "");
        rs_release(&todo);
        rs_release(&all);
        free(t);
        return -1;
    }
    rs_clear(&all);
    for (int q = 0; q < c->nranks; q++)
        if (rs_has(&todo, q) && !c->ranks[q].gdb)
            rs_add(&all, q);
    if (rs_count(&all)) {
        printf("[%s] starting the replay\n", rs_format(&all, buf,
                                                       sizeof buf));
        con_replay(c, &all);
    }
    rc = goto_events(c, &todo, t);
    rs_release(&todo);
    rs_release(&all);
    free(t);
    return rc;
}

static int cmd_goto_send(struct con *c, const struct rankset *set,
                         const char *a)
{
    return goto_partners(c, set, a, EV_K_SEND);
}

static int cmd_goto_collective(struct con *c, const struct rankset *set,
                               const char *a)
{
    return goto_partners(c, set, a, EV_K_COLL);
}

/* ---- breakpoints ------------------------------------------------------------ */

struct bpt {
    int id;
    char loc[512];
    char cond[512];
    int temp, watch, enabled;
    struct rankset set;
    int *gdbno; /* per rank; 0: none */
};
static struct bpt bpts[256];
static int nbpts, next_bpt = 1;

static char *fmt_bkpt(const struct mi_reply *r, const char *arg)
{
    (void)arg;
    const char *where = mi_get_str(r->record, "bkpt.func");
    const char *file = mi_get_str(r->record, "bkpt.file");
    const char *line = mi_get_str(r->record, "bkpt.line");
    const char *pending = mi_get_str(r->record, "bkpt.pending");
    char *t = NULL;
    if (pending)
        asprintf(&t, "pending: %s", pending);
    else if (file && line)
        asprintf(&t, "at %s () %s:%s", where ? where : "??", file, line);
    else
        asprintf(&t, "set");
    return t;
}

static int break_common(struct con *c, const struct rankset *set,
                        const char *a, int temp, int watch)
{
    if (!*a) {
        fprintf(stderr, watch ? "drdb: watch EXPRESSION\n"
                              : "drdb: break LOCATION [if CONDITION]\n");
        return -1;
    }
    if (nbpts == (int)(sizeof bpts / sizeof bpts[0])) {
        fprintf(stderr, "drdb: too many breakpoints: delete some\n");
        return -1;
    }
    /* LOCATION [if CONDITION] */
    char loc[512], cond[512] = "";
    const char *ifp = strstr(a, " if ");
    size_t ll = ifp ? (size_t)(ifp - a) : strlen(a);
    snprintf(loc, sizeof loc, "%.*s", (int)ll, a);
    if (ifp)
        snprintf(cond, sizeof cond, "%s", ifp + 4);
    struct mi_cmd mc;
    mi_cmd_init(&mc);
    if (watch) {
        mi_cmd_op(&mc, "-break-watch");
        snprintf(loc, sizeof loc, "%s", a);
        cond[0] = '\0';
    } else {
        mi_cmd_op(&mc, "-break-insert");
        mi_cmd_arg(&mc, "-f");
        if (temp)
            mi_cmd_arg(&mc, "-t");
        if (cond[0]) {
            mi_cmd_arg(&mc, "-c");
            mi_cmd_arg(&mc, cond);
        }
    }
    mi_cmd_arg(&mc, loc);
    char *mi = mi_cmd_str(&mc) ? strdup(mi_cmd_str(&mc)) : NULL;
    mi_cmd_release(&mc);
    if (!mi)
        return -1;
    struct bpt *b = &bpts[nbpts];
    b->id = next_bpt;
    b->temp = temp;
    b->watch = watch;
    b->enabled = 1;
    snprintf(b->loc, sizeof b->loc, "%s", loc);
    snprintf(b->cond, sizeof b->cond, "%s", cond);
    rs_init(&b->set, c->nranks);
    rs_copy(&b->set, set);
    b->gdbno = calloc((size_t)c->nranks, sizeof *b->gdbno);
    printf("%s %d: %s\n", watch ? "watchpoint" : "breakpoint", b->id, a);
    int rc = run_merged(c, set, mi, watch ? NULL : fmt_bkpt, NULL);
    free(mi);
    /* Each rank's own number: its newest breakpoint. */
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        struct mi_reply rep;
        if (mi_gdb_exec_sync(c->ranks[r].gdb, "-break-list", &rep, 5000) == 0) {
            const struct mi_value *body = mi_get(rep.record,
                                                 "BreakpointTable.body");
            long long best = 0;
            for (const struct mi_value *v = body ? body->first : NULL; v;
                 v = v->next) {
                const struct mi_value *num = mi_value_get(v, "number");
                if (num && num->str && atoll(num->str) > best)
                    best = atoll(num->str);
            }
            b->gdbno[r] = (int)best;
        }
        mi_reply_release(&rep);
    }
    nbpts++;
    next_bpt++;
    return rc;
}

static int cmd_break(struct con *c, const struct rankset *set, const char *a)
{
    return break_common(c, set, a, 0, 0);
}

static int cmd_tbreak(struct con *c, const struct rankset *set, const char *a)
{
    return break_common(c, set, a, 1, 0);
}

static int cmd_watch(struct con *c, const struct rankset *set, const char *a)
{
    return break_common(c, set, a, 0, 1);
}

static struct bpt *bpt_find(const char *a)
{
    int id = atoi(a);
    for (int i = 0; i < nbpts; i++)
        if (bpts[i].id == id)
            return &bpts[i];
    fprintf(stderr, "drdb: no breakpoint '%s' ('info breakpoints' lists "
            "them)\n", a);
    return NULL;
}

/* Sends "OP GDBNO [ARG]" for breakpoint B to each of its ranks. */
static int bpt_send(struct con *c, struct bpt *b, const char *op,
                    const char *arg)
{
    int rc = 0;
    struct rankset on;
    rs_init(&on, c->nranks);
    for (int r = 0; r < c->nranks; r++) {
        if (!b->gdbno[r] || !c->ranks[r].gdb ||
            c->ranks[r].state == CON_LOST)
            continue;
        struct mi_cmd mc;
        char no[16];
        snprintf(no, sizeof no, "%d", b->gdbno[r]);
        mi_cmd_init(&mc);
        mi_cmd_op(&mc, op);
        mi_cmd_arg(&mc, no);
        if (arg && *arg)
            mi_cmd_arg(&mc, arg);
        if (!mi_cmd_str(&mc) ||
            mi_gdb_send(c->ranks[r].gdb, mi_cmd_str(&mc), c->timeout_ms,
                        NULL, NULL) < 0)
            rc = -1;
        mi_cmd_release(&mc);
        rs_add(&on, r);
    }
    if (con_wait(c, &on, 0) < 0)
        rc = -1;
    rs_release(&on);
    return rc;
}

static int cmd_condition(struct con *c, const struct rankset *set,
                         const char *a)
{
    (void)set;
    struct bpt *b = *a ? bpt_find(a) : NULL;
    if (!b) {
        if (!*a)
            fprintf(stderr, "drdb: condition N [EXPRESSION]\n");
        return -1;
    }
    const char *cond = a + strcspn(a, " \t");
    cond += strspn(cond, " \t");
    snprintf(b->cond, sizeof b->cond, "%s", cond);
    return bpt_send(c, b, "-break-condition", cond);
}

static int enable_common(struct con *c, const char *a, int on)
{
    int rc = 0, any = 0;
    for (int i = 0; i < nbpts; i++) {
        if (*a && bpts[i].id != atoi(a))
            continue;
        any = 1;
        bpts[i].enabled = on;
        rc |= bpt_send(c, &bpts[i], on ? "-break-enable" : "-break-disable",
                       NULL);
    }
    if (!any && *a)
        return bpt_find(a) ? 0 : -1;
    return rc;
}

static int cmd_enable(struct con *c, const struct rankset *set, const char *a)
{
    (void)set;
    return enable_common(c, a, 1);
}

static int cmd_disable(struct con *c, const struct rankset *set,
                       const char *a)
{
    (void)set;
    return enable_common(c, a, 0);
}

static void info_breakpoints(struct con *c)
{
    char buf[256];
    if (!nbpts) {
        printf("no breakpoints\n");
        return;
    }
    printf("%-4s %-10s %-4s %-3s %-30s %s\n", "num", "type", "disp", "enb",
           "what", "ranks");
    for (int i = 0; i < nbpts; i++) {
        struct bpt *b = &bpts[i];
        printf("%-4d %-10s %-4s %-3s %-30s %s\n", b->id,
               b->watch ? "watchpoint" : "breakpoint", b->temp ? "del" : "keep",
               b->enabled ? "y" : "n", b->loc,
               rs_format(&b->set, buf, sizeof buf));
        if (b->cond[0])
            printf("        stop only if %s\n", b->cond);
    }
    (void)c;
}

static int cmd_delete(struct con *c, const struct rankset *set, const char *a)
{
    (void)set;
    int id = atoi(a), rc = -1;
    for (int i = 0; i < nbpts; i++) {
        if (bpts[i].id != id && *a)
            continue;
        for (int r = 0; r < c->nranks; r++) {
            if (!bpts[i].gdbno[r] || !c->ranks[r].gdb)
                continue;
            char mi[64];
            snprintf(mi, sizeof mi, "-break-delete %d", bpts[i].gdbno[r]);
            mi_gdb_send(c->ranks[r].gdb, mi, 0, NULL, NULL);
        }
        rs_release(&bpts[i].set);
        free(bpts[i].gdbno);
        bpts[i] = bpts[--nbpts];
        i--;
        rc = 0;
    }
    con_wait(c, &c->focus, 0);
    if (rc < 0)
        fprintf(stderr, "drdb: no breakpoint %s ('info breakpoints' lists "
                "them)\n", a);
    return rc;
}

/* ---- data --------------------------------------------------------------------- */

static int cmd_print(struct con *c, const struct rankset *set, const char *a)
{
    if (!*a) {
        fprintf(stderr, "drdb: print EXPRESSION\n");
        return -1;
    }
    char *mi = mi_with_arg("-data-evaluate-expression", a);
    int rc = mi ? run_merged(c, set, mi, fmt_value, a) : -1;
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

static int cmd_backtrace(struct con *c, const struct rankset *set,
                         const char *a)
{
    struct frame_node *root = node_new("", c->nranks);
    int rc = 0, limit = *a ? atoi(a) : 0;
    if (!root)
        return -1;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        struct mi_reply rep;
        if (mi_gdb_exec_sync(c->ranks[r].gdb, "-stack-list-frames", &rep,
                             c->timeout_ms) != 0) {
            printf("[%d] error: %s\n", r, rep.message ? rep.message : "no "
                   "answer");
            mi_reply_release(&rep);
            rc = -1;
            continue;
        }
        const struct mi_value *stack = mi_get(rep.record, "stack");
        int nf = stack ? (int)stack->count : 0, k = 0;
        char **texts = calloc((size_t)nf + 1, sizeof *texts);
        char stubsrc[1024];
        stub_source_dir(stack, stubsrc, sizeof stubsrc);
        for (const struct mi_value *fr = stack ? stack->first : NULL;
             fr && texts; fr = fr->next) {
            /* The replay stub's frames are not the program's. */
            if (stub_frame(c, stubsrc, fr))
                continue;
            const struct mi_value *fn = mi_value_get(fr, "func");
            const struct mi_value *fi = mi_value_get(fr, "file");
            const struct mi_value *li = mi_value_get(fr, "line");
            if (fi && fi->str && li && li->str)
                asprintf(&texts[k++], "%s () at %s:%s",
                         fn && fn->str ? fn->str : "??", fi->str, li->str);
            else
                asprintf(&texts[k++], "%s ()", fn && fn->str ? fn->str : "??");
        }
        /* Outermost first; with a limit, only the innermost LIMIT. */
        struct frame_node *at = root;
        int from = k - 1, to = limit > 0 && limit < k ? k - limit : 0;
        for (int i = from; texts && i >= to; i--) {
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
        for (int i = 0; i < k; i++)
            free(texts[i]);
        free(texts);
        mi_reply_release(&rep);
    }
    node_print(root, 0);
    fflush(stdout);
    node_free(root);
    return rc;
}

/* Commands GDB's CLI does well: passed through, answers merged. */
static int passthrough(struct con *c, const struct rankset *set,
                       const char *cli)
{
    char *mi = mi_console(cli);
    int rc = mi ? run_merged(c, set, mi, fmt_console, NULL) : -1;
    free(mi);
    return rc;
}

#define CLI(fn, word)                                                       \
    static int fn(struct con *c, const struct rankset *set, const char *a)  \
    {                                                                       \
        char cli[4096];                                                     \
        snprintf(cli, sizeof cli, "%s %s", word, a);                        \
        return passthrough(c, set, cli);                                    \
    }
static int cmd_info_cli(struct con *c, const struct rankset *set,
                        const char *a);
CLI(cmd_info_cli, "info")

static int cmd_info(struct con *c, const struct rankset *set, const char *a)
{
    size_t w = strcspn(a, " \t");
    if (w && strncmp(a, "breakpoints", w) == 0 && (w > 1 || a[0] == 'b')) {
        info_breakpoints(c);
        return 0;
    }
    if (w && strncmp(a, "sets", w) == 0 && w > 1) {
        char buf[256];
        for (int i = 0; i < c->nsets; i++)
            printf("%s = %s\n", c->sets[i].name,
                   rs_format(&c->sets[i].set, buf, sizeof buf));
        if (!c->nsets)
            printf("no named sets ('defset NAME SET' makes one)\n");
        return 0;
    }
    if (!rs_count(set)) {
        fprintf(stderr, "drdb: info: no stopped rank to ask\n");
        return -1;
    }
    return cmd_info_cli(c, set, a);
}
CLI(cmd_list, "list")
CLI(cmd_ptype, "ptype")
CLI(cmd_whatis, "whatis")
CLI(cmd_x, "x")
CLI(cmd_frame, "frame")
CLI(cmd_up, "up")
CLI(cmd_down, "down")
CLI(cmd_display, "display")

static int cmd_gdb(struct con *c, const struct rankset *set, const char *a)
{
    if (!*a) {
        fprintf(stderr, "drdb: gdb COMMAND: which GDB command?\n");
        return -1;
    }
    return passthrough(c, set, a);
}

/* assert EXPR: true (non-zero) on every rank of the set. */
static int cmd_assert(struct con *c, const struct rankset *set, const char *a)
{
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
        char *mi = mi_with_arg("-data-evaluate-expression", a);
        struct mi_reply rep;
        int st = mi ? mi_gdb_exec_sync(c->ranks[r].gdb, mi, &rep,
                                       c->timeout_ms)
                    : -1;
        const char *v = st == 0 ? mi_get_str(rep.record, "value") : NULL;
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

/* ---- the session -------------------------------------------------------------- */

static int cmd_status(struct con *c, const struct rankset *set, const char *a)
{
    (void)a;
    printf("%-5s %-9s %-22s %s\n", "rank", "state", "event", "where");
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = &c->ranks[r];
        if (!rs_has(set, r) || (!k->gdb && k->state == CON_OFF &&
                                rs_count(set) > 16))
            continue;
        char ev[64] = "-";
        const char *fn = "";
        if (k->gdb && (k->state == CON_STOPPED || k->state == CON_DIVERGED)) {
            struct mi_reply rep;
            long long e = -1, f = 0;
            if (mi_gdb_exec_sync(k->gdb, "-data-evaluate-expression drdb_event",
                                 &rep, 5000) == 0)
                mi_get_int(rep.record, "value", &e);
            mi_reply_release(&rep);
            if (mi_gdb_exec_sync(k->gdb,
                                 "-data-evaluate-expression drdb_current_fn",
                                 &rep, 5000) == 0)
                mi_get_int(rep.record, "value", &f);
            mi_reply_release(&rep);
            if (e >= 0)
                snprintf(ev, sizeof ev, "%lld/%llu", e,
                         (unsigned long long)c->nevents[r]);
            fn = f > 0 ? log_func_name((int)f) : "";
        } else {
            snprintf(ev, sizeof ev, "-/%llu",
                     (unsigned long long)c->nevents[r]);
        }
        printf("%-5d %-9s %-22s %s%s%s%s%s\n", r, con_state_name(k->state),
               ev, k->state == CON_STOPPED || k->state == CON_DIVERGED
                       ? k->where
                       : k->reason,
               *fn ? " in " : "", fn,
               k->state == CON_STOPPED && k->reason[0] ? ", " : "",
               k->state == CON_STOPPED ? k->reason : "");
        char sh[256];
        con_ckpt_status(c, r, sh, sizeof sh);
        if (sh[0])
            printf("      %s\n", sh);
    }
    fflush(stdout);
    return 0;
}

/* A command's set given as its argument ("replay @4-7", "drop 3"),
 * else SET. -1 after an error. */
int con_arg_set(struct con *c, const struct rankset *set, const char *a,
                struct rankset *out)
{
    rs_init(out, c->nranks);
    rs_copy(out, set);
    if (!*a)
        return 0;
    const char *s = *a == '@' ? a + 1 : a;
    int at;
    const char *why;
    if (rs_parse(c, s, strcspn(s, " \t"), out, &at, &why) < 0) {
        rs_report(s, strcspn(s, " \t"), at, why);
        rs_release(out);
        return -1;
    }
    return 0;
}

static int cmd_replay(struct con *c, const struct rankset *set, const char *a)
{
    struct rankset s;
    if (con_arg_set(c, set, a, &s) < 0)
        return -1;
    int rc = con_replay(c, &s);
    con_print_where(c, &s);
    rs_release(&s);
    return rc;
}

static int cmd_drop(struct con *c, const struct rankset *set, const char *a)
{
    struct rankset s;
    if (con_arg_set(c, set, a, &s) < 0)
        return -1;
    con_drop(c, &s);
    rs_release(&s);
    return 0;
}

static int cmd_focus(struct con *c, const struct rankset *set, const char *a)
{
    char buf[256];
    (void)set;
    if (*a) {
        int at;
        const char *why;
        const char *s = *a == '@' ? a + 1 : a;
        struct rankset t;
        rs_init(&t, c->nranks);
        if (rs_parse(c, s, strcspn(s, " \t"), &t, &at, &why) < 0) {
            rs_report(s, strcspn(s, " \t"), at, why);
            rs_release(&t);
            return -1;
        }
        rs_copy(&c->focus, &t);
        rs_release(&t);
    }
    printf("focus: %s\n", rs_format(&c->focus, buf, sizeof buf));
    return 0;
}

static int cmd_defset(struct con *c, const struct rankset *set, const char *a)
{
    (void)set;
    char name[64];
    int len = 0;
    while (a[len] && !isspace((unsigned char)a[len]))
        len++;
    const char *def = a + len;
    while (isspace((unsigned char)*def))
        def++;
    if (!len || len >= (int)sizeof name || !*def ||
        !(isalpha((unsigned char)a[0]) || a[0] == '_')) {
        fprintf(stderr, "drdb: defset NAME SET, e.g. defset bad 3,7\n");
        return -1;
    }
    snprintf(name, sizeof name, "%.*s", len, a);
    struct rankset t;
    rs_init(&t, c->nranks);
    if (con_named_set(c, name, &t) == 0) {
        int builtin = 1;
        for (int i = 0; i < c->nsets; i++)
            builtin &= strcmp(c->sets[i].name, name) != 0;
        if (builtin) {
            fprintf(stderr, "drdb: '%s' is a built-in set\n", name);
            rs_release(&t);
            return -1;
        }
    }
    int at;
    const char *why, *s = *def == '@' ? def + 1 : def;
    if (rs_parse(c, s, strcspn(s, " \t"), &t, &at, &why) < 0) {
        rs_report(s, strcspn(s, " \t"), at, why);
        rs_release(&t);
        return -1;
    }
    int i;
    for (i = 0; i < c->nsets && strcmp(c->sets[i].name, name); i++)
        ;
    if (i == c->nsets) {
        if (c->nsets == (int)(sizeof c->sets / sizeof c->sets[0])) {
            fprintf(stderr, "drdb: too many named sets\n");
            rs_release(&t);
            return -1;
        }
        snprintf(c->sets[i].name, sizeof c->sets[i].name, "%s", name);
        rs_init(&c->sets[i].set, c->nranks);
        c->nsets++;
    }
    rs_copy(&c->sets[i].set, &t);
    rs_release(&t);
    return 0;
}

/* expand [RANKSET]: each rank's own answer behind the last merged one. */
static int cmd_expand(struct con *c, const struct rankset *set, const char *a)
{
    (void)set;
    struct rankset only;
    rs_init(&only, c->nranks);
    if (*a) {
        int at;
        const char *why, *s = *a == '@' ? a + 1 : a;
        if (rs_parse(c, s, strcspn(s, " \t"), &only, &at, &why) < 0) {
            rs_report(s, strcspn(s, " \t"), at, why);
            rs_release(&only);
            return -1;
        }
    }
    if (!c->nlast)
        printf("nothing to expand: no merged answer yet\n");
    for (int i = 0; i < c->nlast; i++)
        if (c->last[i].text && (!*a || rs_has(&only, c->last[i].rank)))
            printf("[%d] %s\n", c->last[i].rank, c->last[i].text);
    rs_release(&only);
    return 0;
}

static int cmd_kill(struct con *c, const struct rankset *set, const char *a)
{
    (void)a;
    con_drop(c, set);
    return 0;
}

static int cmd_source(struct con *c, const struct rankset *set, const char *a)
{
    (void)set;
    if (!*a) {
        fprintf(stderr, "drdb: source FILE\n");
        return -1;
    }
    return con_source(c, a);
}

static int cmd_quit(struct con *c, const struct rankset *set, const char *a)
{
    (void)set;
    (void)a;
    c->quit = 1;
    return 0;
}

static int cmd_set(struct con *c, const struct rankset *set, const char *a)
{
    if (strncmp(a, "var ", 4) == 0 || strncmp(a, "variable ", 9) == 0) {
        if (!rs_count(set)) {
            fprintf(stderr, "drdb: set var: no stopped rank\n");
            return -1;
        }
        char cli[4096];
        snprintf(cli, sizeof cli, "set %s", a);
        return passthrough(c, set, cli);
    }
    if (strncmp(a, "prefix ", 7) == 0) {
        c->prefix = strstr(a + 7, "on") != NULL;
        return 0;
    }
    if (strncmp(a, "timing ", 7) == 0) {
        c->timing = strstr(a + 7, "on") != NULL;
        return 0;
    }
    if (strncmp(a, "groups ", 7) == 0) {
        c->max_groups = atoi(a + 7);
        return 0;
    }
    if (strncmp(a, "width ", 6) == 0) {
        char cli[64];
        snprintf(cli, sizeof cli, "set width %d", atoi(a + 6));
        struct rankset all;
        rs_init(&all, c->nranks);
        for (int r = 0; r < c->nranks; r++)
            if (c->ranks[r].gdb && c->ranks[r].state != CON_LOST &&
                c->ranks[r].state != CON_RUNNING)
                rs_add(&all, r);
        int rc = rs_count(&all) ? passthrough(c, &all, cli) : 0;
        rs_release(&all);
        return rc;
    }
    if (strncmp(a, "merge ", 6) == 0) {
        c->merge = strstr(a + 6, "on") != NULL;
        return 0;
    }
    if (strncmp(a, "timeout ", 8) == 0) {
        c->timeout_ms = atoi(a + 8);
        return 0;
    }
    if (strncmp(a, "checkpoint-interval ", 20) == 0)
        return con_ckpt_set(c, "checkpoint-interval", a + 20);
    if (strncmp(a, "checkpoint-every ", 17) == 0)
        return con_ckpt_set(c, "checkpoint-every", a + 17);
    fprintf(stderr, "drdb: set var EXPR = VALUE | merge on|off | prefix on|off"
            " | timing on|off | groups N | width N | timeout MS"
            " | checkpoint-interval S|off | checkpoint-every N|off\n");
    return -1;
}

static int cmd_help(struct con *c, const struct rankset *set, const char *a);

const struct con_cmd con_cmds[] = {
    {"advance", NULL, "advance LOCATION", "run to LOCATION (or a stop)",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_advance},
    {"assert", NULL, "assert EXPRESSION",
     "fail unless EXPRESSION is true on every rank",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_assert},
    {"backtrace", "bt", "backtrace [N]", "the stack, merged across ranks",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_backtrace},
    {"break", "b", "break LOCATION [if CONDITION]",
     "a breakpoint on every rank of the set", CON_NEEDS_RANKS, cmd_break},
    {"checkpoint", NULL, "checkpoint [@SET]",
     "checkpoint the ranks where they stand (rollback returns here)", 0,
     con_cmd_checkpoint},
    {"checkpoints", NULL, "checkpoints [@SET]",
     "the ranks' checkpoints: id, event, replay time, pages, size", 0,
     con_cmd_checkpoints},
    {"condition", NULL, "condition N [EXPRESSION]",
     "stop at breakpoint N only if EXPRESSION (none: always)", 0,
     cmd_condition},
    {"continue", "c", "continue [&]",
     "resume until a breakpoint or the end (&: in the background)",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_continue},
    {"defset", NULL, "defset NAME SET", "name a rank set (then @NAME)", 0,
     cmd_defset},
    {"delete", "d", "delete [N]", "delete breakpoint N (all: no N)", 0,
     cmd_delete},
    {"disable", NULL, "disable [N]", "disable breakpoint N (all: no N)", 0,
     cmd_disable},
    {"display", NULL, "display EXPRESSION", "GDB's display",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_display},
    {"down", NULL, "down [N]", "select an inner frame",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_down},
    {"drop", NULL, "drop [@SET]", "end the replay of the ranks of the set",
     0, cmd_drop},
    {"enable", NULL, "enable [N]", "enable breakpoint N (all: no N)", 0,
     cmd_enable},
    {"event", NULL, "event RANK:N [--raw]",
     "one MPI event in full: arguments, times, status, data", 0, cmd_event},
    {"events", NULL, "events [--from N] [--count K] [--call F] [--peer P]",
     "the MPI events of the set's ranks, the current one marked =>", 0,
     cmd_events},
    {"expand", NULL, "expand [SET]",
     "each rank's own answer behind the last merged one", 0, cmd_expand},
    {"finish", NULL, "finish", "run until the current function returns",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_finish},
    {"focus", NULL, "focus [SET]",
     "the ranks later commands go to (the prompt shows it)", 0, cmd_focus},
    {"frame", "f", "frame [N]", "select or show a frame",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_frame},
    {"gdb", NULL, "gdb COMMAND", "any GDB command, answers merged",
     CON_NEEDS_RANKS, cmd_gdb},
    {"goto-collective", NULL, "goto-collective RANK:N",
     "every replayed member to the same instance of a collective", 0,
     cmd_goto_collective},
    {"goto-send", NULL, "goto-send [RANK:N]",
     "run the sender (started if needed) to the send a receive matched "
     "(no event: @R's last receive)", 0, cmd_goto_send},
    {"goto", NULL, "goto N",
     "run to just before MPI event N (from the nearest checkpoint, or the "
     "start)",
     CON_NEEDS_RANKS, cmd_goto},
    {"help", "h", "help [COMMAND]", "the commands, or one in full", 0,
     cmd_help},
    {"info", "i", "info breakpoints|sets|locals|args|frame|...",
     "drdb's breakpoints and sets, or GDB's info merged", 0, cmd_info},
    {"interrupt", NULL, "interrupt", "stop running ranks", CON_NEEDS_RANKS,
     cmd_interrupt},
    {"kill", NULL, "kill", "end the replay of the ranks (GDB too)",
     CON_NEEDS_RANKS, cmd_kill},
    {"list", "l", "list [LOCATION]", "source lines",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_list},
    {"match", NULL, "match RANK:N",
     "the partners of an event: the send of a receive, a collective's "
     "members", 0, cmd_match},
    {"next-event", "ne", "next-event [K]",
     "run to just before the K-th next MPI event (default 1)",
     CON_NEEDS_RANKS, cmd_next_event},
    {"next", "n", "next", "the next source line, over calls",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_next},
    {"prev-event", "pe", "prev-event [K]",
     "back to just before the K-th previous MPI event (default 1)",
     CON_NEEDS_RANKS, cmd_prev_event},
    {"print", "p", "print EXPRESSION", "evaluate, merged across ranks",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_print},
    {"ptype", NULL, "ptype EXPRESSION", "the type of an expression",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_ptype},
    {"queues", NULL, "queues",
     "at each rank's position: messages sent to it not yet received, its "
     "pending requests", 0, cmd_queues},
    {"quit", "q", "quit", "end the session (and every replay)", 0, cmd_quit},
    {"replay", NULL, "replay [@SET]",
     "start the replay of the ranks of the set, stopped at main", 0,
     cmd_replay},
    {"restart", NULL, "restart",
     "re-run ranks from the start of their logs, to main", CON_NEEDS_RANKS,
     cmd_restart},
    {"rollback", NULL, "rollback [@SET] ID",
     "return the ranks to checkpoint ID (sN: a shadow's file)", 0,
     con_cmd_rollback},
    {"set", NULL, "set var X = V | merge|prefix on|off | groups N | ...",
     "assign a variable, or a session option", 0, cmd_set},
    {"shadow", NULL, "shadow [@SET] [stop|wait]",
     "a background replay of each rank writing checkpoints ahead", 0,
     con_cmd_shadow},
    {"source", NULL, "source FILE", "run the commands of FILE", 0,
     cmd_source},
    {"status", NULL, "status",
     "each rank: state, event number of total, current MPI call, where", 0,
     cmd_status},
    {"step", "s", "step", "the next source line, into calls",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_step},
    {"tbreak", NULL, "tbreak LOCATION [if CONDITION]",
     "a breakpoint that deletes itself", CON_NEEDS_RANKS, cmd_tbreak},
    {"until-call", NULL, "until-call MPI_FUNCTION",
     "run to just before the next call of an MPI function",
     CON_NEEDS_RANKS, cmd_until_call},
    {"until", "u", "until", "the next line, not back into a loop",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_until},
    {"up", NULL, "up [N]", "select an outer frame",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_up},
    {"watch", NULL, "watch EXPRESSION", "stop when EXPRESSION changes",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_watch},
    {"whatis", NULL, "whatis EXPRESSION", "the type name of an expression",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_whatis},
    {"x", NULL, "x/FMT ADDRESS", "examine memory",
     CON_NEEDS_STOPPED | CON_NEEDS_RANKS, cmd_x},
};
const int con_ncmds = sizeof con_cmds / sizeof con_cmds[0];

const struct con_cmd *con_cmd_find(const char *name, size_t len)
{
    const struct con_cmd *found = NULL;
    int matches = 0;
    for (int i = 0; i < con_ncmds; i++) {
        const struct con_cmd *k = &con_cmds[i];
        if ((strlen(k->name) == len && strncmp(k->name, name, len) == 0) ||
            (k->alias && strlen(k->alias) == len &&
             strncmp(k->alias, name, len) == 0))
            return k;
        if (strncmp(k->name, name, len) == 0) {
            found = k;
            matches++;
        }
    }
    if (matches == 1)
        return found;
    if (matches > 1) {
        fprintf(stderr, "drdb: ambiguous command '%.*s', could be:",
                (int)len, name);
        for (int i = 0; i < con_ncmds; i++)
            if (strncmp(con_cmds[i].name, name, len) == 0)
                fprintf(stderr, " %s", con_cmds[i].name);
        fputc('\n', stderr);
    } else {
        fprintf(stderr, "drdb: unknown command '%.*s'; 'help' lists the "
                "commands\n", (int)len, name);
    }
    return NULL;
}

static int cmd_help(struct con *c, const struct rankset *set, const char *a)
{
    (void)c;
    (void)set;
    if (*a) {
        const struct con_cmd *k = con_cmd_find(a, strcspn(a, " \t"));
        if (!k)
            return -1;
        printf("usage: [@SET] %s\n%s%s%s\n", k->usage, k->summary,
               k->alias ? "\nalias: " : "", k->alias ? k->alias : "");
        return 0;
    }
    printf("commands (any unique prefix works; '@SET COMMAND' runs one on a "
           "rank set):\n");
    for (int i = 0; i < con_ncmds; i++)
        printf("  %-34s %s\n", con_cmds[i].usage, con_cmds[i].summary);
    printf("rank sets: 0-3,8  names (all stopped running exited diverged "
           "lost, defset)\n  operators: ',' union, '&' intersection, '!' "
           "difference, (...)\n");
    return 0;
}
