/*
 * log-fields - prints the fields of every event of one rank's log, for the
 * recorder tests to compare with what a program says it received (drdb log
 * dump only prints each event's total data bytes).
 *
 *   log-fields RUNDIR RANK KINDS
 *
 * One line per event: "FUNCTION" then, for each field whose kind is in
 * KINDS (a list of field kind numbers: "2", "1,2"), " KIND.ARG.ELEM=HEX"
 * with the field's bytes in hex ("-" for none). Exit status 1 when the log
 * cannot be read or an event is malformed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log-reader.h"

int main(int argc, char **argv)
{
    char path[4200], err[512];
    struct log_rank lr;
    unsigned kinds = 0;

    if (argc != 4) {
        fputs("usage: log-fields RUNDIR RANK KINDS\n", stderr);
        return 2;
    }
    for (char *p = argv[3]; *p; p++)
        if (*p >= '0' && *p <= '9')
            kinds |= 1u << (*p - '0');
    log_path(path, sizeof path, argv[1], atoi(argv[2]));
    if (log_rank_open(&lr, path, err, sizeof err) < 0) {
        fprintf(stderr, "log-fields: %s\n", err);
        return 1;
    }
    int status = 0;
    for (uint64_t n = 0; n < lr.nevents; n++) {
        struct log_event ev;
        struct log_field f;
        size_t cur = 0;
        int rc;
        if (log_rank_event(&lr, n, &ev, err, sizeof err) < 0) {
            fprintf(stderr, "log-fields: event %llu: %s\n",
                    (unsigned long long)n, err);
            status = 1;
            break;
        }
        fputs(log_func_name(ev.fn), stdout);
        while ((rc = log_event_field(&ev, &cur, &f)) == 1) {
            if (f.kind >= 32 || !(kinds & (1u << f.kind)))
                continue;
            printf(" %u.%u.%llu=", f.kind, f.arg, (unsigned long long)f.elem);
            for (uint64_t i = 0; i < f.len; i++)
                printf("%02x", f.data[i]);
            if (!f.len)
                putchar('-');
        }
        putchar('\n');
        if (rc < 0) {
            fprintf(stderr, "log-fields: event %llu: malformed fields\n",
                    (unsigned long long)n);
            status = 1;
        }
    }
    log_rank_release(&lr);
    return status;
}
