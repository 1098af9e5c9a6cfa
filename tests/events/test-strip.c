/*
 * test-strip: the event index built from logs stripped of their message
 * data (log_strip_open(), as a remote host sends them) is the index built from
 * the logs themselves, and no message byte is fetched to build it; the
 * data is fetched when an event is shown, and shows as the original's.
 *
 * usage: test-strip RUNDIR [MARKER [INTO]]
 * MARKER: a string the run's message data holds, which no stripped copy
 * may contain ("" for none); INTO: a copy of RUNDIR whose logs are
 * replaced by their stripped copies (for the replay's refusal). TAP.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events.h"
#include "log-reader.h"
#include "log-strip.h"

static int ntest, nfail;

static void ok(int cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%sok %d - ", cond ? "" : "not ", ++ntest);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (!cond)
        nfail++;
}

/* The fetch function: reads the original log, counting what it reads. */
struct origin {
    int fd;
    uint64_t fetched;
};

static int fetch(void *ud, uint64_t off, uint8_t *buf, uint64_t len,
                 char *err, size_t errlen)
{
    struct origin *o = ud;
    ssize_t n = pread(o->fd, buf, len, (off_t)off);
    if (n != (ssize_t)len) {
        snprintf(err, errlen, "short read");
        return -1;
    }
    o->fetched += len;
    return 0;
}

/* What FN prints about X into a string (malloc'd). */
#define CAPTURE(text, stmt)                                                 \
    do {                                                                    \
        size_t len_;                                                        \
        FILE *out = open_memstream(&(text), &len_);                         \
        stmt;                                                               \
        fclose(out);                                                        \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-strip RUNDIR [MARKER]\n");
        return 2;
    }
    const char *dir = argv[1], *marker = argc > 2 && *argv[2] ? argv[2] : NULL;
    const char *into = argc > 3 ? argv[3] : NULL;
    char err[512];
    struct ev_run a, b, c;
    if (ev_open(&a, dir, err, sizeof err) < 0) {
        printf("Bail out! %s\n", err);
        return 1;
    }
    int world = a.world_size;
    struct origin *orig = calloc((size_t)world, sizeof *orig);
    ev_open_empty(&b, "stripped", world, err, sizeof err);
    ev_open_empty(&c, "stripped, no fetch", world, err, sizeof err);
    uint64_t logs = 0, copies = 0, elided = 0;
    for (int r = 0; r < world; r++) {
        if (!a.ranks[r].present)
            continue;
        const struct log_rank *lr = &a.ranks[r].log;
        uint8_t *img, *img2;
        size_t size;
        uint64_t gone;
        char path[4200];
        struct log_rank again;
        log_path(path, sizeof path, dir, r);
        int rc = log_strip_open(&again, path, 64, &img, &size, &gone, NULL,
                                err, sizeof err);
        ok(rc == 0 && again.nevents == lr->nevents,
           "rank %d: stripped (%zu of %zu bytes, %llu elided)", r, size,
           lr->size, (unsigned long long)gone);
        if (rc < 0)
            continue;
        log_rank_release(&again);
        logs += lr->size;
        copies += size;
        elided += gone;
        ok(!marker || !memmem(img, size, marker, strlen(marker)),
           "rank %d: the copy holds no message data", r);
        img2 = malloc(size);
        memcpy(img2, img, size);
        if (into) {
            log_path(path, sizeof path, into, r);
            FILE *f = fopen(path, "w");
            ok(f && fwrite(img, 1, size, f) == size && fclose(f) == 0,
               "rank %d: copy written into %s", r, path);
        }
        orig[r].fd = lr->fd;
        struct log_rank lb, lc;
        rc = log_rank_open_mem(&lb, img, size, "copy", fetch, &orig[r], err,
                               sizeof err);
        ok(rc == 0 && lb.nevents == lr->nevents &&
               (lb.hdr.flags & LOG_HDR_STRIPPED),
           "rank %d: the copy reads (%llu events)", r,
           (unsigned long long)lb.nevents);
        if (rc == 0)
            ev_take_rank(&b, r, &lb, err, sizeof err);
        if (log_rank_open_mem(&lc, img2, size, "copy", NULL, NULL, err,
                              sizeof err) == 0)
            ev_take_rank(&c, r, &lc, err, sizeof err);
    }
    printf("# logs %llu bytes, stripped copies %llu bytes, elided %llu\n",
           (unsigned long long)logs, (unsigned long long)copies,
           (unsigned long long)elided);

    /* The index and every listing from it, without fetching. */
    int same_lists = 1, same_matches = 1;
    const struct ev_filter all = {NULL, -1, -1};
    for (int r = 0; r < world; r++) {
        if (!a.ranks[r].present)
            continue;
        char *ta, *tb;
        CAPTURE(ta, ev_print_events(&a, out, r, 0, UINT64_MAX, &all, -1,
                                    err, sizeof err));
        CAPTURE(tb, ev_print_events(&b, out, r, 0, UINT64_MAX, &all, -1,
                                    err, sizeof err));
        same_lists &= strcmp(ta, tb) == 0;
        free(ta);
        free(tb);
        for (uint64_t n = 0; n < a.ranks[r].log.nevents; n++) {
            CAPTURE(ta, ev_print_match(&a, out, r, n, err, sizeof err);
                    ev_print_queues(&a, out, r, n, err, sizeof err));
            CAPTURE(tb, ev_print_match(&b, out, r, n, err, sizeof err);
                    ev_print_queues(&b, out, r, n, err, sizeof err));
            same_matches &= strcmp(ta, tb) == 0;
            free(ta);
            free(tb);
        }
    }
    char *ta, *tb;
    CAPTURE(ta, ev_print_all_matches(&a, out));
    CAPTURE(tb, ev_print_all_matches(&b, out));
    ok(same_lists, "event listings from the copies are the logs'");
    ok(same_matches && strcmp(ta, tb) == 0,
       "matches and queues from the copies are the logs'");
    free(ta);
    free(tb);
    uint64_t fetched = 0;
    for (int r = 0; r < world; r++)
        fetched += orig[r].fetched;
    ok(fetched == 0, "building the index fetched no message data (%llu "
       "bytes)", (unsigned long long)fetched);

    /* Each event in full: the data fetched is the original's. */
    int same_events = 1, unfetched_said = elided == 0;
    for (int r = 0; r < world; r++) {
        if (!a.ranks[r].present)
            continue;
        for (uint64_t n = 0; n < a.ranks[r].log.nevents; n++) {
            char *tc;
            CAPTURE(ta, ev_print_event(&a, out, r, n, 0, err, sizeof err));
            CAPTURE(tb, ev_print_event(&b, out, r, n, 0, err, sizeof err));
            CAPTURE(tc, ev_print_event(&c, out, r, n, 0, err, sizeof err));
            if (strcmp(ta, tb) != 0 && same_events) {
                printf("# rank %d event %llu differs:\n# %s\n# %s\n", r,
                       (unsigned long long)n, ta, tb);
                same_events = 0;
            }
            if (strstr(tc, "not fetched"))
                unfetched_said = 1;
            free(ta);
            free(tb);
            free(tc);
        }
    }
    fetched = 0;
    for (int r = 0; r < world; r++)
        fetched += orig[r].fetched;
    ok(same_events, "every event shown from the copies is the log's");
    ok(elided == 0 || fetched >= elided,
       "showing the events fetched their data (%llu bytes)",
       (unsigned long long)fetched);
    ok(unfetched_said, "a copy with no way to fetch says so");
    ev_close(&a);
    ev_close(&b);
    ev_close(&c);
    free(orig);
    printf("1..%d\n", ntest);
    return nfail ? 1 : 0;
}
