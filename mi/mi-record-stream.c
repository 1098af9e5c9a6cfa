/*
 * mi-record-stream.c - stream records: `~"..."` (console: CLI output),
 * `@"..."` (target output, e.g. a remote stub's inferior), `&"..."` (log:
 * GDB's messages and error text). One c-string, nothing after it. The text
 * of one CLI line is often split over several records (GDB flushes its
 * buffer at arbitrary points), so callers concatenate.
 */
#include "mi-int.h"

int mi__parse_stream_record(struct mi__ctx *c, struct mi_record *rec)
{
    switch (c->s[c->pos]) {
    case '~':
        rec->kind = MI_RECORD_CONSOLE;
        break;
    case '@':
        rec->kind = MI_RECORD_TARGET;
        break;
    default:
        rec->kind = MI_RECORD_LOG;
        break;
    }
    c->pos++;
    if (mi__parse_cstring(c, &rec->text, &rec->text_len) < 0)
        return -1;
    if (c->pos != c->len) {
        mi__fail(c, MI_ESYNTAX, "expected end of line after the c-string");
        return -1;
    }
    return 0;
}
