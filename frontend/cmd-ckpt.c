/*
 * Checkpoint commands: checkpoint, checkpoints, rollback, shadow (the work
 * is con-ckpt.c's; `set checkpoint-*` is cmd-session.c's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con.h"
#include "drdb-stub.h"

static int cmd_checkpoint(struct con *c, struct con_args *a)
{
    const struct rankset *set = &a->set;
    int n = rs_count(set), i = 0, rc = 0;
    struct con_answer *ans = calloc((size_t)n + 1, sizeof *ans);
    for (int r = 0; ans && r < c->nranks; r++) {
        if (!rs_has(set, r))
            continue;
        long id = con_ckpt_take(c, r);
        ans[i].rank = r;
        if (id > 0) {
            char at[64];
            asprintf(&ans[i].text, "checkpoint %ld (%s)", id,
                     con_ckpt_at(c, r, at, sizeof at));
        } else {
            rc = -1;
        }
        i++;
    }
    con_print_merged(c, ans, n);
    for (int j = 0; ans && j < n; j++)
        free(ans[j].text);
    free(ans);
    return rc;
}

static void human(char *buf, size_t len, unsigned long long b)
{
    if (b >= 10ULL << 30)
        snprintf(buf, len, "%.1f GiB", (double)b / (1 << 30));
    else if (b >= 10ULL << 20)
        snprintf(buf, len, "%.1f MiB", (double)b / (1 << 20));
    else
        snprintf(buf, len, "%.0f KiB", (double)b / 1024);
}

static int cmd_checkpoints(struct con *c, struct con_args *a)
{
    for (int r = 0; r < c->nranks; r++) {
        if (!rs_has(&a->set, r))
            continue;
        struct con_ckpt *v = NULL;
        int n = con_ckpt_list(c, r, &v);
        printf("rank %d: %d checkpoint%s\n", r, n, n == 1 ? "" : "s");
        if (n)
            printf("  %-6s %-8s %-9s %-9s %-10s %s\n", "id", "event",
                   "time (s)", "pages", "size", "kind");
        for (int i = 0; i < n; i++) {
            char sz[32], ev[32];
            human(sz, sizeof sz, v[i].bytes);
            if (v[i].event >= 0)
                snprintf(ev, sizeof ev, "%lld", v[i].event);
            else
                snprintf(ev, sizeof ev, "?");
            char tm[32] = "-";
            if (!v[i].external)
                snprintf(tm, sizeof tm, "%.3f", v[i].time);
            printf("  %-6s %-8s %-9s %-9llu %-10s %s%s\n", v[i].id, ev, tm,
                   v[i].pages, sz,
                   v[i].id[0] == 's' ? "shadow file"
                   : v[i].external   ? "taken here (checkpoint)"
                                     : "automatic",
                   v[i].parent ? "" : ", full");
        }
        free(v);
    }
    fflush(stdout);
    return 0;
}

static int cmd_rollback(struct con *c, struct con_args *a)
{
    if (!*a->text) {
        fprintf(stderr, "drdb: rollback [@SET] ID: which checkpoint? (see "
                "`checkpoints`)\n");
        return -1;
    }
    /* where the ranks rolled back stand (a refusal said why and left
     * the rank where it was) */
    struct rankset done;
    int rc = 0;
    if (rs_init(&done, c->nranks) < 0)
        return -1;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&a->set, r)) {
            if (con_ckpt_roll(c, r, a->text, NULL) < 0)
                rc = -1;
            else
                rs_add(&done, r);
        }
    if (rs_count(&done))
        con_print_where(c, &done);
    rs_release(&done);
    return rc;
}

static int cmd_shadow(struct con *c, struct con_args *a)
{
    const char *what = a->text;
    if (*what && strcmp(what, "wait") && strcmp(what, "stop")) {
        fprintf(stderr, "drdb: shadow [@SET] [stop|wait]: not '%s'\n", what);
        return -1;
    }
    if (strcmp(what, "wait") == 0)
        return con_shadow_wait(c, &a->set);
    if (strcmp(what, "stop") == 0) {
        con_shadow_stop(c, &a->set);
        fflush(stdout);
        return 0;
    }
    int rc = 0;
    for (int r = 0; r < c->nranks; r++)
        if (rs_has(&a->set, r) && con_shadow_start(c, r) < 0)
            rc = -1;
    fflush(stdout);
    return rc;
}

const struct con_cmd con_cmds_ckpt[] = {
    {"checkpoint", NULL, "checkpoint [@SET]",
     "checkpoint the ranks where they stand (rollback returns here)", 0, ".",
     cmd_checkpoint, NULL},
    {"checkpoints", NULL, "checkpoints [@SET]",
     "the ranks' checkpoints: id, event, replay time, pages, size", 0,
     ".", cmd_checkpoints, NULL},
    {"rollback", NULL, "rollback [@SET] ID",
     "return the ranks to checkpoint ID (sN: a shadow's file)", 0, NULL,
     cmd_rollback, NULL},
    {"shadow", NULL, "shadow [@SET] [stop|wait]",
     "a background replay of each rank writing checkpoints ahead", 0, NULL,
     cmd_shadow, NULL},
    {NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL},
};
