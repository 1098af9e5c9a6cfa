/*
 * The console's poll loop: one poll() over every rank's GDB and its
 * program's terminal, GDB's asynchronous records (a rank runs, stops,
 * exits), the program output printed at the end of each round, waiting for
 * ranks to answer or stop, Ctrl-C, and ranks lost with their GDB.
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "con.h"
#include "drdb-stub.h"
#include "remote.h"
#include "term-escape.h"
#include "util.h"

volatile sig_atomic_t con_sigint;

void con_out_begin(struct con *c)
{
    if (c->out_begin)
        c->out_begin();
}

void con_out_end(struct con *c)
{
    fflush(stdout);
    if (c->out_end)
        c->out_end();
}

/*
 * Program output: the lines that arrive in one round of the poll loop are
 * printed together at its end, identical lines of several ranks collapsed
 * into one tagged with their set ("[0-3] iteration 7"); each rank's own
 * lines keep their order.
 */
static void out_add(struct con *c, struct con_rank *k, const char *text,
                    size_t len)
{
    if (util_grow(&c->out, &c->cap_out, (size_t)c->nout + 1,
                 sizeof *c->out) < 0)
        return;
    struct con_out_line *l = &c->out[c->nout];
    l->rank = k->rank;
    l->len = len;
    l->occ = 0;
    if (!(l->text = malloc(len + 1)))
        return;
    memcpy(l->text, text, len);
    l->text[len] = '\0';
    for (int i = 0; i < c->nout; i++)
        if (c->out[i].rank == k->rank && c->out[i].len == len &&
            memcmp(c->out[i].text, l->text, len) == 0)
            l->occ++;
    c->nout++;
}

static void out_flush(struct con *c)
{
    struct con_out_line *out = c->out;
    struct rankset s;
    char buf[512];
    if (!c->nout || c->out_hold || rs_init(&s, c->nranks) < 0)
        return;
    con_out_begin(c);
    for (int i = 0; i < c->nout; i++) {
        if (!out[i].text)
            continue;
        rs_clear(&s);
        rs_add(&s, out[i].rank);
        for (int j = i + 1; j < c->nout; j++)
            if (out[j].text && out[j].occ == out[i].occ &&
                out[j].len == out[i].len &&
                memcmp(out[j].text, out[i].text, out[i].len) == 0 &&
                !rs_has(&s, out[j].rank)) {
                rs_add(&s, out[j].rank);
                free(out[j].text);
                out[j].text = NULL;
            }
        /* the tag first: nothing the line holds can move it (a \r is
         * shown, not obeyed) */
        if (c->prefix)
            printf("[%s] ", rs_format(&s, buf, sizeof buf));
        con_put_text(c, out[i].text, out[i].len);
        putchar('\n');
        free(out[i].text);
        out[i].text = NULL;
    }
    c->nout = 0;
    rs_release(&s);
    con_out_end(c);
}

/* Rank K's output bytes P: its complete lines taken (printed by
 * out_flush), the unfinished one kept; a line that reaches
 * CON_OUT_LINE_MAX is taken as it is. */
static void out_take(struct con *c, struct con_rank *k, const char *p,
                     size_t n)
{
    while (n) {
        const char *nl = memchr(p, '\n', n);
        size_t piece = nl ? (size_t)(nl - p) : n,
               room = CON_OUT_LINE_MAX - k->outlen;
        int whole = nl && piece <= room;
        if (piece > room)
            piece = room;
        if (util_grow(&k->outbuf, &k->outcap, k->outlen + piece, 1) < 0)
            return;
        memcpy(k->outbuf + k->outlen, p, piece);
        k->outlen += piece;
        p += piece + (size_t)whole;
        n -= piece + (size_t)whole;
        if (!whole && k->outlen < CON_OUT_LINE_MAX)
            continue;
        size_t len = k->outlen;
        /* (the terminal's \r before each \n, not the program's) */
        if (whole && len && k->outbuf[len - 1] == '\r')
            len--;
        out_add(c, k, k->outbuf, len);
        k->outlen = 0;
    }
}

/* Takes rank R's output lines. */
static void pty_drain(struct con *c, struct con_rank *k)
{
    int fd = k->gdb ? mi_gdb_pty_fd(k->gdb) : -1;
    char buf[65536];
    ssize_t n;
    while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0)
        out_take(c, k, buf, (size_t)n);
}

/* ---- GDB events ---------------------------------------------------------- */

/* MI's reason for a stop in a word for status: "breakpoint", "step". */
static const char *stop_word(const char *reason)
{
    static const char *const words[][2] = {
        {"breakpoint-hit", "breakpoint"},
        {"watchpoint-trigger", "watchpoint"},
        {"read-watchpoint-trigger", "watchpoint (read)"},
        {"access-watchpoint-trigger", "watchpoint (access)"},
        {"watchpoint-scope", "its watchpoint left its scope"},
        {"end-stepping-range", "step"},
        {"function-finished", "finish"},
        {"location-reached", "location reached"},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(reason, words[i][0]) == 0)
            return words[i][1];
    return reason;
}

void con_on_async(struct mi_gdb *g, const struct mi_record *rec, void *ud)
{
    struct con_rank *k = ud;
    (void)g;
    if (rec->kind != MI_RECORD_EXEC)
        return;
    if (strcmp(rec->klass, "running") == 0) {
        /* (a rank on its way to main stays starting: Ctrl-C lets it
         * reach main, con_wait) */
        if (k->state != CON_STARTING)
            k->state = CON_RUNNING;
        k->reason[0] = '\0';
        return;
    }
    if (strcmp(rec->klass, "stopped") != 0)
        return;
    k->changed = 1;
    const char *reason = mi_get_str(rec, "reason");
    reason = reason ? reason : "";
    if (strcmp(reason, "exited-signalled") == 0) {
        const char *sig = mi_get_str(rec, "signal-name");
        k->state = CON_EXITED;
        k->exit_code = 0;
        k->exit_signal = 1;
        snprintf(k->reason, sizeof k->reason, "killed by signal %s",
                 sig ? sig : "?");
        k->where[0] = '\0';
        return;
    }
    if (strncmp(reason, "exited", 6) == 0) {
        /* GDB prints the exit code in octal ("01"). */
        const char *s = mi_get_str(rec, "exit-code");
        k->exit_code = s ? (int)strtol(s, NULL, 8) : 0;
        k->state = CON_EXITED;
        snprintf(k->reason, sizeof k->reason, "exited with status %d%s",
                 k->exit_code, con_exit_meaning(k->exit_code));
        k->where[0] = '\0';
        return;
    }
    if (strcmp(reason, "signal-received") == 0 &&
        mi_get_str(rec, "signal-name") &&
        strcmp(mi_get_str(rec, "signal-name"), "SIGINT") != 0 &&
        strcmp(mi_get_str(rec, "signal-name"), "0") != 0)
        snprintf(k->reason, sizeof k->reason, "signal %s",
                 mi_get_str(rec, "signal-name"));
    else if (strcmp(reason, "signal-received") == 0)
        snprintf(k->reason, sizeof k->reason, "interrupted");
    else
        snprintf(k->reason, sizeof k->reason, "%s", stop_word(reason));
    /* main's temporary breakpoint, every GDB's first (con-rank.c's
     * setup): the start, no breakpoint of the user's */
    const char *bno = mi_get_str(rec, "bkptno"), *disp = mi_get_str(rec, "disp");
    if (!strcmp(reason, "breakpoint-hit") && bno && !strcmp(bno, "1") &&
        disp && !strcmp(disp, "del"))
        k->reason[0] = '\0';
    con_where_set(k, rec);
    con_stop_keep(k, rec);
    const char *func = mi_get_str(rec, "frame.func");
    k->state = func && strcmp(func, DRDB_SYM_DIVERGENCE_HOOK) == 0
                   ? CON_DIVERGED
                   : CON_STOPPED;
    k->at_event = func && strcmp(func, DRDB_SYM_STOP_HOOK) == 0;
    k->at_bpt = !k->at_event && k->state == CON_STOPPED && k->reason[0] &&
                (strcmp(reason, "breakpoint-hit") == 0 ||
                 strstr(reason, "watchpoint-trigger") != NULL);
    /* A temporary breakpoint that fired, a watchpoint that left its
     * scope: GDB deleted them (tbpt_forget). */
    if (strcmp(reason, "breakpoint-hit") == 0 && disp &&
        strcmp(disp, "del") == 0 && mi_get_str(rec, "bkptno"))
        k->tbpt_hit = atoi(mi_get_str(rec, "bkptno"));
    if (strcmp(reason, "watchpoint-scope") == 0 && mi_get_str(rec, "wpnum"))
        k->tbpt_hit = atoi(mi_get_str(rec, "wpnum"));
    if (func && strcmp(func, DRDB_SYM_CKPT_SEGV_HOOK) == 0)
        snprintf(k->reason, sizeof k->reason, "signal SIGSEGV");
    const char *sc = mi_get_str(rec, "syscall-name");
    if (strcmp(reason, "syscall-entry") == 0 && sc &&
        strcmp(sc, "exit_group") == 0)
        snprintf(k->reason, sizeof k->reason, "about to exit (its "
                 "checkpoints can still be restored; continue ends it)");
}

const char *con_exit_meaning(int code)
{
    switch (code) {
    case DRDB_EXIT_DIVERGED:
        return " (the replay diverged)";
    case DRDB_EXIT_LOG_END:
        return " (end of its log)";
    case DRDB_EXIT_SETUP:
        return " (the replay stub refused to start)";
    default:
        return "";
    }
}

/* ---- the loop ------------------------------------------------------------ */

static int busy(const struct con_rank *k, int want_stop)
{
    if (!k->gdb || k->state == CON_LOST)
        return 0;
    if (mi_gdb_pending(k->gdb))
        return 1;
    return want_stop && (k->state == CON_RUNNING || k->state == CON_STARTING);
}

static void lose(struct con *c, struct con_rank *k, const char *why)
{
    pty_drain(c, k);
    out_flush(c);
    k->state = CON_LOST;
    snprintf(k->reason, sizeof k->reason, "%s", why);
    con_out_begin(c);
    char *why_shown = term_escape(k->reason, 0); /* (GDB's words) */
    fprintf(stderr, "drdb: rank %d is lost: %s; the other ranks go on\n",
            k->rank, why_shown ? why_shown : "?");
    free(why_shown);
    con_out_end(c);
}

/* ---- the hosts' connections --------------------------------------------- */

void con_host_lost(struct con *c, int h)
{
    struct con_host *x = &c->hosts[h];
    if (x->lost)
        return;
    x->lost = 1;
    snprintf(x->why, sizeof x->why, "%s", remote_error(x->conn));
    char why[300];
    snprintf(why, sizeof why, "connection to %s lost", x->name);
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (k->host != h || !k->gdb)
            continue;
        if (k->state != CON_LOST)
            lose(c, k, why);
        mi_gdb_free(k->gdb); /* its process there ended with the agent */
        k->gdb = NULL;
        con_ckpt_forget(k);
    }
}

void con_host_check(struct con *c)
{
    for (int h = 0; h < c->nhosts; h++) {
        struct con_host *x = &c->hosts[h];
        if (x->lost)
            continue;
        /* What the connection has now (its end, say), without waiting. */
        struct pollfd fds[REMOTE_MAX_POLLFDS(64)];
        int n = remote_pollfds(x->conn, fds, REMOTE_MAX_POLLFDS(64));
        if (n > 0 && poll(fds, (nfds_t)n, 0) > 0)
            remote_process(x->conn, fds, n);
        if (remote_lost(x->conn))
            con_host_lost(c, h);
    }
}

int con_host_pollfds(struct con *c, struct pollfd *fds, int *owner, int max)
{
    int n = 0;
    for (int h = 0; h < c->nhosts; h++) {
        struct con_host *x = &c->hosts[h];
        if (x->lost || !x->conn)
            continue;
        int m = remote_pollfds(x->conn, fds + n, max - n);
        for (int i = 0; i < m; i++)
            owner[n + i] = CON_HOST_OWNER(h);
        n += m;
    }
    return n;
}

void con_host_process(struct con *c, const struct pollfd *fds,
                      const int *owner, int n)
{
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && owner[j] == owner[i])
            j++;
        int h = owner[i] - CON_HOST_OWNER(0);
        if (remote_process(c->hosts[h].conn, fds + i, j - i) < 0)
            con_host_lost(c, h);
        i = j;
    }
}

/* One round of the loop: polls every GDB and program output (and EXTRA if
 * >= 0) for up to WAIT_MS, processes what came. 1 when EXTRA is readable. */
static int poll_round(struct con *c, int extra, int wait_ms)
{
    con_host_check(c);
    size_t cap = (size_t)c->nranks * (MI_GDB_MAX_POLLFDS + 1) + 1 +
                 (size_t)c->nhosts * REMOTE_MAX_POLLFDS(c->nranks);
    struct pollfd *fds = malloc(cap * sizeof *fds);
    int *owner = malloc(cap * sizeof *owner), n = 0, ready = 0;
    if (!fds || !owner) {
        free(fds);
        free(owner);
        return 0;
    }
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (!k->gdb || k->state == CON_LOST)
            continue;
        int m = mi_gdb_pollfds(k->gdb, fds + n, MI_GDB_MAX_POLLFDS);
        for (int i = 0; i < m; i++)
            owner[n + i] = r;
        n += m;
        if (mi_gdb_pty_fd(k->gdb) >= 0) {
            fds[n] = (struct pollfd){mi_gdb_pty_fd(k->gdb), POLLIN, 0};
            owner[n++] = -1 - r;
        }
    }
    if (extra >= 0) {
        fds[n] = (struct pollfd){extra, POLLIN, 0};
        owner[n++] = INT32_MIN;
    }
    int hosts = n;
    n += con_host_pollfds(c, fds + n, owner + n, (int)cap - n);
    if (poll(fds, (nfds_t)n, wait_ms) < 0) {
        free(fds);
        free(owner);
        return 0;
    }
    /* The hosts' connections first: what they relay is read next round
     * (a lost one loses its ranks: their entries are skipped). */
    con_host_process(c, fds + hosts, owner + hosts, n - hosts);
    n = hosts;
    /* Each GDB processes its own entries (they are contiguous). */
    for (int i = 0; i < n;) {
        if (owner[i] == INT32_MIN) {
            ready = fds[i].revents != 0;
            i++;
            continue;
        }
        if (owner[i] < 0) {
            if (fds[i].revents)
                pty_drain(c, c->ranks[-1 - owner[i]]);
            i++;
            continue;
        }
        int r = owner[i], j = i;
        while (j < n && owner[j] == r)
            j++;
        struct con_rank *k = c->ranks[r];
        if (!k->gdb) { /* its host was lost meanwhile */
            i = j;
            continue;
        }
        if (mi_gdb_process(k->gdb, fds + i, j - i) == MI_EEXITED &&
            k->state != CON_LOST) {
            char why[300];
            snprintf(why, sizeof why, "its GDB exited (%s)",
                     mi_gdb_error(k->gdb));
            lose(c, k, why);
        }
        i = j;
    }
    out_flush(c);
    free(fds);
    free(owner);
    return ready;
}

int con_idle(struct con *c, int fd, int timeout_ms)
{
    return poll_round(c, fd, timeout_ms);
}

int con_wait(struct con *c, const struct rankset *set, int want_stop)
{
    /* The command reports where its ranks stop. */
    for (int r = 0; want_stop && r < c->nranks; r++)
        if (rs_has(set, r) && c->ranks[r]->changed)
            c->ranks[r]->changed = 0;
    int64_t deadline = c->timeout_ms > 0 ? mi_now_ms() + c->timeout_ms : -1;
    for (;;) {
        int any = 0;
        for (int r = 0; r < c->nranks && !any; r++)
            any = rs_has(set, r) && busy(c->ranks[r], want_stop);
        if (!any)
            break;
        if (con_sigint) {
            /* Ctrl-C: pause the running ranks (never drdb itself), and
             * the command that waits ends where they stand
             * (c->interrupted). Ranks starting go on to main: it is
             * short, and a rank stopped before it is of no use. */
            con_sigint = 0;
            c->interrupted = 1;
            for (int r = 0; r < c->nranks; r++)
                if (rs_has(set, r) && c->ranks[r]->state == CON_RUNNING)
                    mi_gdb_interrupt(c->ranks[r]->gdb);
        }
        int wait = 200;
        if (deadline >= 0) {
            int64_t left = deadline - mi_now_ms();
            if (left <= 0) {
                /* A GDB that does not answer is hung: its rank is lost. A
                 * program that runs on is left running. */
                for (int r = 0; r < c->nranks; r++) {
                    struct con_rank *k = c->ranks[r];
                    if (rs_has(set, r) && k->gdb && k->state != CON_LOST &&
                        mi_gdb_pending(k->gdb)) {
                        char why[128];
                        snprintf(why, sizeof why, "its GDB did not answer "
                                 "within %d ms", c->timeout_ms);
                        lose(c, k, why);
                        mi_gdb_free(k->gdb);
                        k->gdb = NULL;
                    }
                }
                return -1;
            }
            if (left < wait)
                wait = (int)left;
        }
        poll_round(c, -1, wait);
    }
    for (int r = 0; r < c->nranks; r++) {
        struct con_rank *k = c->ranks[r];
        if (k->gdb)
            pty_drain(c, k);
        if (want_stop && rs_has(set, r) && k->changed)
            k->changed = 0;
        if (k->stop.capture && k->state != CON_RUNNING)
            con_stop_end(c, k);
        if (k->tbpt_hit)
            con_stop_forget(c, k);
        if (k->hung && k->gdb) {
            /* Lost to a timeout inside a reply: end its GDB now. */
            fprintf(stderr, "drdb: rank %d is lost: %s; the other ranks go "
                    "on\n", r, k->reason);
            mi_gdb_free(k->gdb);
            k->gdb = NULL;
            k->hung = 0;
        }
    }
    out_flush(c);
    return 0;
}

/* ---- GDB commands -------------------------------------------------------- */

void con_on_exec_reply(struct mi_gdb *g, const struct mi_reply *r, void *ud)
{
    struct con_rank *k = ud;
    (void)g;
    if (r->status != 0 && k->state == CON_RUNNING) {
        /* It did not run: it stands where it stood. GDB's error is the
         * command's answer (what GDB said before it, too), never the
         * rank's where. */
        k->state = CON_STOPPED;
        k->refused = 1;
        struct con_stop *s = &k->stop;
        char *t = NULL;
        if (asprintf(&t, "%s%s", s->len ? s->text : "",
                     r->message ? r->message : mi_strerror(r->status)) >= 0) {
            free(s->text);
            s->text = t;
            s->len = strlen(t);
            s->cap = s->len + 1;
        }
        s->capture = 0;
    }
}
