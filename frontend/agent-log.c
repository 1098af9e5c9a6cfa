/*
 * The agent's run directories (agent.h): what a run holds (wire.h: RUN)
 * and a rank's log without its message data for a client that builds its
 * event index from it (INDEX).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "log-reader.h"
#include "log-strip.h"
#include "rankset.h"

/* Every data field is elided, however small (an elided 4-byte field
 * costs ~6 bytes more than kept): the index is built from metadata
 * alone, no message byte crosses until a command shows one (issue 17). */
#define AGENT_ELIDE_MIN 1

int agent_index(struct wire_conn *c, const struct wire_frame *f, char *err,
                size_t errlen)
{
    struct wire_rd r;
    uint32_t rank;
    int rc = -1;
    wire_rd_init(&r, f);
    char *dir = wire_get_str(&r);
    if (!dir || wire_get_u32(&r, &rank) < 0 || rank >= LOG_MAX_WORLD) {
        snprintf(err, errlen, "a malformed index request");
        free(dir);
        return -1;
    }
    char path[8400];
    struct log_rank lr;
    uint8_t *img = NULL;
    size_t size = 0;
    uint64_t kept = 0;
    log_path(path, sizeof path, dir, (int)rank);
    if (log_strip_open(&lr, path, AGENT_ELIDE_MIN, &img, &size, NULL, &kept,
                       err, errlen) < 0)
        goto out;
    for (size_t off = 0; off < size; off += WIRE_MAX_READ) {
        size_t n = size - off < WIRE_MAX_READ ? size - off : WIRE_MAX_READ;
        if (wire_send(c, WIRE_IMAGE, f->channel, img + off, n) < 0)
            goto oom;
    }
    struct wire_buf b;
    wire_buf_init(&b);
    wire_put_u64(&b, size);
    wire_put_u64(&b, lr.size);
    wire_put_str(&b, lr.stop_reason);
    wire_put_u64(&b, kept);
    rc = wire_send_buf(c, WIRE_IMAGE_END, f->channel, &b);
    wire_buf_release(&b);
    if (rc < 0)
        goto oom;
    goto release;
oom:
    snprintf(err, errlen, "out of memory sending the copy of '%s'", path);
    rc = -1;
release:
    free(img);
    log_rank_release(&lr);
out:
    free(dir);
    return rc;
}

int agent_run(const struct wire_frame *f, struct wire_buf *out, char *err,
              size_t errlen)
{
    struct wire_rd r;
    struct log_run run;
    struct rankset set;
    wire_rd_init(&r, f);
    char *dir = wire_get_str(&r);
    if (!dir) {
        snprintf(err, errlen, "a malformed run request");
        return -1;
    }
    int rc = log_run_open(&run, dir, err, errlen);
    free(dir);
    if (rc < 0)
        return -1;
    size_t len = (size_t)run.nranks_present * 12 + 16;
    char *ranks = malloc(len);
    rc = ranks && rs_init(&set, run.world_size) == 0 ? 0 : -1;
    if (rc == 0) {
        for (int i = 0; i < run.nranks_present; i++)
            rs_add(&set, run.present[i]);
        rs_format(&set, ranks, len);
        rs_release(&set);
        wire_put_u32(out, (uint32_t)run.world_size);
        wire_put_str(out, ranks);
        wire_put_str(out, run.text);
        if (wire_buf_size(out) > WIRE_MAX_PAYLOAD - 64) {
            snprintf(err, errlen, "the run description of '%s' is too "
                     "large", run.dir);
            rc = -1;
        }
    } else {
        snprintf(err, errlen, "out of memory");
    }
    free(ranks);
    log_run_release(&run);
    return rc;
}
