/*
 * Paths made absolute and normal by their text alone (util.h): the key
 * under which the recorder captures an input file and the replay finds it.
 */
#include <string.h>

#include "util.h"

int util_path_abs(const char *cwd, const char *path, char *out, size_t len)
{
    size_t n = 0;
    if (!len)
        return -1;
    out[0] = '\0';
    /* Components of CWD (when PATH is relative), then of PATH. */
    for (int part = path[0] == '/' ? 1 : 0; part < 2; part++) {
        const char *p = part ? path : cwd;
        while (*p) {
            while (*p == '/')
                p++;
            const char *e = p;
            while (*e && *e != '/')
                e++;
            size_t c = (size_t)(e - p);
            if (c == 0 || (c == 1 && p[0] == '.')) {
                /* nothing */
            } else if (c == 2 && p[0] == '.' && p[1] == '.') {
                while (n > 0 && out[n - 1] != '/')
                    n--;
                if (n > 0)
                    n--; /* the slash */
            } else {
                if (n + 1 + c + 1 > len)
                    return -1;
                out[n++] = '/';
                memcpy(out + n, p, c);
                n += c;
            }
            p = e;
        }
    }
    if (n == 0)
        out[n++] = '/';
    out[n] = '\0';
    return 0;
}

const char *util_path_under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n == 1 && dir[0] == '/')
        return path[0] == '/' ? path + 1 : NULL;
    if (strncmp(path, dir, n) != 0)
        return NULL;
    if (path[n] == '\0')
        return path + n;
    return path[n] == '/' ? path + n + 1 : NULL;
}
