/*
 * mi-record-async.c - async records: `[token]*class` (exec: running,
 * stopped), `[token]+class` (status: download progress) and
 * `[token]=class` (notify: thread-group-added, library-loaded,
 * breakpoint-modified, ...). Same shape as a result record, any class.
 *
 * GDB does not keep the documented order: e.g. -exec-run prints
 * =thread-group-started, =thread-created and =library-loaded before its
 * ^running, and *running after it; nothing here or in the driver assumes an
 * order between async and result records.
 */
#include "mi-int.h"

int mi__parse_class_and_results(struct mi__ctx *c, struct mi_record *rec);

int mi__parse_async_record(struct mi__ctx *c, struct mi_record *rec)
{
    switch (c->s[c->pos]) {
    case '*':
        rec->kind = MI_RECORD_EXEC;
        break;
    case '+':
        rec->kind = MI_RECORD_STATUS;
        break;
    default:
        rec->kind = MI_RECORD_NOTIFY;
        break;
    }
    return mi__parse_class_and_results(c, rec);
}
