/* ev-check-buf.c - the buf.* checks (ev-check.h): buffers: overlapping pending nonblocking operations, a pending send buffer written. */
#include "ev-check.h"

const struct ev_check_def ev_check_buf_defs[] = {
    {NULL, 0, NULL, NULL},
};
