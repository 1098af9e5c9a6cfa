/* ev-check-coll.c - the coll.* checks (ev-check.h): collectives: members that disagree within an instance, members that never join. */
#include "ev-check.h"

const struct ev_check_def ev_check_coll_defs[] = {
    {NULL, 0, NULL, NULL},
};
