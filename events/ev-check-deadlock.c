/* ev-check-deadlock.c - the deadlock.* checks (ev-check.h): deadlock: the wait-for graph of a hung run, unsafe cycles of standard sends. */
#include "ev-check.h"

const struct ev_check_def ev_check_deadlock_defs[] = {
    {NULL, 0, NULL, NULL},
};
