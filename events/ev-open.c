/*
 * The run under the index (events.h): opening every rank's log, reading one
 * event with an error that names the rank and the event, the cheap lookups
 * that need no index (function, wall-clock time), and closing, which frees
 * the index too. The bottom layer of events/ (ev-int.h).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ev-int.h"
#include "ev-srcline.h"

int ev_open_empty(struct ev_run *x, const char *name, int world_size,
                  char *err, size_t errlen)
{
    memset(x, 0, sizeof *x);
    snprintf(x->dir, sizeof x->dir, "%s", name);
    x->world_size = world_size;
    /* Calloc'd: the pages of ranks without a log are never touched (a run
     * may name a million ranks and log four). */
    x->ranks = world_size > 0 && world_size <= LOG_MAX_WORLD
                   ? calloc((size_t)world_size, sizeof *x->ranks)
                   : NULL;
    if (!x->ranks) {
        log_errf(err, errlen, "cannot open '%s': %s", name,
                 world_size > 0 ? "out of memory" : "no ranks");
        return -1;
    }
    return 0;
}

int ev_take_rank(struct ev_run *x, int r, struct log_rank *log, char *err,
                 size_t errlen)
{
    if (r < 0 || r >= x->world_size || x->ranks[r].present ||
        log->hdr.rank != r || log->hdr.world_size != x->world_size) {
        log_errf(err, errlen, "the log of rank %d of %d is not rank %d's "
                 "of '%s' (%d ranks)", log->hdr.rank, log->hdr.world_size, r,
                 x->dir, x->world_size);
        log_rank_release(log);
        return -1;
    }
    if (ev__logged_add(x, r) < 0) {
        log_errf(err, errlen, "out of memory");
        log_rank_release(log);
        return -1;
    }
    x->ranks[r].log = *log;
    x->ranks[r].present = 1;
    return 0;
}

int ev__logged_add(struct ev_run *x, int r)
{
    int *v = realloc(x->logged, ((size_t)x->nlogged + 1) * sizeof *v);
    if (!v)
        return -1;
    int k = x->nlogged;
    /* in order as a rule (a directory's, an agent's ranks ascending) */
    while (k > 0 && v[k - 1] > r) {
        v[k] = v[k - 1];
        k--;
    }
    v[k] = r;
    x->logged = v;
    x->nlogged++;
    return 0;
}

int ev__next_logged(const struct ev_run *x, int r)
{
    int lo = 0, hi = x->nlogged;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (x->logged[mid] < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < x->nlogged ? x->logged[lo] : x->world_size;
}

int ev_open_run(struct ev_run *x, const struct log_run *run, char *err,
                size_t errlen)
{
    if (ev_open_empty(x, run->dir, run->world_size, err, errlen) < 0)
        return -1;
    for (int i = 0; i < run->nranks_present; i++) {
        char path[4200];
        struct ev_rank *rk = &x->ranks[run->present[i]];
        if (ev__logged_add(x, run->present[i]) < 0) {
            log_errf(err, errlen, "cannot open '%s': out of memory",
                     run->dir);
            ev_close(x);
            return -1;
        }
        log_path(path, sizeof path, run->dir, run->present[i]);
        if (log_rank_open(&rk->log, path, rk->err, sizeof rk->err) < 0)
            continue;
        if (rk->log.hdr.rank != run->present[i]) {
            /* (a log renamed: never another rank's events under its name) */
            snprintf(rk->err, sizeof rk->err, "rank-%d.log is rank %d's log: "
                     "renamed?", run->present[i], rk->log.hdr.rank);
            log_rank_release(&rk->log);
            continue;
        }
        rk->present = 1;
    }
    return 0;
}

int ev_open(struct ev_run *x, const char *dir, char *err, size_t errlen)
{
    struct log_run run;
    if (log_run_open(&run, dir, err, errlen) < 0) {
        memset(x, 0, sizeof *x);
        return -1;
    }
    int rc = ev_open_run(x, &run, err, errlen);
    log_run_release(&run);
    return rc;
}

const char *ev_rank_missing(struct ev_run *x, int r)
{
    struct ev_rank *rk = &x->ranks[r];
    if (!rk->err[0])
        snprintf(rk->err, sizeof rk->err, "the run directory has no "
                 "rank-%d.log (drdb record --ranks leaves ranks out)", r);
    return rk->err;
}

void ev__index_free(struct ev_index *ix, const struct ev_run *x)
{
    if (!ix)
        return;
    free(ix->fninfo);
    free(ix->msgs);
    free(ix->mfirst);
    free(ix->mesc);
    free(ix->shapes);
    free(ix->shapetab);
    free(ix->colls);
    free(ix->ops);
    free(ix->comms);
    free(ix->comm_aoff);
    free(ix->comm_boff);
    free(ix->pool);
    for (size_t i = 0; i < ix->nkeys; i++)
        free(ix->keys[i].ids);
    free(ix->keys);
    free(ix->keytab);
    free(ix->chans);
    free(ix->chantab);
    free(ix->sorder);
    free(ix->rorder);
    free(ix->coll_sorted);
    free(ix->rqis);
    for (int i = 0; ix->r && i < x->nlogged; i++) {
        int r = x->logged[i];
        free(ix->r[r].refs);
        free(ix->r[r].refs32);
        free(ix->r[r].binds);
    }
    free(ix->r);
    free(ix);
}

size_t ev__index_bytes(const struct ev_index *ix, const struct ev_run *x)
{
    size_t b = sizeof *ix + ix->capmsgs * sizeof *ix->msgs +
               (size_t)(ix->nranks + 1) * sizeof *ix->mfirst +
               ix->capmesc * sizeof *ix->mesc +
               ix->capshapes * sizeof *ix->shapes +
               ix->shapetab_cap * sizeof *ix->shapetab +
               ix->capcolls * sizeof *ix->colls +
               ix->capcomms * sizeof *ix->comms +
               (ix->capaoff + ix->capboff) * sizeof *ix->comm_aoff +
               ix->cappool * sizeof *ix->pool +
               ix->capkeys * sizeof *ix->keys +
               ix->keytab_cap * sizeof *ix->keytab +
               ix->capchans * sizeof *ix->chans +
               ix->chantab_cap * sizeof *ix->chantab +
               (ix->nsorder + ix->nrorder) * sizeof *ix->sorder +
               (ix->coll_sorted ? ix->ncolls * sizeof *ix->coll_sorted : 0) +
               ix->caprqis * sizeof *ix->rqis +
               ix->capops * sizeof *ix->ops +
               (size_t)(ix->fninfo_max + 1) * sizeof *ix->fninfo;
    for (size_t i = 0; i < ix->nkeys; i++)
        b += ix->keys[i].capids * sizeof *ix->keys[i].ids;
    for (int i = 0; ix->r && i < x->nlogged; i++) {
        int r = x->logged[i];
        b += sizeof *ix->r +
             ix->r[r].caprefs * (ix->r[r].refs32 ? sizeof *ix->r[r].refs32
                                                 : sizeof *ix->r[r].refs) +
             ix->r[r].capbinds * sizeof *ix->r[r].binds;
    }
    return b;
}

void ev_close(struct ev_run *x)
{
    if (x->sql && x->sql_free)
        x->sql_free(x->sql);
    ev__srcline_free(x);
    ev__feed_free(x);
    ev__index_free(x->ix, x);
    ev__index_free(x->rank_ix, x);
    for (int i = 0; i < x->nlogged; i++)
        if (x->ranks[x->logged[i]].present)
            log_rank_release(&x->ranks[x->logged[i]].log);
    free(x->ranks);
    free(x->logged);
    memset(x, 0, sizeof *x);
}

int ev_event(struct ev_run *x, int rank, uint64_t n, struct log_event *ev,
             char *err, size_t errlen)
{
    if (rank < 0 || rank >= x->world_size) {
        log_errf(err, errlen, "no rank %d: the run has ranks 0-%d", rank,
                 x->world_size - 1);
        return -1;
    }
    struct ev_rank *rk = &x->ranks[rank];
    if (!rk->present) {
        log_errf(err, errlen, "rank %d was not recorded: %s", rank,
                 ev_rank_missing(x, rank));
        return -1;
    }
    if (n >= rk->log.nevents) {
        if (rk->log.nevents)
            log_errf(err, errlen, "rank %d has no event %llu: its events are "
                     "0-%llu", rank, (unsigned long long)n,
                     (unsigned long long)rk->log.nevents - 1);
        else
            log_errf(err, errlen, "rank %d has no event %llu: its log has no "
                     "events", rank, (unsigned long long)n);
        return -1;
    }
    char why[200];
    if (log_rank_event(&rk->log, n, ev, why, sizeof why) < 0) {
        log_errf(err, errlen, "rank %d event %llu: %s", rank,
                 (unsigned long long)n, why);
        return -1;
    }
    return 0;
}

int ev_fn(struct ev_run *x, int rank, uint64_t n)
{
    if (rank < 0 || rank >= x->world_size || !x->ranks[rank].present ||
        n >= x->ranks[rank].log.nevents)
        return -1;
    /* The index only holds records that were checked when it was built. */
    const struct log_rank *lr = &x->ranks[rank].log;
    uint16_t fn;
    memcpy(&fn, lr->map + log_rank_offset(lr, n) + 8, 2);
    return fn;
}

unsigned ev_rec_flags(struct ev_run *x, int rank, uint64_t n)
{
    if (rank < 0 || rank >= x->world_size || !x->ranks[rank].present ||
        n >= x->ranks[rank].log.nevents)
        return 0;
    const struct log_rank *lr = &x->ranks[rank].log;
    uint16_t flags;
    memcpy(&flags, lr->map + log_rank_offset(lr, n) + 10, 2);
    return flags;
}

uint64_t ev_walltime(struct ev_run *x, int rank, uint64_t n)
{
    if (rank < 0 || rank >= x->world_size || !x->ranks[rank].present)
        return 0;
    const struct log_rank *lr = &x->ranks[rank].log;
    return lr->hdr.start_ns + (n < lr->nevents ? log_rank_enter(lr, n) : 0);
}
