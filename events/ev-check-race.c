/* ev-check-race.c - the race.* checks (ev-check.h): message races: wildcard receives and probes that could have matched another send. */
#include "ev-check.h"

const struct ev_check_def ev_check_race_defs[] = {
    {NULL, 0, NULL, NULL},
};
