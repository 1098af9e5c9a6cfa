/*
 * fuzz-wire.c - libFuzzer target for the agent protocol's frames and
 * payloads (frontend/wire.c; tests/fuzz/run-fuzz.sh).
 *
 * Input: bytes as they would arrive on an agent's or a client's
 * connection. Checks, beyond "no crash, no leak, no UB":
 *   - the parser never takes more than it was given, never a payload over
 *     WIRE_MAX_PAYLOAD, and says "incomplete" for every prefix of a frame;
 *   - each frame's payload decodes as every message kind does on the
 *     agent and the client (HELLO, launcher description, read request,
 *     u32 fields) within its bounds;
 *   - a description that decodes encodes and decodes again to the same
 *     bytes, and so do a kept session's list of processes (LIST) and a
 *     SETUP answer (struct launch_gdb).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"
#include "wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void payload(const struct wire_frame *f)
{
    struct wire_rd r;
    struct launch_desc d;
    uint32_t proto, v;
    uint64_t off;
    char *ver = NULL;

    if (wire_get_hello(f, &proto, &ver) == 0)
        free(ver);
    wire_rd_init(&r, f);
    if (wire_get_desc(&r, &d) == 0) {
        struct wire_buf a, b;
        struct launch_desc d2;
        wire_buf_init(&a);
        wire_buf_init(&b);
        wire_put_desc(&a, &d);
        struct wire_frame g = {WIRE_START, 1, (uint32_t)a.len, a.p};
        wire_rd_init(&r, &g);
        if (wire_get_desc(&r, &d2) < 0)
            abort();
        wire_put_desc(&b, &d2);
        if (a.len != b.len || memcmp(a.p, b.p, a.len) != 0)
            abort();
        launch_desc_release(&d2);
        launch_desc_release(&d);
        wire_buf_release(&a);
        wire_buf_release(&b);
    }
    /* SETUP's answer: a decoded one encodes and decodes again to the
     * same bytes. */
    struct launch_gdb lg, lg2;
    wire_rd_init(&r, f);
    if (wire_get_gdb(&r, &lg) == 0) {
        struct wire_buf a, b;
        wire_buf_init(&a);
        wire_buf_init(&b);
        wire_put_gdb(&a, &lg);
        struct wire_frame g = {WIRE_DATA, 1, (uint32_t)a.len, a.p};
        wire_rd_init(&r, &g);
        if (wire_get_gdb(&r, &lg2) < 0)
            abort();
        wire_put_gdb(&b, &lg2);
        if (a.len != b.len || memcmp(a.p, b.p, a.len) != 0)
            abort();
        wire_buf_release(&a);
        wire_buf_release(&b);
        launch_gdb_release(&lg2);
        launch_gdb_release(&lg);
    }
    /* A SETUP request (run directory, rank, flags). */
    wire_rd_init(&r, f);
    free(wire_get_str(&r));
    wire_get_u32(&r, &v);
    wire_get_u32(&r, &v);
    if (r.at > r.len)
        abort();
    /* LIST's answer (after its id), and KEEP's fields. */
    char *note;
    struct wire_kept *k;
    size_t nk;
    wire_rd_init(&r, f);
    free(wire_get_str(&r));
    if (wire_get_list(&r, &note, &k, &nk) == 0) {
        struct wire_buf a, b;
        char *note2;
        struct wire_kept *k2;
        size_t nk2;
        wire_buf_init(&a);
        wire_buf_init(&b);
        wire_put_list(&a, note, k, nk);
        struct wire_frame g = {WIRE_DATA, 1, (uint32_t)a.len, a.p};
        wire_rd_init(&r, &g);
        if (wire_get_list(&r, &note2, &k2, &nk2) < 0 || nk2 != nk)
            abort();
        wire_put_list(&b, note2, k2, nk2);
        if (a.len != b.len || memcmp(a.p, b.p, a.len) != 0)
            abort();
        wire_kept_free(k, nk);
        wire_kept_free(k2, nk2);
        free(note);
        free(note2);
        wire_buf_release(&a);
        wire_buf_release(&b);
    }
    /* SHADOW's request, and LIST's answer of a shadow: round trips. */
    struct wire_shadow q;
    wire_rd_init(&r, f);
    if (wire_get_shadow(&r, &q) == 0) {
        struct wire_buf a, b;
        struct wire_shadow q2;
        wire_buf_init(&a);
        wire_buf_init(&b);
        wire_put_shadow(&a, &q);
        struct wire_frame g = {WIRE_SHADOW, 1, (uint32_t)a.len, a.p};
        wire_rd_init(&r, &g);
        if (wire_get_shadow(&r, &q2) < 0)
            abort();
        wire_put_shadow(&b, &q2);
        if (a.len != b.len || memcmp(a.p, b.p, a.len) != 0)
            abort();
        free(q.rundir);
        free(q2.rundir);
        wire_buf_release(&a);
        wire_buf_release(&b);
    }
    struct launch_shadow_file *cf;
    size_t ncf;
    wire_rd_init(&r, f);
    if (wire_get_ckpt_files(&r, &cf, &ncf) == 0) {
        struct wire_buf a, b;
        struct launch_shadow_file *cf2;
        size_t ncf2;
        wire_buf_init(&a);
        wire_buf_init(&b);
        wire_put_ckpt_files(&a, cf, ncf);
        struct wire_frame g = {WIRE_DATA, 1, (uint32_t)a.len, a.p};
        wire_rd_init(&r, &g);
        if (wire_get_ckpt_files(&r, &cf2, &ncf2) < 0 || ncf2 != ncf)
            abort();
        wire_put_ckpt_files(&b, cf2, ncf2);
        if (a.len != b.len || memcmp(a.p, b.p, a.len) != 0)
            abort();
        free(cf);
        free(cf2);
        wire_buf_release(&a);
        wire_buf_release(&b);
    }
    /* A read request, then STARTED's and EXIT's fields. */
    wire_rd_init(&r, f);
    free(wire_get_str(&r));
    free(wire_get_str(&r));
    wire_get_u64(&r, &off);
    wire_get_u32(&r, &v);
    if (r.at > r.len)
        abort();
    wire_rd_init(&r, f);
    wire_get_u32(&r, &v);
    free(wire_get_str(&r));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t at = 0;
    char err[256];
    for (;;) {
        struct wire_frame f;
        long n = wire_parse(data + at, size - at, &f, err, sizeof err);
        if (n <= 0)
            break;
        if ((size_t)n > size - at || f.len > WIRE_MAX_PAYLOAD ||
            (size_t)n != WIRE_HEADER + f.len)
            abort();
        /* Every prefix of a frame is incomplete, never a frame. */
        for (size_t k = 0; k < (size_t)n; k += 1 + k / 3) {
            struct wire_frame g;
            if (wire_parse(data + at, k, &g, err, sizeof err) != 0)
                abort();
        }
        payload(&f);
        at += (size_t)n;
    }
    return 0;
}
