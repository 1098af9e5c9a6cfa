/*
 * Merged output: one answer per rank, identical answers printed once and
 * tagged with their rank set ("[0-6,8] x = 5"), many distinct answers cut
 * to the largest groups (`expand` shows each rank's), the command's results
 * as JSON in batch --json mode; sending one GDB command to a set of ranks
 * and merging the replies; where each rank stands.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "con.h"
#include "term-escape.h"

static void json_drain(struct con *c);

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

/*
 * Numbers GDB gives each rank's process its own of, that would keep
 * equal answers apart: the value history's "$5 = " (a rank that skipped a
 * print numbers its next one lower) and a process's or thread's id
 * ("process 7740", "LWP 7741"). Answers that differ only in them merge;
 * a number that differs within the group shows as "*" (`expand` shows
 * each rank's).
 */
#define MERGE_IDS 32 /* tokens considered in an answer */

/* The length of the id token at P (its digits), or 0: P at the start of
 * the answer after '$', or after "process " or "LWP ". */
static size_t id_token(const char *start, const char *p)
{
    if (*p < '0' || *p > '9')
        return 0;
    int ok = (p == start + 1 && start[0] == '$') ||
             (p - start >= 8 && !strncmp(p - 8, "process ", 8)) ||
             (p - start >= 4 && !strncmp(p - 4, "LWP ", 4));
    return ok ? strspn(p, "0123456789") : 0;
}

/* Whether A and B are the same but for their id tokens; the tokens that
 * differ set their bit in *DIFF. */
static int same_but_ids(const char *a, const char *b, unsigned *diff)
{
    const char *pa = a, *pb = b;
    int tok = 0;
    while (*pa && *pb) {
        size_t la = id_token(a, pa), lb = id_token(b, pb);
        if (la && lb) {
            if ((la != lb || strncmp(pa, pb, la)) && tok < MERGE_IDS)
                *diff |= 1u << tok;
            tok++;
            pa += la;
            pb += lb;
            continue;
        }
        if (*pa != *pb)
            return 0;
        pa++;
        pb++;
    }
    return *pa == *pb;
}

/* TEXT with the id tokens DIFF marks as "*" (malloc'd). */
static char *star_ids(const char *text, unsigned diff)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    int tok = 0;
    for (const char *p = text; out && *p;) {
        size_t l = id_token(text, p);
        if (l) {
            if (tok < MERGE_IDS && (diff & (1u << tok)))
                *o++ = '*';
            else
                o += sprintf(o, "%.*s", (int)l, p);
            tok++;
            p += l;
            continue;
        }
        *o++ = *p++;
    }
    if (out)
        *o = '\0';
    return out;
}

void con_print_merged(struct con *c, struct con_answer *ans, int n)
{
    /* group[i]: the group of answer i; groups[g] = {first answer, size};
     * diffs[g]: its id tokens that differ */
    int *group = calloc((size_t)n + 1, sizeof *group), ng = 0;
    unsigned *diffs = calloc((size_t)n + 1, sizeof *diffs);
    int(*groups)[2] = calloc((size_t)n + 1, sizeof *groups);
    int(*order)[2] = calloc((size_t)n + 1, sizeof *order);
    struct rankset s;
    char buf[512];
    if (!group || !groups || !order || !diffs ||
        rs_init(&s, c->nranks) < 0) {
        free(group);
        free(groups);
        free(order);
        free(diffs);
        return;
    }
    keep_last(c, ans, n);
    if (c->json_f)
        json_drain(c); /* what was printed before, first */
    for (int i = 0; i < n; i++) {
        group[i] = -1;
        if (!ans[i].text || !*ans[i].text)
            continue; /* no answer, or an empty one (set var) */
        unsigned d = 0;
        for (int g = 0; c->merge && g < ng; g++, d = 0)
            if (same_but_ids(ans[groups[g][0]].text, ans[i].text, &d)) {
                diffs[g] |= d;
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
                    ? c->max_groups : ng;
    for (int o = 0; o < ng; o++) {
        int g = order[o][0];
        rs_clear(&s);
        for (int i = 0; i < n; i++)
            if (group[i] == g)
                rs_add(&s, ans[i].rank);
        char *starred = diffs[g] ? star_ids(ans[groups[g][0]].text, diffs[g])
                                 : NULL;
        const char *text = starred ? starred : ans[groups[g][0]].text;
        rs_format(&s, buf, sizeof buf);
        if (c->json_f) {
            con_json_sep(c);
            fprintf(c->json_f, "{\"ranks\": \"%s\", \"text\": ", buf);
            con_json_str(c, c->json_f, text, strlen(text));
            fputc('}', c->json_f);
        } else if (o < shown) {
            /* A multi-line answer: the tag on its own line. */
            printf("[%s]%c", buf, strchr(text, '\n') ? '\n' : ' ');
            con_put_text(c, text, strlen(text));
            putchar('\n');
        }
        free(starred);
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
    free(diffs);
}

void con_json_str(struct con *c, FILE *f, const char *s, size_t len)
{
    int invalid = 0;
    char *j = malloc(TERM_JSON_MAX(len));
    if (!j) {
        fputs("\"\"", f);
        return;
    }
    fwrite(j, 1, term_json(s, len, j, &invalid), f);
    free(j);
    if (invalid && !c->json_bad_said) {
        c->json_bad_said = 1;
        fprintf(stderr, "drdb: --json: some text is not UTF-8: each byte "
                "that is not is written as \\u00XX, the character of its "
                "value (docs/console.md)\n");
    }
}

void con_put_text(struct con *c, const char *s, size_t len)
{
    if (c->json_out) {
        fwrite(s, 1, len, stdout);
        return;
    }
    char *t = term_escape_mem(s, len, c->color && isatty(STDOUT_FILENO)
                                          ? TERM_ESCAPE_SGR : 0);
    if (t)
        fputs(t, stdout);
    free(t);
}

/* ---- JSON lines (--json) ------------------------------------------------- */

int con_json_open(struct con *c)
{
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    FILE *cap = tmpfile();
    c->json_out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!c->json_out || !cap || dup2(fileno(cap), STDOUT_FILENO) < 0) {
        perror("drdb: --json");
        if (cap)
            fclose(cap);
        if (c->json_out)
            fclose(c->json_out);
        else if (fd >= 0)
            close(fd);
        c->json_out = NULL;
        return -1;
    }
    fclose(cap); /* stdout holds it */
    return 0;
}

/* What stdout captured since the last call, one object per line: into the
 * command's results ({"text": LINE}) while one runs, else {"output": LINE}
 * lines on the real stdout. */
static void json_drain(struct con *c)
{
    fflush(stdout);
    off_t end = lseek(STDOUT_FILENO, 0, SEEK_CUR);
    if (end <= 0)
        return;
    char *buf = malloc((size_t)end + 1);
    ssize_t got = buf ? pread(STDOUT_FILENO, buf, (size_t)end, 0) : -1;
    if (ftruncate(STDOUT_FILENO, 0) < 0 ||
        lseek(STDOUT_FILENO, 0, SEEK_SET) < 0)
        perror("drdb: --json");
    for (char *l = buf; got > 0 && l < buf + got;) {
        char *e = memchr(l, '\n', (size_t)(buf + got - l));
        if (!e)
            e = buf + got;
        if (c->json_f) {
            con_json_sep(c);
            fputs("{\"text\": ", c->json_f);
            con_json_str(c, c->json_f, l, (size_t)(e - l));
            fputc('}', c->json_f);
        } else {
            fputs("{\"output\": ", c->json_out);
            con_json_str(c, c->json_out, l, (size_t)(e - l));
            fputs("}\n", c->json_out);
        }
        l = e + 1;
    }
    free(buf);
    fflush(c->json_out);
}

void con_json_close(struct con *c)
{
    if (!c->json_out)
        return;
    json_drain(c);
    fflush(c->json_out);
    dup2(fileno(c->json_out), STDOUT_FILENO);
    fclose(c->json_out);
    c->json_out = NULL;
}

void con_json_sep(struct con *c)
{
    if (c->json_f && ftell(c->json_f) > 0)
        fputs(", ", c->json_f);
}

void con_json_begin(struct con *c)
{
    if (!c->json_out)
        return;
    if (c->json_f) {
        c->json_depth++;
        return;
    }
    json_drain(c);
    c->json_buf = NULL;
    c->json_len = 0;
    c->json_f = open_memstream(&c->json_buf, &c->json_len);
}

void con_json_end(struct con *c, const char *line, const struct rankset *set,
                  int rc)
{
    if (!c->json_out || !c->json_f)
        return;
    if (c->json_depth) {
        c->json_depth--;
        return;
    }
    json_drain(c);
    fclose(c->json_f);
    c->json_f = NULL;
    char buf[256];
    fputs("{\"command\": ", c->json_out);
    con_json_str(c, c->json_out, line, strlen(line));
    fprintf(c->json_out, ", \"ranks\": \"%s\", \"ok\": %s, \"results\": "
            "[%s]}\n", rs_format(set, buf, sizeof buf),
            rc < 0 ? "false" : "true", c->json_buf ? c->json_buf : "");
    fflush(c->json_out);
    free(c->json_buf);
    c->json_buf = NULL;
}

void con_table_row(struct con *c, int n, const char *const *keys,
                   const char *const *vals, const char *line)
{
    if (!c->json_f) {
        con_put_text(c, line, strlen(line));
        putchar('\n');
        return;
    }
    json_drain(c);
    con_json_sep(c);
    fputc('{', c->json_f);
    for (int i = 0; i < n; i++) {
        int num = keys[i][0] == '#';
        fprintf(c->json_f, "%s", i ? ", " : "");
        con_json_str(c, c->json_f, keys[i] + num, strlen(keys[i] + num));
        fputs(": ", c->json_f);
        if (num)
            fputs(vals[i], c->json_f);
        else
            con_json_str(c, c->json_f, vals[i], strlen(vals[i]));
    }
    fputc('}', c->json_f);
}


/* ---- one command to every rank of a set ---------------------------------- */

struct slot {
    struct con_answer *ans;
    con_formatter *fmt;
    const char *arg;
    int failed;
    struct con_rank *k;
    const struct con *c; /* a CLI command's: its answer in GDB's words */
};

static char *fmt_error(const struct mi_reply *r)
{
    char *t = NULL;
    if (asprintf(&t, "error: %s", r->message ? r->message
                                               : mi_strerror(r->status)) < 0)
        return NULL;
    return t;
}

/* A CLI command's answer: what GDB printed, then its error as GDB words
 * it (no "error: "), breakpoint numbers the session's. */
static char *cli_answer(const struct con *c, int r, const struct mi_reply *rep)
{
    size_t len = rep->console_len;
    while (len && rep->console[len - 1] == '\n')
        len--;
    char *t = NULL, *out;
    if (rep->status == 0)
        t = strndup(rep->console ? rep->console : "", len);
    else
        asprintf(&t, "%.*s%s%s", (int)len, rep->console ? rep->console : "",
                 len ? "\n" : "",
                 rep->message ? rep->message : mi_strerror(rep->status));
    out = t ? con_renumber(c, r, t) : NULL;
    free(t);
    return out;
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
    if (r->status != 0)
        sl->failed = 1;
    if (sl->c)
        sl->ans->text = cli_answer(sl->c, sl->k->rank, r);
    else if (r->status != 0)
        sl->ans->text = fmt_error(r);
    else
        sl->ans->text = sl->fmt ? sl->fmt(r, sl->arg) : NULL;
}

/* The MI command MI on every rank of SET, answers merged: by FMT, or
 * (CLI) a CLI command's in GDB's words. */
static int run_merged(struct con *c, const struct rankset *set,
                      const char *mi, con_formatter *fmt, const char *arg,
                      int cli)
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
        slots[i] = (struct slot){&ans[i], fmt, arg, 0, c->ranks[r],
                                 cli ? c : NULL};
        struct con_rank *k = c->ranks[r];
        if (!k->gdb || k->state == CON_LOST || k->state == CON_RUNNING) {
            asprintf(&ans[i].text, "%s%s", cli ? "" : "error: ",
                     k->gdb ? con_state_name(k->state) : "not replayed");
            slots[i].failed = 1;
            i++;
            continue;
        }
        if (mi_gdb_send(c->ranks[r]->gdb, mi, c->timeout_ms, on_reply,
                        &slots[i]) < 0) {
            slots[i].failed = 1;
            ans[i].text = strdup(cli ? "its GDB is gone"
                                     : "error: its GDB is gone");
        }
        i++;
    }
    if (con_wait(c, set, 0) < 0)
        fprintf(stderr, "drdb: timed out after %d ms\n", c->timeout_ms);
    for (int k = 0; k < n; k++)
        if (!slots[k].failed && !ans[k].text && (fmt || cli)) {
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

int con_run_merged(struct con *c, const struct rankset *set, const char *mi,
                   con_formatter *fmt, const char *arg)
{
    return run_merged(c, set, mi, fmt, arg, 0);
}

int con_passthrough(struct con *c, const struct rankset *set,
                    const char *cli)
{
    char *mi = con_mi_console(cli);
    int rc = mi ? run_merged(c, set, mi, NULL, NULL, 1) : -1;
    free(mi);
    return rc;
}

/* ---- where the ranks are ------------------------------------------------- */

/* ANS merged, the lines every answer starts with ("Continuing.") said
 * once for all of them when the rest differs ("Breakpoint 1, f (n=6)" on
 * a rank, "f (n=7)" on another). */
static void print_common_first(struct con *c, struct con_answer *ans, int n)
{
    size_t common = (size_t)-1;
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        if (!ans[i].text || !*ans[i].text)
            return con_print_merged(c, ans, n);
        size_t k = 0, last = 0;
        const char *a = ans[i].text, *b = ans[0].text;
        /* whole lines alike, up to the first that differs */
        while (a[k] && a[k] == b[k]) {
            if (a[k] == '\n')
                last = k + 1;
            k++;
        }
        common = last < common ? last : common;
        unsigned d = 0;
        distinct |= !(c->merge && same_but_ids(a, b, &d));
    }
    /* (the blank lines GDB puts before "Breakpoint 1, ..." go: each rank's
     * rest is under its own tag) */
    while (common > 1 && ans[0].text[common - 2] == '\n')
        common--;
    if (!distinct || common == (size_t)-1 || common < 2 || !c->merge) {
        con_print_merged(c, ans, n);
        return;
    }
    struct con_answer *head = calloc((size_t)n + 1, sizeof *head);
    if (!head) {
        con_print_merged(c, ans, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        head[i].rank = ans[i].rank;
        head[i].text = strndup(ans[i].text, common - 1);
        size_t skip = common + strspn(ans[i].text + common, "\n");
        memmove(ans[i].text, ans[i].text + skip,
                strlen(ans[i].text + skip) + 1);
    }
    con_print_merged(c, head, n);
    con_print_merged(c, ans, n);
    for (int i = 0; i < n; i++)
        free(head[i].text);
    free(head);
}

void con_print_where(struct con *c, const struct rankset *set)
{
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(set, r))
            con_stub_failure(c, c->ranks[r]);
    int n = rs_count(set), i = 0;
    struct con_answer *ans = calloc((size_t)n + 1, sizeof *ans);
    if (!ans)
        return;
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        struct con_rank *k = c->ranks[r];
        ans[i].rank = r;
        /* GDB's words for the command that stopped it (or ended it) */
        char *report = k->state == CON_DIVERGED || k->state == CON_LOG_END
                           ? NULL
                           : con_stop_report(c, k);
        /* said once: a later move of the rank that is no command of GDB's
         * (a rollback, a goto) is said in drdb's words */
        if (report) {
            k->stop.len = 0;
            k->stop.text[0] = '\0';
        }
        if (k->state == CON_DIVERGED)
            asprintf(&ans[i].text, "diverged at %s: %s", k->where,
                     k->reason);
        else if (k->state == CON_LOG_END)
            asprintf(&ans[i].text, "end of log (the recorded rank stopped "
                     "here) at %s: %s", k->where, k->reason);
        else if (report && k->state == CON_EXITED &&
                 *con_exit_meaning(k->exit_code))
            asprintf(&ans[i].text, "%s%s", report,
                     con_exit_meaning(k->exit_code));
        else if (report)
            ans[i].text = report, report = NULL;
        else if (k->state == CON_STOPPED)
            asprintf(&ans[i].text, "%s%s%s", k->where,
                     k->reason[0] ? ", " : "", k->reason);
        else if (k->state == CON_RUNNING && k->stop.len) {
            /* what GDB said so far (Continuing.), said once */
            asprintf(&ans[i].text, "%s\nrunning", k->stop.text);
            k->stop.len = 0;
            k->stop.text[0] = '\0';
        }
        else
            asprintf(&ans[i].text, "%s%s%s", con_state_name(k->state),
                     k->reason[0] ? ": " : "", k->reason);
        free(report);
        i++;
    }
    print_common_first(c, ans, n);
    for (int k = 0; k < n; k++)
        free(ans[k].text);
    free(ans);
    con_display_show(c, set, 0);
}

void con_print_stopped(struct con *c)
{
    struct rankset s;
    if (rs_init(&s, c->nranks) < 0)
        return;
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (!k->changed)
            continue;
        k->changed = 0;
        rs_add(&s, r);
        con_stop_end(c, k);
        if (k->tbpt_hit)
            con_stop_forget(c, k);
    }
    if (rs_count(&s)) {
        con_out_begin(c);
        con_print_where(c, &s);
        con_out_end(c);
    }
    rs_release(&s);
}

int con_display_x(const char *fmt)
{
    return fmt[0] && strpbrk(fmt + 1, "is") != NULL;
}

/* Display D on rank R as GDB shows it ("1: x = 5", "2: /x x = 0x5", "3:
 * x/i $pc" then the instruction), or (*FAILED set) GDB's error. */
static char *display_one(struct con *c, const struct con_display *d, int r,
                         int *failed)
{
    char cli[600];
    char *t = NULL, *mi;
    struct mi_reply rep;
    int x = con_display_x(d->fmt);
    snprintf(cli, sizeof cli, "%s%s %s", x ? "x" : "output",
             d->fmt[0] ? d->fmt : "", d->expr);
    if (!(mi = con_mi_console(cli)))
        return NULL;
    int st = mi_gdb_exec_sync(c->ranks[r]->gdb, mi, &rep,
                              c->timeout_ms > 0 ? c->timeout_ms : 30000);
    free(mi);
    if (st == 0) {
        size_t len = rep.console_len;
        while (len && rep.console[len - 1] == '\n')
            len--;
        if (x) {
            /* GDB's "x/FMT": the count unless 1, the letter, the size
             * unless the letter is i or s ("/1bi" is "x/i") */
            const char *f = d->fmt + 1;
            long count = strtol(f, (char **)&f, 10);
            char size = 0, letter = 0, head[32];
            for (; *f; f++)
                *(strchr("bhwg", *f) ? &size : &letter) = *f;
            int o = snprintf(head, sizeof head, "x/");
            if (count > 1)
                o += snprintf(head + o, sizeof head - (size_t)o, "%ld",
                              count);
            snprintf(head + o, sizeof head - (size_t)o, "%c%c", letter,
                     size && !strchr("is", letter) ? size : '\0');
            asprintf(&t, "%d: %s %s\n%.*s", d->id, head, d->expr, (int)len,
                     rep.console ? rep.console : "");
        }
        else
            asprintf(&t, "%d: %s%s%s = %.*s", d->id, d->fmt,
                     d->fmt[0] ? " " : "", d->expr, (int)len,
                     rep.console ? rep.console : "");
    } else {
        *failed = 1;
        asprintf(&t, "%s", rep.message ? rep.message : mi_strerror(st));
    }
    mi_reply_release(&rep);
    return t;
}

int con_display_show(struct con *c, const struct rankset *set, int only)
{
    int rc = 0, n = 0;
    struct con_answer *ans;
    if (!c->ndisps ||
        !(ans = calloc((size_t)c->nranks + 1, sizeof *ans)))
        return 0;
    for (int i = 0; i < c->ndisps; i++) {
        struct con_display *d = &c->disps[i];
        if ((only > 0 && d->id != only) || (only <= 0 && d->disabled))
            continue;
        n = 0;
        for (int r = 0; r < c->nranks; r++) {
            if (!rs_has(set, r) || !rs_has(&d->set, r) || !c->ranks[r]->gdb ||
                (c->ranks[r]->state != CON_STOPPED &&
                 c->ranks[r]->state != CON_LOG_END))
                continue;
            int failed = 0;
            ans[n].rank = r;
            ans[n].text = display_one(c, d, r, &failed);
            /* At a stop, as GDB: not shown where it cannot be (out of
             * its scope); when it is made, an error. */
            if (failed && only <= 0) {
                free(ans[n].text);
                continue;
            }
            rc |= -failed;
            n++;
        }
        con_print_merged(c, ans, n);
        for (int k = 0; k < n; k++)
            free(ans[k].text);
    }
    free(ans);
    return rc;
}
