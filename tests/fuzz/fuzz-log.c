/*
 * fuzz-log.c - libFuzzer target for the log reader (tests/fuzz/run-fuzz.sh).
 *
 * Input: a rank log. When the input does not start with the magic, a valid
 * header is put in front so the fuzzer spends its time on records. Every
 * indexed event is decoded, its fields walked and its arguments read, and
 * the log is stripped as a host strips it for the event index: no crash,
 * no out-of-bounds read, no leak, whatever the bytes; the copy reads, with
 * the same records.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log-reader.h"
#include "log-strip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The file each input is written to (one per fuzzing process). */
static char input_path[64];
static void remove_input(void)
{
    unlink(input_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *path = input_path;
    if (!path[0]) {
        snprintf(path, sizeof input_path, "/tmp/drdb-fuzz-log-%d", (int)getpid());
        atexit(remove_input);
    }

    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    if (size < 8 || memcmp(data, LOG_MAGIC, 8) != 0) {
        struct log_file_header h;
        memset(&h, 0, sizeof h);
        memcpy(h.magic, LOG_MAGIC, 8);
        h.version = LOG_VERSION;
        h.header_size = LOG_HEADER_SIZE;
        h.world_size = 1;
        h.hdr_crc = log_header_crc(&h); /* else every input stops there */
        fwrite(&h, sizeof h, 1, f);
    }
    fwrite(data, 1, size, f);
    fclose(f);

    struct log_rank r;
    char err[256];
    if (log_rank_open(&r, path, err, sizeof err) == 0) {
        for (uint64_t n = 0; n < r.nevents; n++) {
            struct log_event ev;
            struct log_field fl;
            size_t cur = 0;
            if (log_rank_event(&r, n, &ev, err, sizeof err) != 0)
                continue;
            while (log_event_field(&ev, &cur, &fl) == 1)
                if (fl.len)
                    (void)fl.data[fl.len - 1]; /* bounds: ASan checks */
            if (ev.desc)
                for (int i = 0; i < ev.desc->nargs; i++)
                    (void)log_event_arg(&ev, i);
            /* A polling cycle: each call, and its timer values. */
            for (unsigned j = 0; j < ev.cycle; j++) {
                struct log_event m;
                if (log_cycle_member(&ev, j, &m, NULL) != 0)
                    continue;
                cur = 0;
                while (log_event_field(&m, &cur, &fl) == 1)
                    if (fl.len)
                        (void)fl.data[fl.len - 1];
                for (int i = 0; i < m.desc->nargs; i++)
                    (void)log_event_arg(&m, i);
            }
            struct log_cycle_values it;
            double v;
            log_cycle_values_init(&ev, &it);
            while (log_cycle_value_next(&it, &v) == 1)
                ;
        }
        /* The copy a host sends for the index (log_strip_open: stripped
         * as it is opened) holds the same readable records, and reads. */
        struct log_rank s, c;
        uint8_t *img;
        size_t isize;
        if (log_strip_open(&s, path, 1, &img, &isize, NULL, NULL, err,
                           sizeof err) == 0) {
            if (s.nevents != r.nevents)
                abort();
            if (log_rank_open_mem(&c, img, isize, "copy", NULL, NULL, err,
                                  sizeof err) == 0) {
                if (c.nevents != r.nevents)
                    abort();
                log_rank_release(&c);
            }
            log_rank_release(&s);
        }
        log_rank_release(&r);
    }
    return 0;
}
