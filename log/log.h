/*
 * log.h - drdb's log module: the MPI function table (and, with the recorder,
 * the on-disk log format).
 *
 * The function table is generated at build time from log/mpi-functions.spec
 * (see the comment at its top). Every MPI function MPICH 4.0.2 exports has a
 * permanent numeric id; logs store ids, never names.
 */
#ifndef DRDB_LOG_H
#define DRDB_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "drdb_mpi_funcs.h"

/* Permanent function ids: LOG_FN_MPI_Send, LOG_FN_MPI_Recv, ... */
enum log_func_id {
    LOG_FN_NONE = 0,
#define LOG__FN_ENUM(id, name, cls, ret, nargs) LOG_FN_##name = id,
    DRDB_MPI_FUNCS(LOG__FN_ENUM)
#undef LOG__FN_ENUM
};

/*
 * How a by-value argument is stored in a record's argument block: each is a
 * varint, so that small counts, tags, ranks and MPICH's handles take one to
 * three bytes. MPICH keeps a handle's kind in its top bits and its index in
 * the low ones (MPI_COMM_WORLD is 0x44000000): rotated left by 8 bits, a
 * handle becomes a small number.
 */
enum log_enc {
    LOG_ENC_INT = 1, /* int: zigzag varint */
    LOG_ENC_HANDLE,  /* a 32-bit handle: varint of the value rotated left 8 */
    LOG_ENC_AINT,    /* MPI_Aint, MPI_Count, MPI_Offset: zigzag varint */
    LOG_ENC_PTR,     /* a 64-bit handle or pointer: varint */
};

/* Direction of an argument (see the spec's header). */
enum log_dir {
    LOG_DIR_VALUE, /* passed by value: an input */
    LOG_DIR_IN,
    LOG_DIR_OUT,
    LOG_DIR_INOUT,
    LOG_DIR_ASYNC, /* written when the started request completes */
};

enum log_class {
    LOG_CLASS_AUTO,   /* wrappers and stubs generated from the spec */
    LOG_CLASS_MANUAL, /* hand-written */
};

struct log_arg_desc {
    const char *name;   /* as in MPICH's prototype */
    const char *ctype;  /* C type, "[]" for arrays */
    enum log_dir dir;
    const char *length; /* the spec's LENGTH annotation, or NULL (one) */
    int size;           /* by-value: its size in MPICH's ABI (4 or 8) */
    int enc;            /* by-value: enum log_enc; 0 for pointers */
};

struct log_func_desc {
    int id;
    const char *name; /* "MPI_Send" */
    enum log_class cls;
    const char *ret;  /* "int", "double", "MPI_Aint", ... */
    int nargs;
    int variadic;
    const struct log_arg_desc *args; /* nargs entries */
};

/* Every function, in increasing id order. */
extern const struct log_func_desc log_funcs[];
extern const int log_funcs_count;

/* The function with this id, or NULL when no function has it. */
const struct log_func_desc *log_func_by_id(int id);

/*
 * The function with this name, or NULL. Accepts the MPI_ or PMPI_ name, and
 * ignores case (Fortran users write MPI_SEND).
 */
const struct log_func_desc *log_func_by_name(const char *name);

/* The name for an id ("MPI_Send"), or "?" for an unknown id. */
const char *log_func_name(int id);

#endif

/* ------------------------------------------------------------------------
 * The on-disk log (docs/log-format.md). All integers little-endian.
 *
 * A run directory holds `drdb.run` (the run description, "key value" text
 * lines) and one `rank-R.log` per recorded rank: a 256-byte header, then
 * records. Each record is framed:
 *
 *   u32 size      whole record in bytes (0 = end of log: nothing follows)
 *   u32 crc       CRC-32C of bytes [8, size)
 *   u16 fn        function id (enum log_func_id)
 *   u16 flags     LOG_REC_*
 *   varint dt     enter time minus the previous record's enter time, ns
 *   varint dur    exit time minus enter time, ns
 *   [zigzag varint ret]       when LOG_REC_RET (else MPI_SUCCESS)
 *   [varint repeat]           when LOG_REC_REPEAT (this many calls)
 *   argument block            every by-value argument, in order, as a
 *                             varint (log_arg_desc.enc, enum log_enc)
 *   fields, to the end:       u8 arg, u8 kind, varint elem, varint len,
 *                             len bytes
 * ---------------------------------------------------------------------- */
#define LOG_MAGIC "DRDBLOG"     /* 8 bytes with the NUL */
#define LOG_VERSION 2
#define LOG_HEADER_SIZE 256
#define LOG_REC_FIXED 12        /* size, crc, fn, flags */
#define LOG_REC_MAX_HEAD 40     /* fixed part + the varints at most */
#define LOG_RUN_FILE "drdb.run"

/* Header flags. */
enum {
    LOG_HDR_COMPLETE = 1u << 0,  /* closed by MPI_Finalize */
    LOG_HDR_TRUNCATED = 1u << 1, /* the recorder stopped early (disk full) */
    LOG_HDR_SEND_DATA = 1u << 2, /* send payloads were logged too */
    LOG_HDR_COMPRESSED = 1u << 3, /* DATA fields may be DATA_ZSTD */
};

/* Record flags. */
enum {
    LOG_REC_RET = 1u << 0,     /* a return code other than MPI_SUCCESS */
    LOG_REC_REPEAT = 1u << 1,  /* stands for `repeat` identical calls */
    LOG_REC_PARTIAL = 1u << 2, /* some outputs not logged (see the docs) */
    LOG_REC_TRUNC = 1u << 3,   /* the last record: logging stopped here */
};

/* Field kinds. */
enum log_field_kind {
    LOG_F_RAW = 1,     /* an output argument's bytes, as in memory */
    LOG_F_DATA = 2,    /* message data, packed (MPI_Pack order) */
    LOG_F_STATUS = 3,  /* an MPI_Status: its 5 ints as zigzag varints */
    LOG_F_STRING = 4,  /* a string, without the NUL */
    LOG_F_MEMBERS = 5, /* MPI_COMM_WORLD ranks of a new communicator */
    LOG_F_REQUEST = 6, /* the request a completion refers to (a handle) */
    LOG_F_SIZE = 7,    /* a count or size the call computed (u64) */
    LOG_F_HANDLE = 8,  /* a 32-bit handle output (a new request, ...) */
    LOG_F_DATA_ZSTD = 9, /* a DATA field compressed: varint raw length,
                          * then one zstd frame (log_compress_file) */
    LOG_F_WINDIFF = 10,  /* the bytes of an RMA window region that changed
                          * since they were last logged: elem = the region's
                          * number; runs of (varint gap, varint length,
                          * bytes), the gap counted from the previous run's
                          * end (the region's start for the first) */
};
/* REQUEST and HANDLE fields hold the handle as log_put_arg_handle() writes
 * it: a varint of the value rotated left 8 bits (1 to 3 bytes). */
#define LOG_ARG_NONE 255 /* a field that belongs to no argument */

struct log_file_header {
    char magic[8];
    uint32_t version;
    uint32_t header_size;
    int32_t rank;
    int32_t world_size;
    uint64_t start_ns; /* CLOCK_REALTIME when the log was opened */
    uint32_t flags;
    uint32_t max_func_id; /* the function table the recorder knew */
    int32_t pid;
    uint32_t reserved0;
    char host[64];
    uint64_t recorder_ns; /* time the recorder spent logging (at close) */
    uint8_t reserved[LOG_HEADER_SIZE - 120];
};

/* Appends records to one rank's log through a shared file mapping, so a
 * process killed at any point leaves every completed record on disk. Runs
 * inside the recorded process: no allocation after open. */
struct log_writer {
    int fd;
    uint8_t *map;
    size_t map_size; /* bytes mapped == bytes allocated on disk */
    size_t off;      /* end of the last complete record */
    uint64_t last_enter;
    uint64_t events;
    uint64_t data_bytes; /* LOG_F_DATA bytes written */
    int failed;          /* a write failed: no more records */
};

/* A record being built: write into [p, end), then log_writer_commit(). */
struct log_rec {
    uint8_t *start;
    uint8_t *p;
};

/* Creates PATH (mode 0600, O_EXCL) and writes the header. 0 or -errno. */
int log_writer_open(struct log_writer *w, const char *path,
                    const struct log_file_header *hdr);
/* Starts a record of at most MAX bytes: NULL when logging has stopped. */
struct log_rec *log_writer_begin(struct log_writer *w, struct log_rec *rec,
                                 size_t max, int fn, unsigned flags,
                                 uint64_t enter_ns, uint64_t dur_ns);
/* Frames and checksums the record; it is on disk when this returns. */
void log_writer_commit(struct log_writer *w, struct log_rec *rec);
/* Sets header flags (LOG_HDR_*) in place. */
void log_writer_set_flags(struct log_writer *w, uint32_t flags);
/* Trims the file to its records, marks it complete, stores RECORDER_NS in
 * the header, closes it. */
int log_writer_close(struct log_writer *w, uint64_t recorder_ns);

/* Record-building helpers (the recorder's hot path: inline). */
static inline void log_put_varint(struct log_rec *r, uint64_t v)
{
    while (v >= 0x80) {
        *r->p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *r->p++ = (uint8_t)v;
}
static inline void log_put_bytes(struct log_rec *r, const void *src,
                                 size_t n)
{
    __builtin_memcpy(r->p, src, n);
    r->p += n;
}
static inline void log_put_u32(struct log_rec *r, uint32_t v)
{
    log_put_bytes(r, &v, 4);
}
static inline void log_put_u64(struct log_rec *r, uint64_t v)
{
    log_put_bytes(r, &v, 8);
}
/* By-value arguments (enum log_enc). At most LOG_ARG_ROOM32 bytes for a
 * 32-bit argument, LOG_ARG_ROOM64 for a 64-bit one. */
#define LOG_ARG_ROOM32 5
#define LOG_ARG_ROOM64 10
static inline void log_put_arg_int(struct log_rec *r, int32_t v)
{
    log_put_varint(r, (uint32_t)((uint32_t)v << 1) ^ (uint32_t)(v >> 31));
}
static inline void log_put_arg_handle(struct log_rec *r, uint32_t v)
{
    log_put_varint(r, (uint32_t)(v << 8 | v >> 24));
}
static inline void log_put_arg_aint(struct log_rec *r, int64_t v)
{
    log_put_varint(r, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}
static inline void log_put_arg_ptr(struct log_rec *r, uint64_t v)
{
    log_put_varint(r, v);
}
/* Any of the above by its encoding. */
static inline void log_put_arg(struct log_rec *r, int enc, int64_t v)
{
    switch (enc) {
    case LOG_ENC_INT: log_put_arg_int(r, (int32_t)v); break;
    case LOG_ENC_HANDLE: log_put_arg_handle(r, (uint32_t)v); break;
    case LOG_ENC_AINT: log_put_arg_aint(r, v); break;
    default: log_put_arg_ptr(r, (uint64_t)v); break;
    }
}

/* Starts a field of LEN bytes; the caller then writes LEN bytes. */
static inline void log_put_field(struct log_rec *r, unsigned arg,
                                 unsigned kind, uint64_t elem, uint64_t len)
{
    *r->p++ = (uint8_t)arg;
    *r->p++ = (uint8_t)kind;
    log_put_varint(r, elem);
    log_put_varint(r, len);
}
/* Bytes a field header can take. */
#define LOG_FIELD_HEAD 22
/* Bytes a REQUEST or HANDLE field can take, header included. */
#define LOG_HANDLE_ROOM (LOG_FIELD_HEAD + LOG_ARG_ROOM32)
/* Bytes a STATUS field can take, header included. */
#define LOG_STATUS_ROOM (LOG_FIELD_HEAD + 25)

/* A REQUEST or HANDLE field (KIND) holding handle V. */
static inline void log_put_handle(struct log_rec *r, unsigned arg,
                                  unsigned kind, uint64_t elem, uint32_t v)
{
    uint8_t tmp[LOG_ARG_ROOM32];
    struct log_rec body = {tmp, tmp};
    log_put_arg_handle(&body, v);
    log_put_field(r, arg, kind, elem, (uint64_t)(body.p - tmp));
    log_put_bytes(r, tmp, (size_t)(body.p - tmp));
}

static inline void log__put_zigzag(struct log_rec *r, int32_t v)
{
    log_put_varint(r, (uint32_t)((uint32_t)v << 1) ^ (uint32_t)(v >> 31));
}
/* A STATUS field: the 5 ints of an MPI_Status (MPICH's layout: count_lo,
 * count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR), compacted. */
static inline void log_put_status(struct log_rec *r, unsigned arg,
                                  uint64_t elem, const void *status)
{
    int32_t v[5];
    uint8_t tmp[25];
    struct log_rec body = {tmp, tmp};
    __builtin_memcpy(v, status, sizeof v);
    for (int i = 0; i < 5; i++)
        log__put_zigzag(&body, v[i]);
    log_put_field(r, arg, LOG_F_STATUS, elem, (uint64_t)(body.p - tmp));
    log_put_bytes(r, tmp, (size_t)(body.p - tmp));
}

/* ---- reading ---------------------------------------------------------- */

/* One rank's log, mapped read-only, with an index of its records. */
struct log_rank {
    int fd;
    const uint8_t *map;
    size_t size;
    struct log_file_header hdr;
    uint64_t nevents;  /* complete records */
    uint64_t *offsets; /* nevents offsets */
    uint64_t *enter;   /* nevents enter times, ns since start */
    uint64_t end_off;  /* where reading stopped */
    /* Why reading stopped before the end of the file, "" when it did not:
     * "incomplete ..." (the rank stopped mid-run) or "corrupt ..." */
    char stop_reason[160];
};

/* A decoded record. Pointers point into the mapping. */
struct log_event {
    uint64_t index; /* event number, from 0 */
    int fn;
    unsigned flags;
    uint64_t enter_ns, dur_ns; /* ns since the log's start */
    int32_t ret;
    uint64_t repeat;
    const struct log_func_desc *desc; /* NULL for an unknown id */
    const uint8_t *args;
    size_t args_len;
    const uint8_t *fields;
    size_t fields_len;
};

struct log_field {
    unsigned arg, kind;
    uint64_t elem;
    const uint8_t *data;
    uint64_t len;
};

/*
 * Opens and indexes PATH. Never fails on a damaged record: it stops there
 * and says why in stop_reason. Returns 0, or -errno / -EINVAL (bad header)
 * with a message in ERR.
 */
int log_rank_open(struct log_rank *r, const char *path, char *err,
                  size_t errlen);
void log_rank_release(struct log_rank *r);
/* Decodes event N. 0, or -EINVAL for a malformed record (message in ERR). */
int log_rank_event(const struct log_rank *r, uint64_t n, struct log_event *ev,
                   char *err, size_t errlen);
/* Iterates over an event's fields: *cursor starts at 0. 1 = a field,
 * 0 = no more, -EINVAL = malformed. A compressed DATA field comes back as
 * LOG_F_DATA with its data inflated into a per-thread buffer, valid until
 * the next field this thread inflates. */
int log_event_field(const struct log_event *ev, size_t *cursor,
                    struct log_field *f);
/* The value of argument I (an index into desc->args; sign-extended from
 * 32 bits), 0 if it is not a by-value argument or out of range. */
int64_t log_event_arg(const struct log_event *ev, int i);
/* The by-value arguments in order into VALS (at most MAX); returns how many
 * the function has. */
int log_event_args(const struct log_event *ev, int64_t *vals, int max);
/* Decodes a REQUEST or HANDLE field: 0 or -EINVAL. */
int log_field_handle(const struct log_field *f, uint32_t *v);
/* Decodes a STATUS field into the 5 ints of an MPI_Status: 0 or -EINVAL. */
int log_field_status(const struct log_field *f, int32_t out[5]);
/* The first field of KIND for argument ARG, or NULL. */
int log_event_find(const struct log_event *ev, unsigned arg, unsigned kind,
                   struct log_field *f);

/*
 * Compresses the message data of a finished log in place: every DATA field
 * of at least 64 bytes that zstd makes smaller becomes a DATA_ZSTD field.
 * Runs after the recorded process has exited (drdb record), never on its
 * critical path. Writes PATH.zst-tmp, then renames it over PATH, so an
 * interrupted compression leaves the original. A log whose reading stopped
 * at a corrupt record is left alone. *BEFORE and *AFTER get the file sizes.
 * 0, 1 (left alone), or -errno with a message in ERR.
 */
int log_compress_file(const char *path, uint64_t *before, uint64_t *after,
                      char *err, size_t errlen);

/* The run description (drdb.run): "key value" lines, values escaped. */
struct log_run {
    char dir[4096];
    int world_size;
    int nranks_present; /* rank-R.log files found */
    char *text;         /* the file's contents */
};
int log_run_open(struct log_run *run, const char *dir, char *err,
                 size_t errlen);
void log_run_release(struct log_run *run);
/* The value for KEY (first occurrence) copied to BUF, or NULL. */
const char *log_run_get(const struct log_run *run, const char *key,
                        char *buf, size_t len);
/* Path of rank R's log in DIR. */
void log_rank_path(char *buf, size_t len, const char *dir, int rank);
