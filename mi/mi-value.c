/*
 * mi-value.c - path lookup in value trees ("stack[0].func", "bkpt.line").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mi-int.h"

const struct mi_value *mi_value_next_named(const struct mi_value *v,
                                           const char *name)
{
    for (v = v ? v->next : NULL; v; v = v->next)
        if (v->name && strcmp(v->name, name) == 0)
            return v;
    return NULL;
}

static const struct mi_value *mi__child_named(const struct mi_value *v,
                                              const char *name, size_t n)
{
    const struct mi_value *ch;

    for (ch = v->first; ch; ch = ch->next)
        if (ch->name && strncmp(ch->name, name, n) == 0 && ch->name[n] == '\0')
            return ch;
    return NULL;
}

const struct mi_value *mi_value_get(const struct mi_value *v, const char *path)
{
    const char *p = path;

    if (!v || !path)
        return NULL;
    if (*p == '\0')
        return v;
    for (;;) {
        size_t n = strcspn(p, ".[");
        if (n > 0) {
            if (v->kind == MI_VALUE_STRING)
                return NULL;
            v = mi__child_named(v, p, n);
            if (!v)
                return NULL;
            p += n;
        }
        while (*p == '[') {
            char *endp;
            unsigned long long idx;
            const struct mi_value *ch;
            if (p[1] < '0' || p[1] > '9' || v->kind == MI_VALUE_STRING)
                return NULL;
            errno = 0;
            idx = strtoull(p + 1, &endp, 10);
            if (errno || *endp != ']' || idx >= v->count)
                return NULL;
            for (ch = v->first; idx > 0; idx--)
                ch = ch->next;
            v = ch;
            p = endp + 1;
        }
        if (*p == '\0')
            return v;
        if (*p != '.' || p[1] == '\0' || p[1] == '.' || p[1] == '[')
            return NULL;
        p++;
    }
}

const struct mi_value *mi_get(const struct mi_record *rec, const char *path)
{
    return rec ? mi_value_get(rec->results, path) : NULL;
}

const char *mi_get_str(const struct mi_record *rec, const char *path)
{
    const struct mi_value *v = mi_get(rec, path);

    return v && v->kind == MI_VALUE_STRING ? v->str : NULL;
}

int mi_get_int(const struct mi_record *rec, const char *path, long long *out)
{
    const struct mi_value *v = mi_get(rec, path);
    char *endp;
    long long x;

    if (!v)
        return MI_ENOTFOUND;
    if (v->kind != MI_VALUE_STRING || v->len == 0)
        return MI_ETYPE;
    errno = 0;
    x = strtoll(v->str, &endp, 0);
    if (errno || *endp != '\0' || endp != v->str + v->len)
        return MI_ETYPE;
    *out = x;
    return 0;
}
