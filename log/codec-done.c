/* Completion records: the reading side (log-codec.h). */
#include <errno.h>

#include "log-codec.h"

int log_done_next(const struct log_event *ev, size_t *cursor, unsigned arg,
                  struct log_done *done, struct log_field *other)
{
    struct log_field f;
    int rc = log_event_field(ev, cursor, &f);
    if (rc <= 0)
        return rc;
    if (f.arg != arg || (f.kind != LOG_F_REQUEST && f.kind != LOG_F_STATUS &&
                         f.kind != LOG_F_DATA)) {
        *other = f;
        return 2;
    }
    if (f.kind != LOG_F_REQUEST || log_field_handle(&f, &done->request) < 0)
        return -EINVAL;
    done->elem = f.elem;
    done->has_status = done->has_data = 0;
    /* Its STATUS and DATA follow, with its elem. Peeking does not inflate:
     * the next completion's data never overwrites this one's. */
    while (log_event_peek(ev, *cursor, &f) == 1 && f.arg == arg &&
           f.elem == done->elem &&
           ((f.kind == LOG_F_STATUS && !done->has_status && !done->has_data) ||
            ((f.kind == LOG_F_DATA || f.kind == LOG_F_DATA_ZSTD) &&
             !done->has_data))) {
        if (log_event_take(ev, cursor, &f) != 1)
            return -EINVAL;
        if (f.kind == LOG_F_STATUS) {
            if (log_field_status(&f, done->status) < 0)
                return -EINVAL;
            done->has_status = 1;
        } else {
            done->data = f;
            done->has_data = 1;
        }
    }
    return 1;
}
