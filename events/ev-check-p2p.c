/* ev-check-p2p.c - the p2p.* checks (ev-check.h): point-to-point: type signatures of matched sends and receives, truncation. */
#include "ev-check.h"

const struct ev_check_def ev_check_p2p_defs[] = {
    {NULL, 0, NULL, NULL},
};
