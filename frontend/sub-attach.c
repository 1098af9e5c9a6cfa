/* drdb attach: the kept sessions on a host (remote.h, "keeping a
 * session"; docs/remote.md): lists them and ends one here; HOST [ID]
 * alone is the console on one (fe_console_attach, sub-console.c). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fe.h"
#include "remote.h"

/* Session ID on O's host, listed to stdout; ended when END: 0, or 1
 * after saying why not. */
static int show(const struct remote_opts *o, const char *id, int end)
{
    struct remote *r;
    struct remote_proc **procs;
    size_t n;
    char *note, err[1200];
    if (remote_peek(&r, o, id, &procs, &n, &note, err, sizeof err) < 0)
        return fe_error("%s", err);
    printf("session %s on %s: %zu process%s\n", remote_session(r),
           remote_host(r), n, n == 1 ? "" : "es");
    if (note[0]) {
        size_t len = strcspn(note, "\n");
        printf("  note: %.*s%s\n", (int)(len > 200 ? 200 : len), note,
               len > 200 || note[len] ? " ..." : "");
    }
    for (size_t i = 0; i < n; i++) {
        struct remote_proc *p = procs[i];
        char state[64] = "running";
        if (p->exited && WIFEXITED(p->status))
            snprintf(state, sizeof state, "exited (status %d)",
                     WEXITSTATUS(p->status));
        else if (p->exited)
            snprintf(state, sizeof state, "killed (signal %d)",
                     WTERMSIG(p->status));
        printf("  %-12s pid %-8d %s\n", p->label ? p->label : "-",
               (int)p->pid, state);
    }
    free(procs);
    free(note);
    int rc = 0;
    if (end == 1 && remote_keep(r, 0, NULL, err, sizeof err) < 0)
        rc = fe_error("%s", err);
    else if (end == 1)
        printf("session %s on %s ended\n", remote_session(r),
               remote_host(r));
    /* Not ended: it stays kept, its output held, for the next attach. */
    remote_close(r);
    return rc;
}

struct attach_opts {
    int list, end;
    struct fe_run_opts run;
};

#define OFF(f) offsetof(struct attach_opts, f)
static const struct fe_opt attach_opts[] = {
    FE_FLAG(0, "list", OFF(list), "each kept session of yours on HOST: its "
     "id, note and processes (label, pid, running or exited); nothing changes"),
    FE_FLAG(0, "end", OFF(end), "end session ID on HOST (the only one when "
     "ID is not given): its processes are killed, as when a connection "
     "without keeping ends"),
    FE_GROUP(OFF(run), fe_run_opt_table),
    FE_END,
};
#undef OFF

static int run(int argc, char **argv)
{
    /* without --list or --end: the console takes the session over */
    int c;
    for (c = 1; c < argc && strcmp(argv[c], "--") != 0; c++)
        if (strcmp(argv[c], "--list") == 0 || strcmp(argv[c], "--end") == 0)
            break;
    if (c == argc || strcmp(argv[c], "--") == 0)
        return fe_console_attach(argc, argv);
    static struct attach_opts o;
    struct fe_pos pos;
    fe_run_opts_init(&o.run);
    if (fe_subcmd_parse(&fe_sub_attach, argc, argv, &o, 2, &pos) < 0)
        return 2;
    if (!pos.n || pos.rest < argc || (o.list && o.end) ||
        (o.list && pos.n > 1))
        return fe_subcmd_misuse(&fe_sub_attach);
    if (o.run.host || o.run.nparts || o.run.hosts.n)
        return fe_error("attach: the host is HOST, not --host, --hosts or "
                        "--also"), 2;
    struct remote_opts ro = o.run.ro;
    ro.host = pos.v[0];
    const char *id = pos.n > 1 ? pos.v[1] : NULL;
    if (!o.list)
        return show(&ro, id, o.end);
    struct remote *r;
    char **ids, err[1200];
    size_t n;
    if (remote_connect(&r, &ro, err, sizeof err) < 0)
        return fe_error("%s", err);
    if (remote_sessions(r, &ids, &n, err, sizeof err) < 0) {
        remote_close(r);
        return fe_error("%s", err);
    }
    remote_close(r);
    if (!n)
        printf("no kept session on %s\n", ro.host);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        rc |= show(&ro, ids[i], 0);
        free(ids[i]);
    }
    free(ids);
    return rc;
}

const struct fe_subcmd fe_sub_attach = {
    .name = "attach",
    .args = "--list HOST | --end HOST [ID] | HOST [ID]",
    .summary = "the console sessions kept on a host: take one back, list, "
               "end",
    .help =
        "A console started with --keep goes on on its hosts when its "
        "connection drops:\nits GDBs wait where they are, their output held "
        "there, until a client\nattaches again or the time limit passes "
        "with nobody attached (then everything\nends).\n\n"
        "HOST [ID] is the console again on that session (the only one on "
        "HOST when ID\nis not given): its run opened from the session's "
        "note, the kept GDBs as the\nranks' GDBs, stopped where they were, "
        "the breakpoints, displays, sets and\nfocus as they were. The "
        "console's options apply (-x F, --batch, --timeout S,\n--json, -k: "
        "'drdb console --help'); its end ends the session.\n",
    .opts = attach_opts,
    .more = "HOST localhost reaches the sessions of local agents. See "
            "docs/remote.md,\n\"Keeping a session\".\n\n"
            "example:\n  drdb attach node17 1234\n"
            "  drdb attach --batch -x check.drdb node17 1234\n",
    .run = run,
};
