/*
 * Query results as text (ev-sql.h: ev_sql_print, ev_sql_print_error): an
 * aligned table, CSV, JSON; an error with a caret under its position.
 * Alone: it reads a result, never the database.
 */
#include <stdlib.h>
#include <string.h>

#include "ev-int.h"
#include "ev-sql.h"

static void print_table(FILE *out, const struct ev_sql_result *r)
{
    size_t *w = calloc((size_t)r->ncols + 1, sizeof *w);
    if (!w)
        return;
    for (int c = 0; c < r->ncols; c++)
        w[c] = strlen(r->names[c]);
    for (size_t i = 0; i < r->nrows; i++)
        for (int c = 0; c < r->ncols; c++) {
            const char *v = ev_sql_cell(r, i, c);
            size_t n = v ? strlen(v) : 0;
            if (n > w[c])
                w[c] = n;
        }
    for (int c = 0; c < r->ncols; c++)
        fprintf(out, "%s%-*s", c ? "  " : "",
                c == r->ncols - 1 ? 0 : (int)w[c], r->names[c]);
    fputc('\n', out);
    for (size_t i = 0; i < r->nrows; i++) {
        for (int c = 0; c < r->ncols; c++) {
            const char *v = ev_sql_cell(r, i, c);
            int num = r->types[i * (size_t)r->ncols + (size_t)c] ==
                          EV_SQL_INT ||
                      r->types[i * (size_t)r->ncols + (size_t)c] ==
                          EV_SQL_REAL;
            int last = c == r->ncols - 1;
            if (num)
                fprintf(out, "%s%*s", c ? "  " : "", (int)w[c], v);
            else
                fprintf(out, "%s%-*s", c ? "  " : "", last ? 0 : (int)w[c],
                        v ? v : "");
        }
        fputc('\n', out);
    }
    if (!r->nrows)
        fputs("(no rows)\n", out);
    free(w);
}

static void csv_value(FILE *out, const char *v)
{
    if (!v)
        return;
    if (!strpbrk(v, ",\"\r\n")) {
        fputs(v, out);
        return;
    }
    fputc('"', out);
    for (; *v; v++) {
        if (*v == '"')
            fputc('"', out);
        fputc(*v, out);
    }
    fputc('"', out);
}

void ev_sql_print(FILE *out, const struct ev_sql_result *r,
                  enum ev_sql_format fmt)
{
    if (fmt == EV_SQL_TABLE) {
        print_table(out, r);
        return;
    }
    if (fmt == EV_SQL_CSV) {
        for (int c = 0; c < r->ncols; c++) {
            if (c)
                fputc(',', out);
            csv_value(out, r->names[c]);
        }
        fputc('\n', out);
        for (size_t i = 0; i < r->nrows; i++) {
            for (int c = 0; c < r->ncols; c++) {
                if (c)
                    fputc(',', out);
                csv_value(out, ev_sql_cell(r, i, c));
            }
            fputc('\n', out);
        }
        return;
    }
    fputc('[', out);
    for (size_t i = 0; i < r->nrows; i++) {
        fputs(i ? ",\n {" : "{", out);
        for (int c = 0; c < r->ncols; c++) {
            const char *v = ev_sql_cell(r, i, c);
            int t = r->types[i * (size_t)r->ncols + (size_t)c];
            if (c)
                fputs(", ", out);
            ev__json_str(out, r->names[c]);
            fputs(": ", out);
            if (!v)
                fputs("null", out);
            else if (t == EV_SQL_INT || t == EV_SQL_REAL)
                fputs(strcmp(v, "Inf") == 0 || strcmp(v, "-Inf") == 0 ||
                              strcmp(v, "NaN") == 0
                          ? "null"
                          : v,
                      out);
            else
                ev__json_str(out, v);
        }
        fputc('}', out);
    }
    fputs("]\n", out);
}

void ev_sql_print_error(FILE *out, const char *sql, const char *err, int pos)
{
    fprintf(out, "drdb: %s\n", err);
    if (pos < 0 || (size_t)pos > strlen(sql))
        return;
    /* the line the position is on, with a caret under it */
    int start = pos, line = 1;
    while (start > 0 && sql[start - 1] != '\n')
        start--;
    for (int i = 0; i < start; i++)
        line += sql[i] == '\n';
    int len = (int)strcspn(sql + start, "\n");
    fprintf(out, "  %.*s\n  %*s^ ", len, sql + start, pos - start, "");
    if (line > 1)
        fprintf(out, "(line %d, character %d)\n", line, pos - start + 1);
    else
        fprintf(out, "(at character %d)\n", pos + 1);
}
