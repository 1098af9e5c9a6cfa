/*
 * fuzz-sys.c - libFuzzer target for the libc stream reader (log/log-sys.h,
 * sys-reader.c; tests/fuzz/run-fuzz.sh).
 *
 * Input: a stream's records. A valid header (layout LOG_SYS_VERSION) is put
 * in front when the input does not start with the magic; the input's first
 * byte, when it does not, says whether the header is flagged complete, so
 * both readings (unsealed tails kept or refused) are tried. Every readable
 * record is decoded and its bytes read: no crash, no out-of-bounds read,
 * no leak, whatever the bytes; the count read is the count found at open.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log-reader.h"
#include "log-sys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char input_path[64];
static void remove_input(void)
{
    unlink(input_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *path = input_path;
    if (!path[0]) {
        snprintf(path, sizeof input_path, "/tmp/drdb-fuzz-sys-%d",
                 (int)getpid());
        atexit(remove_input);
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    if (size < 8 || memcmp(data, LOG_SYS_MAGIC, 8) != 0) {
        struct log_file_header h;
        memset(&h, 0, sizeof h);
        memcpy(h.magic, LOG_SYS_MAGIC, 8);
        h.version = LOG_SYS_VERSION;
        h.header_size = LOG_HEADER_SIZE;
        h.world_size = 1;
        h.flags = size && (data[0] & 1) ? LOG_HDR_COMPLETE : 0;
        h.hdr_crc = log_header_crc(&h);
        fwrite(&h, sizeof h, 1, f);
        if (size) {
            data++;
            size--;
        }
    }
    fwrite(data, 1, size, f);
    fclose(f);

    struct log_sys s;
    char err[512];
    if (log_sys_open(&s, path, err, sizeof err) == 0) {
        struct log_sys_cursor c;
        struct log_sys_rec r;
        uint64_t n = 0;
        log_sys_start(&c);
        while (log_sys_next(&s, &c, &r)) {
            if (r.len)
                (void)r.data[r.len - 1]; /* bounds: ASan checks */
            (void)log_sys_kind_name(r.kind);
            n++;
        }
        if (n != s.nrecs)
            abort(); /* open and next disagree */
        log_sys_release(&s);
    }
    return 0;
}
