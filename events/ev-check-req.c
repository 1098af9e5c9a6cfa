/* ev-check-req.c - the req.* checks (ev-check.h): requests and resources: never completed, completed twice, leaked objects, unreceived messages. */
#include "ev-check.h"

const struct ev_check_def ev_check_req_defs[] = {
    {NULL, 0, NULL, NULL},
};
