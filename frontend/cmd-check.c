/*
 * The console's checks (events/ev-check.h, docs/check.md): `check [LIST]`
 * runs them on the session's run and lists the findings numbered; `goto
 * finding K` (cmd-events.c's goto hands it here) brings the replayed
 * ranks a finding involves to its events; `info findings` lists the last
 * ones again.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "con.h"
#include "ev-check.h"

/* The session's last run of checks (c->check). */
struct con_check {
    struct ev_check_report rep;
    unsigned char *on;
    int interrupted;
};

void con_check_free(struct con *c)
{
    if (!c->check)
        return;
    ev_check_report_release(&c->check->rep);
    free(c->check->on);
    free(c->check);
    c->check = NULL;
}

/* Whether finding F has a site on a rank of SET. */
static int involves(const struct ev_check_kept *f, const struct rankset *set)
{
    for (int s = 0; s < f->nsites; s++)
        if (f->sites[s].rank >= 0 && rs_has(set, f->sites[s].rank))
            return 1;
    return 0;
}

/* The findings (those involving a rank of ONLY, when not NULL: numbered
 * as in the whole list), the notes and the counts. */
static void list_findings(struct con *c, const struct rankset *only)
{
    struct con_check *k = c->check;
    size_t shown = 0;
    for (size_t i = 0; i < k->rep.n; i++)
        if (!only || involves(&k->rep.f[i], only)) {
            ev_check_print_finding(c->ev, &k->rep, i, (int)i + 1, stdout);
            shown++;
        }
    ev_check_print_notes(&k->rep, stdout);
    if (k->interrupted)
        printf("interrupted: the checks stopped early\n");
    if (only) {
        char buf[256];
        printf("%zu of the %zu findings involve ranks %s\n", shown, k->rep.n,
               rs_format(only, buf, sizeof buf));
    }
    ev_check_print_counts(&k->rep, stdout);
    if (k->rep.n)
        printf("'goto finding K' brings the replayed ranks to finding K's "
               "events\n");
    fflush(stdout);
}

int con_check_info(struct con *c, const struct rankset *only)
{
    if (!c->check) {
        printf("no findings yet: 'check' runs the checks\n");
        return 0;
    }
    list_findings(c, only);
    return 0;
}

/* The LIST of `check [--checks] LIST` (as drdb check takes it, quotes
 * and all: the console passes no line through a shell) into BUF: it, or
 * NULL for every check. */
static const char *check_list(const char *text, char *buf, size_t len)
{
    if (!strncmp(text, "--checks", 8) &&
        (text[8] == '=' || isspace((unsigned char)text[8]))) {
        text += 9;
        while (isspace((unsigned char)*text))
            text++;
    }
    size_t n = strlen(text);
    if (n >= 2 && (*text == '\'' || *text == '"') && text[n - 1] == *text) {
        text++;
        n -= 2;
    }
    snprintf(buf, len, "%.*s", (int)n, text);
    return *buf ? buf : NULL;
}

static int cmd_check(struct con *c, struct con_args *a)
{
    char err[512], list[1024];
    if (!strcmp(a->text, "--list")) {
        ev_check_print_list(stdout);
        return 0;
    }
    struct ev_run *x = con_events(c);
    if (!x)
        return -1;
    struct con_check *k = calloc(1, sizeof *k);
    unsigned char *on = malloc(ev_check_count() + 1);
    if (!k || !on) {
        free(k);
        free(on);
        return -1;
    }
    if (ev_check_select(check_list(a->text, list, sizeof list), on, err,
                        sizeof err) < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        free(k);
        free(on);
        return -1;
    }
    k->on = on;
    ev_check_report_init(&k->rep);
    con_sigint = 0;
    struct ev_check_ctx ctx = {.x = x, .emit = ev_check_keep_emit,
                               .note = ev_check_keep_note, .ud = &k->rep,
                               .interrupted = (volatile int *)&con_sigint};
    int rc = ev_check_run(&ctx, on, err, sizeof err);
    if (con_sigint) {
        con_sigint = 0;
        c->interrupted = 1;
        k->interrupted = 1;
    }
    if (rc < 0) {
        fprintf(stderr, "drdb: %s\n", err);
        ev_check_report_release(&k->rep);
        free(on);
        free(k);
        return -1;
    }
    con_check_free(c);
    c->check = k;
    list_findings(c, a->given ? &a->set : NULL);
    return 0;
}

int con_check_goto(struct con *c, const char *text,
                   const struct rankset *in)
{
    long long kk;
    struct con_check *k = c->check;
    if (fe_parse_int(text, 1, 1LL << 30, &kk) < 0) {
        fprintf(stderr, "drdb: goto finding K: which finding? ('check' "
                "numbers them)\n");
        return -1;
    }
    if (!k || (size_t)kk > k->rep.n) {
        fprintf(stderr, "drdb: no finding %lld: %s\n", kk,
                k ? "'info findings' lists them"
                  : "'check' runs the checks first");
        return -1;
    }
    const struct ev_check_kept *f = &k->rep.f[kk - 1];
    uint64_t *t = calloc((size_t)c->nranks, sizeof *t);
    struct rankset set, off, out;
    char buf[256];
    if (!t || rs_init(&set, c->nranks) < 0) {
        free(t);
        return -1;
    }
    rs_init(&off, c->nranks);
    rs_init(&out, c->nranks);
    /* each rank of IN to its first site's event (a finding's first site
     * is its main one); a site at the end of a log ("R:end": a rank blocked
     * for good) to that end, in the call it never returned from */
    for (int s = 0; s < f->nsites; s++) {
        int r = f->sites[s].rank;
        if (r < 0 || r >= c->nranks || rs_has(&set, r) || rs_has(&off, r) ||
            rs_has(&out, r))
            continue;
        if (!c->ranks[r]->gdb && c->ranks[r]->state != CON_DEFERRED) {
            rs_add(&off, r);
            continue;
        }
        if (!rs_has(in, r)) {
            rs_add(&out, r);
            continue;
        }
        rs_add(&set, r);
        t[r] = f->sites[s].event == EV_NONE ? c->nevents[r]
                                            : f->sites[s].event;
    }
    if (rs_count(&out))
        printf("[%s] not moved: not in the command's ranks ('@%s goto "
               "finding %lld' moves them)\n", rs_format(&out, buf, sizeof buf),
               buf, kk);
    if (rs_count(&off))
        printf("[%s] not moved: not replayed ('replay @R' starts a rank)\n",
               rs_format(&off, buf, sizeof buf));
    int rc = -1;
    if (rs_count(&set)) {
        printf("[%s] to finding %lld's events\n",
               rs_format(&set, buf, sizeof buf), kk);
        rc = con_goto_or_end(c, &set, t, 0);
    } else {
        fprintf(stderr, "drdb: finding %lld involves no replayed rank%s\n",
                kk, rs_count(&out) ? " of the command's" : "");
    }
    rs_release(&set);
    rs_release(&off);
    rs_release(&out);
    free(t);
    return rc;
}

const struct con_cmd con_cmds_check[] = {
    {"check", NULL, "check [[--checks] LIST] | check --list",
     "run drdb check's MPI checks on the run (LIST: names or patterns, as "
     "drdb check --checks) and list the findings numbered, for 'goto "
     "finding K'; --list: the checks", 0,
     NULL, cmd_check, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
