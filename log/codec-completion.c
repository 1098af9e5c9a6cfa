/* Completion records: the reading side (log-codec.h: log__done_next, the
 * decoder itself, inline for the event index). */
#include "log-codec.h"

int log_done_next(const struct log_event *ev, size_t *cursor, unsigned arg,
                  struct log_done *done, struct log_field *other)
{
    return log__done_next(ev, cursor, arg, done, other, 0);
}
