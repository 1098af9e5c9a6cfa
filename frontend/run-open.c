/*
 * Opening a run named on a command line (fe.h): a local directory, or
 * HOST:DIR, a run directory on another host read through its drdb agent
 * (remote.h): the event index from copies of the logs without their
 * message data, the data fetched when an event is shown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "fe.h"
#include "launch.h"
#include "remote.h"

const char *fe_split_host(const char *arg, char *host, size_t hostlen)
{
    const char *colon = strchr(arg, ':');
    if (!colon || colon == arg || launch_dir_ok(arg) ||
        memchr(arg, '/', (size_t)(colon - arg)))
        return NULL;
    snprintf(host, hostlen, "%.*s", (int)(colon - arg), arg);
    return colon + 1;
}

int fe_ev_open(struct ev_run *x, const char *spec,
               const struct remote_opts *ro, struct remote **conn,
               char *err, size_t errlen)
{
    char host[256];
    const char *dir = fe_split_host(spec, host, sizeof host);
    *conn = NULL;
    if (!dir)
        return ev_open(x, spec, err, errlen);
    struct remote_opts o = *ro;
    o.host = host;
    struct log_run run;
    if (remote_connect(conn, &o, err, errlen) < 0)
        return -1;
    if (remote_run_open(*conn, dir, &run, err, errlen) < 0)
        goto fail;
    if (ev_open_empty(x, run.dir, run.world_size, err, errlen) < 0) {
        log_run_release(&run);
        goto fail;
    }
    for (int i = 0; i < run.nranks_present; i++) {
        int r = run.present[i];
        struct log_rank lr;
        struct ev_rank *rk = &x->ranks[r];
        if (remote_log_open(*conn, dir, r, &lr, rk->err,
                            sizeof rk->err) == 0)
            ev_take_rank(x, r, &lr, rk->err, sizeof rk->err);
        if (remote_error(*conn)[0]) {
            snprintf(err, errlen, "%s", remote_error(*conn));
            ev_close(x);
            log_run_release(&run);
            goto fail;
        }
    }
    log_run_release(&run);
    return 0;
fail:
    remote_close(*conn);
    *conn = NULL;
    return -1;
}
