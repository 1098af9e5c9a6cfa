/*
 * mi-record-result.c - result records: `[token]^class(,result)*`, GDB's one
 * reply to each command. Classes: done, running, connected, error, exit.
 * An unknown class is kept (MI_CLASS_OTHER) rather than rejected, so a newer
 * GDB does not break us; ^error carries msg= and, since GDB 7.12, code=.
 */
#include <string.h>

#include "mi-int.h"

/* class := [A-Za-z0-9_-]+ ; shared with the async records. */
static int mi__isclass(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
}

static int mi__parse_class(struct mi__ctx *c, struct mi_record *rec)
{
    size_t st = ++c->pos; /* skip the marker */
    char *k;

    while (c->pos < c->len && mi__isclass((unsigned char)c->s[c->pos]))
        c->pos++;
    if (c->pos == st) {
        mi__fail(c, MI_ESYNTAX, "expected a record class");
        return -1;
    }
    k = mi__strndup(c->a, c->s + st, c->pos - st);
    if (!k) {
        mi__fail(c, MI_ENOMEM, "out of memory");
        return -1;
    }
    rec->klass = k;
    rec->results = mi__new_value(c, MI_VALUE_TUPLE);
    if (!rec->results)
        return -1;
    return mi__parse_results(c, rec->results);
}

static const struct {
    const char *name;
    enum mi_result_class cls;
} mi__classes[] = {
    {"done", MI_CLASS_DONE},         {"running", MI_CLASS_RUNNING},
    {"connected", MI_CLASS_CONNECTED}, {"error", MI_CLASS_ERROR},
    {"exit", MI_CLASS_EXIT},
};

int mi__parse_result_record(struct mi__ctx *c, struct mi_record *rec)
{
    size_t i;

    rec->kind = MI_RECORD_RESULT;
    if (mi__parse_class(c, rec) < 0)
        return -1;
    rec->result_class = MI_CLASS_OTHER;
    for (i = 0; i < sizeof mi__classes / sizeof mi__classes[0]; i++)
        if (strcmp(rec->klass, mi__classes[i].name) == 0)
            rec->result_class = mi__classes[i].cls;
    return 0;
}

/* Exported to mi-record-async.c through this tiny wrapper. */
int mi__parse_class_and_results(struct mi__ctx *c, struct mi_record *rec);
int mi__parse_class_and_results(struct mi__ctx *c, struct mi_record *rec)
{
    return mi__parse_class(c, rec);
}
