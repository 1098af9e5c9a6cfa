/*
 * fuzz-mi.c - libFuzzer target for the mi/ parser (tests/fuzz/run-fuzz.sh).
 *
 * Input: bytes of "GDB output". Checks, beyond "no crash, no leak, no UB":
 *   - feeding the input in chunks (sizes taken from the input) gives the
 *     same records as feeding it at once;
 *   - every record dumps, duplicates, and answers path lookups;
 *   - mi_quote() of the input parses back to the input.
 * Small limits (max_line 4096, depth 64) so the limit paths run often.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *run(const uint8_t *data, size_t size, size_t chunk)
{
    struct mi_parser_options opt = {4096, 64};
    struct mi_parser p;
    struct mi_record *rec;
    char *out = NULL;
    size_t olen = 0, off = 0;
    FILE *f = open_memstream(&out, &olen);
    static const char *const paths[] = {
        "frame.line", "stack[0].func", "bkpt.locations[1].number", "[0]",
        "a[0][0].b", "x.", "[99999999999999999999]", "msg",
    };

    mi_parser_init(&p, &opt);
    while (off < size) {
        size_t n = size - off < chunk ? size - off : chunk;
        if (mi_parser_feed(&p, data + off, n) < 0)
            abort();
        off += n;
        while (mi_parser_next(&p, &rec) == 1) {
            struct mi_record *d;
            size_t i;
            long long v;
            mi_record_dump(rec, f);
            for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
                mi_get(rec, paths[i]);
                mi_get_str(rec, paths[i]);
                mi_get_int(rec, paths[i], &v);
            }
            d = mi_record_dup(rec);
            mi_record_free(d);
            mi_record_free(rec);
        }
    }
    while (mi_parser_finish(&p, &rec) == 1) {
        mi_record_dump(rec, f);
        mi_record_free(rec);
    }
    mi_parser_release(&p);
    fclose(f);
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *whole, *chunked, *q, *line;
    size_t chunk = size ? 1 + data[0] % 37 : 1;
    struct mi_record *rec = NULL;

    whole = run(data, size, size ? size : 1);
    chunked = run(data, size, chunk);
    if (strcmp(whole, chunked) != 0)
        abort();
    free(whole);
    free(chunked);

    /* quoting round trip */
    q = mi_quote((const char *)data, size);
    if (!q)
        abort();
    line = malloc(strlen(q) + 2);
    line[0] = '~';
    strcpy(line + 1, q);
    if (mi_parse_line(line, strlen(line), NULL, &rec) != 0 || rec->text_len != size ||
        memcmp(rec->text, data, size) != 0)
        abort();
    mi_record_free(rec);
    free(line);
    free(q);
    return 0;
}
