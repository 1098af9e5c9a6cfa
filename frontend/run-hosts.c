/*
 * Host lists (fe.h): `--hosts h1,h2:4` or `--hosts @FILE` in the format of
 * MPICH's host files, and where they place a run's ranks.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"
#include "log-reader.h"
#include "remote.h"

/* Adds host NAME (LEN bytes) with COUNT slots to L: 0, or -1 with ERR. */
static int add_host(struct fe_hosts *l, const char *name, size_t len,
                    long long count, const char *where, char *err,
                    size_t errlen)
{
    char host[256];
    if (len == 0 || len >= sizeof host) {
        snprintf(err, errlen, "%s: a host name %s", where,
                 len ? "longer than 255 bytes" : "is empty");
        return -1;
    }
    memcpy(host, name, len);
    host[len] = '\0';
    if (!remote_host_ok(host)) {
        snprintf(err, errlen, "%s: '%s' is not a host name (it starts with "
                 "'-' or holds a space or control character)", where, host);
        return -1;
    }
    struct fe_host *h = realloc(l->v, (size_t)(l->n + 1) * sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    l->v = h;
    snprintf(h[l->n].name, sizeof h[l->n].name, "%s", host);
    h[l->n].slots = (int)count;
    l->n++;
    return 0;
}

/* One entry "HOST[:N]" (LEN bytes at S) of WHERE into L. */
static int parse_entry(struct fe_hosts *l, const char *s, size_t len,
                       const char *where, char *err, size_t errlen)
{
    const char *colon = memchr(s, ':', len);
    long long n = 1;
    if (colon) {
        char num[24];
        size_t nl = len - (size_t)(colon - s) - 1;
        if (nl == 0 || nl >= sizeof num ||
            (memcpy(num, colon + 1, nl), num[nl] = '\0',
             log_parse_count(num, 1, LOG_MAX_WORLD, &n) < 0)) {
            snprintf(err, errlen, "%s: '%.*s': the number of ranks after "
                     "':' must be a whole number from 1 to %d", where,
                     (int)len, s, LOG_MAX_WORLD);
            return -1;
        }
        len = (size_t)(colon - s);
    }
    return add_host(l, s, len, n, where, err, errlen);
}

static int parse_file(struct fe_hosts *l, const char *path, char *err,
                      size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read the host file '%s': %s", path,
                 strerror(errno));
        return -1;
    }
    char line[1024], where[4200];
    int no = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        no++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = line, *e = line + strlen(line);
        while (s < e && isspace((unsigned char)*s))
            s++;
        while (e > s && isspace((unsigned char)e[-1]))
            e--;
        if (s == e)
            continue;
        snprintf(where, sizeof where, "%s:%d", path, no);
        for (char *p = s; p < e; p++)
            if (isspace((unsigned char)*p)) {
                snprintf(err, errlen, "%s: one host per line, as "
                         "HOST or HOST:N", where);
                rc = -1;
                break;
            }
        if (rc == 0)
            rc = parse_entry(l, s, (size_t)(e - s), where, err, errlen);
    }
    fclose(f);
    if (rc == 0 && l->n == 0) {
        snprintf(err, errlen, "the host file '%s' names no host", path);
        rc = -1;
    }
    return rc;
}

int fe_hosts_parse(struct fe_hosts *l, const char *arg, char *err,
                   size_t errlen)
{
    memset(l, 0, sizeof *l);
    int rc = 0;
    if (arg[0] == '@') {
        rc = parse_file(l, arg + 1, err, errlen);
    } else {
        for (const char *s = arg; rc == 0;) {
            const char *comma = strchr(s, ',');
            size_t len = comma ? (size_t)(comma - s) : strlen(s);
            rc = parse_entry(l, s, len, "--hosts", err, errlen);
            if (!comma)
                break;
            s = comma + 1;
        }
    }
    if (rc < 0)
        fe_hosts_release(l);
    return rc;
}

void fe_hosts_release(struct fe_hosts *l)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

int fe_hosts_place(const struct fe_hosts *l, int rank)
{
    long long total = 0;
    for (int i = 0; i < l->n; i++)
        total += l->v[i].slots;
    if (total <= 0)
        return -1;
    long long at = rank % total;
    for (int i = 0; i < l->n; i++) {
        if (at < l->v[i].slots)
            return i;
        at -= l->v[i].slots;
    }
    return -1;
}
