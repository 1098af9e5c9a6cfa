/* ev-check-err.c - the err.* checks (ev-check.h): errors returned and ignored under MPI_ERRORS_RETURN. */
#include "ev-check.h"

const struct ev_check_def ev_check_err_defs[] = {
    {NULL, 0, NULL, NULL},
};
