/* The values on drdb's command lines (args.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

int fe_parse_int(const char *s, long long min, long long max, long long *out)
{
    char *end;
    if (!(*s >= '0' && *s <= '9') && !(*s == '-' && s[1] >= '0' && s[1] <= '9'))
        return -1;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end || errno || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int fe_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!(*s >= '0' && *s <= '9'))
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno)
        return -1;
    *out = v;
    return 0;
}

int fe_parse_double(const char *s, double *out)
{
    char *end;
    if (!(*s >= '0' && *s <= '9') && *s != '.')
        return -1;
    double v = strtod(s, &end);
    if (*end || v < 0)
        return -1;
    *out = v;
    return 0;
}

int fe_parse_event(const char *s, int *rank, uint64_t *n)
{
    const char *colon = strchr(s, ':');
    char r[24];
    long long v;
    if (!colon || (size_t)(colon - s) >= sizeof r)
        return -1;
    memcpy(r, s, (size_t)(colon - s));
    r[colon - s] = '\0';
    if (fe_parse_int(r, 0, INT_MAX, &v) < 0 || fe_parse_u64(colon + 1, n) < 0)
        return -1;
    *rank = (int)v;
    return 0;
}

int fe_parse_onoff(const char *s, int *on)
{
    if (strcmp(s, "on") == 0 || strcmp(s, "off") == 0) {
        *on = s[1] == 'n';
        return 0;
    }
    return -1;
}

int fe_parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    double v = strtod(s, &end);
    if (errno || end == s)
        return -1;
    double mult = 1;
    switch (*end) {
    case 'k': case 'K': mult = 1024.0; end++; break;
    case 'm': case 'M': mult = 1024.0 * 1024; end++; break;
    case 'g': case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
    }
    if (mult > 1 && *end == 'i')
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end || v * mult >= 1.8e19)
        return -1;
    *out = (uint64_t)(v * mult);
    return 0;
}
