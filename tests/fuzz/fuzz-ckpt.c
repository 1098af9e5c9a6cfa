/*
 * fuzz-ckpt.c - libFuzzer target for checkpoint files (run-fuzz.sh).
 *
 * Input: a checkpoint image. Its checksums are recomputed when its sizes
 * allow, so that the fuzzer gets past them to the structure checks; then
 * the checks a restore makes before it touches anything (ckpt__check_image)
 * and the front end's header reader (ckpt_file_info) must refuse or accept
 * it without a crash, an out-of-bounds read or a leak. Built with the file
 * format's unit alone (checkpoint/ckpt-file.c), as the front end links it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ckpt-file.h"
#include "ckpt-int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char input_path[64];
static void remove_input(void)
{
    unlink(input_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!input_path[0]) {
        snprintf(input_path, sizeof input_path, "/tmp/drdb-fuzz-ckpt-%d",
                 (int)getpid());
        atexit(remove_input);
    }
    /* 8-aligned, as a mapped file is */
    uint64_t *buf = malloc(size + 8);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    struct ck_hdr *h = (struct ck_hdr *)buf;
    if (size >= sizeof *h) {
        struct ck_hdr c = *h;
        if (c.nregs <= MAXREG && c.nfds <= MAXFDS && c.nstr <= STRMAX &&
            c.xctx_len <= XCTX_MAX && c.npages <= (1UL << 20)) {
            ckpt__layout_sizes(&c);
            if (c.total <= size && h->regs_off == c.regs_off &&
                h->data_off == c.data_off && h->total == c.total)
                h->meta_hash = ckpt__meta_hash(h);
            if (c.total <= size && h->data_off == c.data_off)
                h->data_hash = ckpt__hash64((char *)h + c.data_off,
                                            c.npages * PG, 0);
        }
    }
    char err[512] = "";
    ckpt__check_image(h, size, 1, err, sizeof err, "input");
    FILE *f = fopen(input_path, "wb");
    if (f) {
        fwrite(buf, 1, size, f);
        fclose(f);
        struct ckpt_info inf;
        err[0] = '\0';
        ckpt_file_info(input_path, &inf, err, sizeof err);
    }
    free(buf);
    return 0;
}
