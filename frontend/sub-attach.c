/* drdb attach: the kept sessions on a host (remote.h, "keeping a
 * session"; docs/remote.md): lists them and ends one here; HOST [ID]
 * alone is the console on one (fe_console_attach, sub-console.c). */
#include <getopt.h>
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

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"list", no_argument, NULL, 'l'},
        {"end", no_argument, NULL, 'e'},
        {"ssh-option", required_argument, NULL, 'O'},
        {"remote-drdb", required_argument, NULL, 'D'},
        {NULL, 0, NULL, 0},
    };
    const char *ssh_opts[64];
    struct remote_opts o = {.ssh_opts = ssh_opts};
    int list = 0, end = 0, c;
    /* without --list or --end: the console takes the session over */
    for (c = 1; c < argc && strcmp(argv[c], "--") != 0; c++)
        if (strcmp(argv[c], "--list") == 0 || strcmp(argv[c], "--end") == 0)
            break;
    if (c == argc || strcmp(argv[c], "--") == 0)
        return fe_console_attach(argc, argv);
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'l':
            list = 1;
            break;
        case 'e':
            end = 1;
            break;
        case 'O':
            if (o.nssh_opts == (int)(sizeof ssh_opts / sizeof *ssh_opts))
                return fe_error("too many --ssh-option");
            ssh_opts[o.nssh_opts++] = optarg;
            break;
        case 'D':
            o.drdb = optarg;
            break;
        default:
            fe_subcmd_usage(&fe_sub_attach, stderr);
            return 2;
        }
    }
    if (optind >= argc || argc - optind > 2 || (list && end) ||
        (list && argc - optind > 1)) {
        fe_subcmd_usage(&fe_sub_attach, stderr);
        return 2;
    }
    o.host = argv[optind];
    const char *id = optind + 1 < argc ? argv[optind + 1] : NULL;
    if (!list)
        return show(&o, id, end);
    struct remote *r;
    char **ids, err[1200];
    size_t n;
    if (remote_connect(&r, &o, err, sizeof err) < 0)
        return fe_error("%s", err);
    if (remote_sessions(r, &ids, &n, err, sizeof err) < 0) {
        remote_close(r);
        return fe_error("%s", err);
    }
    remote_close(r);
    if (!n)
        printf("no kept session on %s\n", o.host);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        rc |= show(&o, ids[i], 0);
        free(ids[i]);
    }
    free(ids);
    return rc;
}

const struct fe_subcmd fe_sub_attach = {
    .name = "attach",
    .args = "[--ssh-option OPT]... [--remote-drdb PATH] "
            "(--list HOST | --end HOST [ID] | [CONSOLE-OPTIONS] HOST [ID])",
    .summary = "the console sessions kept on a host: take one back, list, "
               "end",
    .help =
        "A console started with --keep goes on on its hosts when its "
        "connection drops:\nits GDBs wait where they are, their output held "
        "there, until a client\nattaches again or the time limit passes "
        "with nobody attached (then everything\nends).\n\n"
        "  HOST [ID]     the console again on that session (the only one on "
        "HOST when\n"
        "                ID is not given): its run opened from the session's "
        "note, the\n"
        "                kept GDBs as the ranks' GDBs, stopped where they "
        "were, the\n"
        "                breakpoints, displays, sets and focus as they were; "
        "the\n"
        "                console's options apply (-x F, --batch, --timeout "
        "S, --json,\n"
        "                -k); its end ends the session\n"
        "  --list HOST   each kept session of yours on HOST: its id, note "
        "and processes\n"
        "                (label, pid, running or exited); nothing changes\n"
        "  --end HOST [ID]  ends it: its processes are killed, as when a "
        "connection\n"
        "                without keeping ends\n"
        "  --ssh-option OPT, --remote-drdb PATH  as for drdb replay "
        "--host\n\n"
        "HOST localhost reaches the sessions of local agents. See "
        "docs/remote.md,\n\"Keeping a session\".\n\n"
        "example:\n  drdb attach node17 1234\n"
        "  drdb attach --batch -x check.drdb node17 1234\n",
    .run = run,
};
