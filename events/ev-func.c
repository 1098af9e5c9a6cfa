/*
 * What each MPI function is to the event index (ev-int.h: struct
 * ev__fninfo): read from the spec's roles (log_funcs[].kind, roles and
 * slot[]), never from a function's name. Built into each index when it is
 * built; the pass (ev-build.c) and the queries look calls up with ev__fn().
 */
#include <stdlib.h>
#include <string.h>

#include "ev-int.h"

/* The position among the by-value arguments (log_event_args order) of the
 * argument in slot S, -1 when D has none. */
static int8_t val_pos(const struct log_func_desc *d, enum log_slot s)
{
    int i = d->slot[s];
    return (int8_t)(i >= 0 ? d->args[i].vpos : -1);
}

/* What the index does with a call, from its roles in the spec. */
static void classify(const struct log_func_desc *d, struct ev__fninfo *fi)
{
    int nb = (d->roles & LOG_R_NB) != 0;
    int persistent = (d->roles & LOG_R_PERSISTENT) != 0;
    memset(fi, -1, sizeof *fi);
    fi->coll = 0;
    switch (d->kind) {
    case LOG_K_SEND:
        fi->cls = persistent ? EV__C_PSEND : nb ? EV__C_ISEND : EV__C_SEND;
        break;
    case LOG_K_RECV:
        fi->cls = persistent ? EV__C_PRECV : nb ? EV__C_IRECV : EV__C_RECV;
        break;
    case LOG_K_SENDRECV:
        fi->cls = nb ? EV__C_ISENDRECV : EV__C_SENDRECV;
        break;
    case LOG_K_START: fi->cls = EV__C_START; break;
    case LOG_K_STARTALL: fi->cls = EV__C_STARTALL; break;
    case LOG_K_PROBE: fi->cls = EV__C_PROBE; break;
    case LOG_K_MPROBE: fi->cls = EV__C_MPROBE; break;
    case LOG_K_MRECV: fi->cls = nb ? EV__C_IMRECV : EV__C_MRECV; break;
    case LOG_K_COMPLETION:
        fi->cls = d->slot[LOG_S_REQUESTS] >= 0 ? EV__C_DONEN : EV__C_DONE1;
        break;
    case LOG_K_REQUEST_FREE: fi->cls = EV__C_REQFREE; break;
    default: fi->cls = EV__C_NONE; break;
    }
    /* Collective instances: collectives, and communicator constructors
     * collective over their communicator. */
    if (d->kind == LOG_K_COLL)
        fi->coll = persistent ? EV__K_PERSISTENT
                   : nb       ? EV__K_NONBLOCKING
                              : EV__K_BLOCKING;
    else if (d->kind == LOG_K_COMM_CTOR &&
             !(d->roles & (LOG_R_GROUP | LOG_R_DYNAMIC)))
        fi->coll = nb ? EV__K_NONBLOCKING : EV__K_BLOCKING;
    fi->newcomm_arg = d->kind == LOG_K_COMM_CTOR ? d->slot[LOG_S_NEWCOMM] : -1;
    /* Others that create requests are tracked too: a handle in use again
     * ends the request that had it. */
    int req = d->slot[LOG_S_REQUEST];
    int new_request = req >= 0 && d->args[req].dir == LOG_DIR_OUT &&
                      d->kind != LOG_K_CANCEL;
    if (fi->cls == EV__C_NONE &&
        (fi->coll || fi->newcomm_arg >= 0 || new_request))
        fi->cls = EV__C_OTHER;
    if (fi->cls == EV__C_NONE)
        return;
    fi->req_arg = (int8_t)req;
    fi->count = val_pos(d, LOG_S_COUNT);
    fi->type = val_pos(d, LOG_S_DATATYPE);
    fi->dest = val_pos(d, LOG_S_DEST);
    fi->tag = val_pos(d, LOG_S_TAG);
    fi->rcount = val_pos(d, LOG_S_RECVCOUNT);
    fi->rtype = val_pos(d, LOG_S_RECVTYPE);
    fi->source = val_pos(d, LOG_S_SOURCE);
    fi->rtag = val_pos(d, LOG_S_RECVTAG);
    fi->comm = val_pos(d, LOG_S_COMM);
}

int ev__fninfo_build(struct ev_index *ix)
{
    int max = 0;
    for (int i = 0; i < log_funcs_count; i++)
        if (log_funcs[i].id > max)
            max = log_funcs[i].id;
    struct ev__fninfo *t = calloc((size_t)max + 1, sizeof *t);
    if (!t)
        return -1;
    for (int i = 0; i < log_funcs_count; i++)
        classify(&log_funcs[i], &t[log_funcs[i].id]);
    ix->fninfo = t;
    ix->fninfo_max = max;
    return 0;
}

int ev__arg_index(const struct log_func_desc *d, const char *name)
{
    for (int i = 0; i < d->nargs; i++)
        if (!strcmp(d->args[i].name, name))
            return i;
    return -1;
}

int64_t ev__arg_named(const struct log_event *ev, const char *name,
                      int64_t dflt)
{
    int i = ev__arg_index(ev->desc, name);
    return i >= 0 && ev->desc->args[i].vpos >= 0 ? log_event_arg(ev, i)
                                                 : dflt;
}
