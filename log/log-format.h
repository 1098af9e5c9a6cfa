/*
 * log-format.h - the on-disk log (docs/log-format.md): magic and version,
 * the file header, the record framing, flags, field kinds, the encodings of
 * arguments, and the inline helpers that encode (put) and decode (get) them.
 * Pure layout: no I/O, libc only. The writer (log-writer.h), the reader
 * (log-reader.h) and the per-family codecs (log-codec.h) build on it.
 *
 * All integers little-endian.
 *
 * A run directory holds `drdb.run` (the run description, "key value" text
 * lines) and one `rank-R.log` per recorded rank: a 256-byte header, then
 * records. Each record is framed:
 *
 *   u32 size      whole record in bytes (0 = end of log: nothing follows;
 *                 LOG_REC_LARGE: a record of 4 GiB or more, whose size is
 *                 the u64 after flags)
 *   u32 crc       CRC-32C of bytes [8, size)
 *   u16 fn        function id (enum log_func_id, log.h)
 *   u16 flags     LOG_REC_*
 *   [u64 size]    only when the u32 size is LOG_REC_LARGE
 *   varint dt     enter time minus the previous record's enter time, ns
 *   varint dur    exit time minus enter time, ns
 *   [zigzag varint ret]       when LOG_REC_RET (else MPI_SUCCESS)
 *   [varint repeat]           when LOG_REC_REPEAT (this many calls, or
 *                             this many runs of a cycle)
 *   [varint depth << 1 | entry]  when LOG_REC_CALLBACK
 *   [varint thread]           when LOG_REC_THREAD (the calling thread)
 *   [site]                    when LOG_REC_SITE (version 5): where the
 *                             program called from and, for a call that
 *                             starts a request, its buffers (below); a
 *                             blocking call's buffers only with
 *                             LOG_REC_BUFS (version 6)
 *   [varint k]                when LOG_REC_CYCLE: the calls in the cycle
 *                             (1 to LOG_CYCLE_MAX); the body that follows
 *                             is the cycle's (below), not one call's
 *   argument block            every by-value argument, in order, as a
 *                             varint (log_arg_desc.enc, enum log_enc)
 *   fields, to the end:       u8 arg, u8 kind, varint elem, varint len,
 *                             len bytes
 *
 * A polling cycle (LOG_REC_CYCLE, always with LOG_REC_REPEAT): K calls that
 * ran `repeat` times in a row, in order, each an unsuccessful poll or a
 * timer (MPI_Wtime, MPI_Wtick). fn is the first call's; dt and dur span
 * the whole run; no ret (every call returned MPI_SUCCESS). The body:
 *
 *   K members, each:          varint fn, varint flags (LOG_CYCLE_*),
 *                             varint len, len bytes: the argument block and
 *                             fields a record of that call alone would hold
 *                             (none for a LOG_CYCLE_VALUE member)
 *   values, to the end:       for each run, for each LOG_CYCLE_VALUE member
 *                             in order, the double the call returned: a
 *                             zigzag varint of its IEEE-754 bits minus the
 *                             previous value's bits (as int64; the first
 *                             value of the record minus 0)
 */
#ifndef DRDB_LOG_FORMAT_H
#define DRDB_LOG_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define LOG_MAGIC "DRDBLOG"     /* 8 bytes with the NUL */
#define LOG_VERSION 8            /* 8: the first record from each call
                                  * site carries its buffers and the
                                  * calling frame (LOG_F_FRAME); struct
                                  * constructors' displacements (logged);
                                  * 7: neighbourhood collectives' topology
                                  * (LOG_F_NEIGHBORS) and counts arrays
                                  * (LOG_F_ARRAY);
                                  * 6: buffer addresses of blocking calls
                                  * while a request is pending
                                  * (LOG_REC_BUFS); v- and w-collectives'
                                  * counts arrays, MPI_File_close's file
                                  * (LOG_F_ARRAY);
                                  * 5: call sites and buffer addresses
                                  * (LOG_REC_SITE, LOG_F_OBJECT);
                                  * 4: records of threads, callbacks, polling
                                  * cycles, 4 GiB and more; early and libc
                                  * header flags, the stack layout fields;
                                  * 3: the header carries hdr_crc */
#define LOG_VERSION_MIN 2        /* the oldest a reader accepts (no CRC) */
#define LOG_HEADER_SIZE 256
#define LOG_REC_FIXED 12        /* size, crc, fn, flags */
#define LOG_REC_MAX_HEAD 48     /* fixed part (large) + the varints at most */
/* The u32 size of a record whose real size (4 GiB or more: a message over
 * 4 GiB) is a u64 after the fixed part, which is then LOG_REC_FIXED_LARGE
 * bytes. No record is this small, so the value cannot be a size. */
#define LOG_REC_LARGE 1u
#define LOG_REC_FIXED_LARGE 20
#define LOG_RUN_FILE "drdb.run"
/* The room drdb.run will need, reserved by `drdb record` before the
 * launch as LOG_RUN_ROOM (LOG_RUN_MAX bytes, written: not a sparse file);
 * rank 0 fills it and renames it to drdb.run. So the logs of other ranks,
 * which start at the same time, cannot take the last room on the disk
 * before the run description has it. */
#define LOG_RUN_ROOM ".drdb.run.room"
#define LOG_RUN_MAX 24576
/* drdb.run's argv value: the arguments with this byte between them (an
 * argument may hold spaces). */
#define LOG_RUN_ARG_SEP '\x1f'
/* Files a run directory holds besides the logs (log-format.md, "Input
 * files and standard input"): the captured input files, named by the
 * SHA-256 of their content, in LOG_INPUTS_DIR; each rank's index of them
 * (LOG_INPUTS_INDEX, "rank-R.index" there); rank 0's standard input. */
#define LOG_INPUTS_DIR "inputs"
#define LOG_INPUTS_INDEX "rank-%d.index"
#define LOG_STDIN_FILE "stdin"
/* `drdb record --max-log-size total=SIZE`: the bytes the run's logs may
 * still take, a native u64 the recording ranks of a machine share through
 * a shared mapping (log-writer.h: log_writer_limit). Removed after the
 * run. */
#define LOG_BUDGET_FILE ".drdb.budget"
/* `drdb record` at work: an empty file it creates in the run directory
 * before the launch and keeps locked (flock, exclusive) until it has
 * concluded the run, then removes. Found unlocked: drdb record ended
 * before it concluded (killed, SIGKILL included): its job died with it
 * (log_run_recording). */
#define LOG_RECORDING_FILE ".drdb.recording"
/* Compression of a run's message data after the run (log-compress.h):
 * LOG_HOLD_FILE is the run's hold, an empty file that sessions which may
 * reopen a log by path (a console's replays, its checkpoints) keep locked
 * shared (flock) while they last; the compressor replaces a log only under
 * an exclusive lock on it. LOG_ZSTATUS_FILE is the compressor's state,
 * lines of KEY=VALUE (log_zstatus). */
#define LOG_HOLD_FILE ".drdb.hold"
#define LOG_ZSTATUS_FILE "drdb.compress"
/*
 * The call in progress (docs/log-format.md, "The call in progress"): a
 * log ends at its rank's last completed call, so a rank killed while
 * blocked (a hung run that `drdb record --timeout` stopped) does not log
 * the call it was blocked in. On entering a call that can block, the
 * recorder writes what the call waits for into "rank-R.call" (one struct
 * log_call_slot in a shared mapping: the page cache keeps it when the
 * process is killed, even by SIGKILL), and clears it when the call
 * returns, before the call is logged. Native byte order (written and read
 * on the machine that ran the rank); no file: not known (older runs).
 */
#define LOG_CALL_FILE "rank-%d.call"
#define LOG_CALL_MAGIC "DRDBCAL1"
#define LOG_CALL_NONE INT32_MIN /* an argument the call does not have */
#define LOG_CALL_THREADS UINT32_MAX /* fn: MPI_THREAD_MULTIPLE, not kept */
#define LOG_CALL_REQS 22        /* request handles kept (Waitall's first) */
struct log_call_slot {
    char magic[8];    /* LOG_CALL_MAGIC */
    int32_t pid;      /* the rank's process: its log header's pid */
    /* The call's function id, written last (release) on entry; 0 when no
     * call is in progress: set back to 0 as the call returns;
     * LOG_CALL_THREADS when calls are not kept. */
    uint32_t fn;
    int32_t peer;     /* dest (a send), source (a receive, a probe), root
                       * (a rooted collective, 2026-12; LOG_CALL_NONE
                       * before) */
    int32_t tag;      /* a reduction's op handle (2026-12) */
    int32_t peer2;    /* MPI_Sendrecv: the source (peer is the dest) */
    int32_t tag2;     /* MPI_Sendrecv: the receive's tag */
    uint32_t comm;    /* the communicator handle, 0 none */
    uint32_t nreq;    /* the Wait family: the requests it was given (may
                       * exceed LOG_CALL_REQS: the first are kept) */
    uint32_t req[LOG_CALL_REQS];
    /* The signal that ended the rank (SIGSEGV, SIGBUS, SIGILL, SIGFPE,
     * SIGABRT), noted by the recorder's handler as it dies; 0 none. A
     * slot of LOG_CALL_SLOT_V1 bytes (older runs) has neither. */
    int32_t signal;
    /* 1: the process exited (returned from main, called exit()) with MPI
     * initialized and never finalized, in no MPI call (2026-12; 0 before,
     * or not so). */
    uint32_t exited;
};
#define LOG_CALL_SLOT_V1 128
_Static_assert(sizeof(struct log_call_slot) == 136, "the slot's layout");
/* The largest world size a run description or a header may state: a
 * bound on what a reader allocates for an untrusted number. */
#define LOG_MAX_WORLD (1 << 20)

/* Header flags. */
enum {
    LOG_HDR_COMPLETE = 1u << 0,  /* closed by MPI_Finalize */
    LOG_HDR_TRUNCATED = 1u << 1, /* the recorder stopped early (disk full) */
    LOG_HDR_SEND_DATA = 1u << 2, /* send payloads were logged too */
    LOG_HDR_COMPRESSED = 1u << 3, /* DATA fields may be DATA_ZSTD */
    LOG_HDR_EARLY = 1u << 4,      /* opened at the rank's first MPI call:
                                   * calls before MPI_Init (and a Sessions
                                   * program's) are logged */
    LOG_HDR_SYS = 1u << 5,        /* libc results are in rank-R.sys
                                   * (log-sys.h) */
    LOG_HDR_STRIPPED = 1u << 6,   /* a copy without message data: large
                                   * fields are LOG_F_ELIDED (strip.c) */
    LOG_HDR_LIMITED = 1u << 7,    /* with TRUNCATED: the recorder stopped
                                   * at drdb record's --max-log-size */
    LOG_HDR_POST = 1u << 8,       /* the calls after MPI_Finalize (MPI-4's
                                   * info, version and tool calls) are
                                   * logged: the log closes at exit */
    LOG_HDR_KNOWN = 0x1ffu,       /* any other bit: a corrupt header */
};

/* Record flags. */
enum {
    LOG_REC_RET = 1u << 0,     /* a return code other than MPI_SUCCESS */
    LOG_REC_REPEAT = 1u << 1,  /* stands for `repeat` identical calls */
    LOG_REC_PARTIAL = 1u << 2, /* some outputs not logged (see the docs) */
    LOG_REC_TRUNC = 1u << 3,   /* the last record: logging stopped here */
    /* made by a program callback MPI was running (an attribute copy or
     * delete function, an error handler), or the entry of one: a varint
     * follows `repeat`, depth << 1 | LOG_CB_ENTRY. The depth is 1 for a
     * callback of a call the program made, 2 for a callback of a call that
     * callback made, ... An entry (log-codec.h: log_put_cb) says MPI ran
     * a callback; the calls it made follow it, at its depth. Entries and
     * their calls come before the record of the call that ran them. */
    LOG_REC_CALLBACK = 1u << 4,
    LOG_REC_CYCLE = 1u << 5,   /* a polling cycle of k calls (see above) */
    LOG_REC_THREAD = 1u << 6,  /* `thread`: the calling thread's number
                                * (MPI_THREAD_MULTIPLE; util/thread.h) */
    /* The call site (version 5): after `thread`, a varint saying where
     * the program called from (log_put_site), then, when the function
     * table names buffers for the function (log_func_desc.nbufs: calls
     * that start a request), one log_put_bufaddr per buffer. */
    LOG_REC_SITE = 1u << 7,
    /* With LOG_REC_SITE (version 6): a blocking call's buffers follow its
     * site (log_func_desc.bufs_if_pending), which the recorder logs only
     * while the rank has a pending request: the checks
     * of a blocking call on a pending operation's memory. */
    LOG_REC_BUFS = 1u << 8,
    /* With LOG_REC_TRUNC: the call did not return, MPI ended the rank
     * inside it (an error MPI_ERRORS_ARE_FATAL made fatal). Its by-value
     * arguments and buffer addresses (extents not known) as usual; ret:
     * the MPI error code it aborted with, 0 not known; no fields. */
    LOG_REC_DIED = 1u << 9,
    /* Any other bit: a record this reader cannot read. */
    LOG_REC_KNOWN = LOG_REC_RET | LOG_REC_REPEAT | LOG_REC_PARTIAL |
                    LOG_REC_TRUNC | LOG_REC_CALLBACK | LOG_REC_CYCLE |
                    LOG_REC_THREAD | LOG_REC_SITE | LOG_REC_BUFS |
                    LOG_REC_DIED,
};

/* Polling cycles (LOG_REC_CYCLE): at most this many calls in one, and the
 * flags of a member. */
#define LOG_CYCLE_MAX 8
enum {
    LOG_CYCLE_VALUE = 1u << 0, /* returns a double, from the values */
};
#define LOG_CB_ENTRY 1u
/* Deeper callback nesting is refused by the reader as malformed. */
#define LOG_MAX_CB_DEPTH 64

/* Field kinds. */
enum log_field_kind {
    LOG_F_RAW = 1,     /* an output argument's bytes, as in memory */
    LOG_F_DATA = 2,    /* message data, packed (MPI_Pack order) */
    LOG_F_STATUS = 3,  /* an MPI_Status: its 5 ints as zigzag varints
                        * (log-codec.h) */
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
    LOG_F_ELIDED = 11,   /* in a stripped copy (LOG_HDR_STRIPPED) only:
                          * a DATA, DATA_ZSTD or WINDIFF field left out:
                          * varints kind as stored, length as delivered,
                          * length as stored, offset of the stored bytes in
                          * the original log (log-reader.h) */
    LOG_F_OBJECT = 12,   /* a loaded object a call site names, in the
                          * record of the first call from it (arg
                          * LOG_ARG_NONE, elem = its number): varint load
                          * bias, varint build id length, the build id,
                          * the path (to the end) */
    LOG_F_ARRAY = 13,    /* an input the checks read and the replay
                          * ignores (arg LOG_ARG_NONE, elem = the number
                          * of the argument): its elements, each a varint
                          * as a by-value argument of its element type is
                          * stored (enum log_enc), to the field's end. A v-
                          * or w-collective's counts and datatypes
                          * arrays (log/mpispec.py count_arrays);
                          * MPI_File_close's file handle before the call */
    LOG_F_NEIGHBORS = 14, /* version 7: a neighbourhood collective's
                           * topology at the calling process (arg
                           * LOG_ARG_NONE, elem = enum log_topo), which the
                           * checks read and the replay ignores: varint
                           * the in-degree, then the in-neighbours
                           * (sources) and the out-neighbours
                           * (destinations), to the field's end, each a
                           * zigzag varint (LOG_ENC_INT) of its rank in
                           * the communicator, MPI_PROC_NULL as -1, in the
                           * order MPI gives them (MPI 4.0 section 8.6).
                           * A Cartesian or graph topology's
                           * out-neighbours are its in-neighbours: not
                           * repeated */
    LOG_F_FRAME = 15,     /* the first record of a call from each call site
                           * of the program, with its buffers (LOG_REC_BUFS;
                           * arg LOG_ARG_NONE, elem 0): varint the CFA of
                           * the program's frame that made the call (DWARF's
                           * DW_OP_call_frame_cfa), which the checks read to
                           * find the variables the buffers lie in; older
                           * readers skip it */
};
/* The topology of a LOG_F_NEIGHBORS field (its elem). */
enum log_topo {
    LOG_TOPO_CART = 1,       /* per dimension k, the source then the
                              * destination of MPI_Cart_shift(k, 1) */
    LOG_TOPO_GRAPH = 2,      /* MPI_Graph_neighbors */
    LOG_TOPO_DIST_GRAPH = 3, /* MPI_Dist_graph_neighbors' sources, then
                              * destinations */
};
/* REQUEST and HANDLE fields hold the handle as log_put_arg_handle() writes
 * it: a varint of the value rotated left 8 bits (1 to 3 bytes). */
#define LOG_ARG_NONE 255 /* a field that belongs to no argument */

/*
 * How a by-value argument is stored in a record's argument block: each is a
 * varint, so that small counts, tags, ranks and MPICH's handles take one to
 * three bytes. MPICH keeps a handle's kind in its top bits and its index in
 * the low ones (MPI_COMM_WORLD is 0x44000000): rotated left by 8 bits, a
 * handle becomes a small number. The function table (log.h) names each
 * argument's encoding.
 */
enum log_enc {
    LOG_ENC_INT = 1, /* int: zigzag varint */
    LOG_ENC_HANDLE,  /* a 32-bit handle: varint of the value rotated left 8 */
    LOG_ENC_AINT,    /* MPI_Aint, MPI_Count, MPI_Offset: zigzag varint */
    LOG_ENC_PTR,     /* a 64-bit handle or pointer: varint */
};

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
    uint32_t hdr_crc; /* version 3: log_header_crc(); version 2: 0 */
    char host[64];
    uint64_t recorder_ns; /* time the recorder spent logging (at close) */
    /* The strings the kernel put at the top of the rank's stack at exec
     * (the program's path, its arguments, its environment: bytes with
     * their NULs) and the number of environment variables: the replay
     * pads its environment to the same, so the stack is where it was.
     * 0: not known. */
    uint32_t stack_strings;
    uint32_t stack_nenv;
    /* The rank's arguments after argv[0] as exec gave them (before main
     * could edit them): CRC-32C of their log_run_args() text from the
     * first separator on, plus 1 (0: not known, a log of an older
     * recorder). The replay stub checks its own against it (rpl.c). */
    uint32_t args_crc;
    uint8_t reserved[LOG_HEADER_SIZE - 132];
};

/* Path of rank R's log in run directory DIR ("DIR/rank-R.log"). */
void log_path(char *buf, size_t len, const char *dir, int rank);
/* The file name of rank R's log ("rank-R.log"). */
void log_name(char *buf, size_t len, int rank);
/* A record's thread number (LOG_REC_THREAD) as its creation path: the
 * main thread "0", its children "1", "2", ..., thread 1's second child
 * "1.2"; UINT64_MAX is "unnumbered" (util/thread.h). */
void log_thread_name(char *buf, size_t len, uint64_t thread);
/* ARGC arguments ARGV as drdb.run's argv value (LOG_RUN_ARG_SEP between
 * them) in BUF of LEN bytes: 0, or -E2BIG when they do not fit. */
int log_run_args(int argc, char *const *argv, char *buf, size_t len);
/* Whether two argv values of drdb.run (log_run_args) differ after argv[0]
 * (the program's name, which a replay gives as a path): then the first
 * argument that does, said in WHAT ("argument 1 is '1', recorded
 * '1:65536'"). */
/* ARGS's (a log_run_args() text) header args_crc. */
uint32_t log_args_crc(const char *args);
int log_run_args_differ(const char *recorded, const char *now, char *what,
                        size_t len);
/*
 * The header's checksum (version 3): CRC-32C of its 256 bytes with hdr_crc,
 * flags and recorder_ns taken as zero. Those three change while the rank
 * runs (truncated, complete, the recorder's time at close), each with one
 * store a SIGKILL could separate from a second one; the fields a reader
 * trusts to size and name things (magic, version, sizes, rank, world size,
 * start, function table, pid, host) are written once, at open. Unknown
 * flag bits are refused separately.
 */
uint32_t log_header_crc(const struct log_file_header *h);

/* ---- encoding ------------------------------------------------------------ */

/* A record being built: write into [p, end), then log_writer_commit(). */
struct log_rec {
    uint8_t *start;
    uint8_t *p;
};

/* Record-building helpers (the recorder's hot path: inline). */
static inline void log_put_varint(struct log_rec *r, uint64_t v)
{
    /* Through a local pointer: a byte store may alias r->p, which the
     * compiler would otherwise load and store around each byte. */
    uint8_t *p = r->p;
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    r->p = p;
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

/*
 * Call sites (LOG_REC_SITE). The return address of the MPI call, as an
 * object number and an offset: the address minus the object's load bias,
 * i.e. the ELF virtual address DWARF speaks of (it survives ASLR). Objects
 * are numbered from 0 in the order the rank first called from them; the
 * record of the first call from one carries its LOG_F_OBJECT field. One
 * varint: offset << 3 | object for objects 0 to 6; offset << 3 | 7, then
 * a varint of the object, for the others.
 */
#define LOG_SITE_SHORT 7
#define LOG_SITE_ROOM 15
static inline void log_put_site(struct log_rec *r, uint32_t obj,
                                uint64_t off)
{
    if (obj < LOG_SITE_SHORT) {
        log_put_varint(r, off << 3 | obj);
    } else {
        log_put_varint(r, off << 3 | LOG_SITE_SHORT);
        log_put_varint(r, obj);
    }
}
/*
 * A buffer's address (LOG_REC_SITE, calls that start a request; a
 * blocking call's with LOG_REC_BUFS): the
 * address as the program passed it, in 6 bytes (a user-space address of
 * x86-64 and AArch64 is under 2^48: fixed bytes are one store, where a
 * varint is a loop of 7), or 6 bytes 0xff then a varint of it (above:
 * MPI_IN_PLACE is (void *)-1); zigzag varint the lower bound of the bytes
 * MPI may touch relative to it (the datatype's true lower bound; 0 for a
 * builtin type); varint 1 + the number of those bytes ((count - 1)
 * extents plus one true extent), or 0 when the recorder could not tell
 * (a v- or w-collective's buffer). At most LOG_BUFADDR_ROOM bytes.
 */
#define LOG_BUFADDR_ROOM 32
#define LOG_BUFADDR_ESC 0xffffffffffffull /* the 6 bytes' escape */
static inline void log_put_bufaddr(struct log_rec *r, uint64_t addr,
                                   int64_t lb, int known, uint64_t span)
{
    if (__builtin_expect(addr < LOG_BUFADDR_ESC, 1)) {
        __builtin_memcpy(r->p, &addr, 8); /* little-endian: 6 kept */
        r->p += 6;
    } else {
        uint64_t esc = LOG_BUFADDR_ESC;
        __builtin_memcpy(r->p, &esc, 8);
        r->p += 6;
        log_put_varint(r, addr);
    }
    log_put_arg_aint(r, lb);
    log_put_varint(r, known ? span + 1 : 0);
}

/* ---- decoding ------------------------------------------------------------ */

/* The size of the record at REC, of which AVAIL bytes are readable (at
 * least LOG_REC_FIXED), and the length of its fixed part: 0, or -1 when
 * the record cannot be that long (or is the end of the log: size 0). */
static inline int log_rec_size(const uint8_t *rec, uint64_t avail,
                               uint64_t *size, unsigned *fixed)
{
    uint32_t s32;
    __builtin_memcpy(&s32, rec, 4);
    *size = s32;
    *fixed = LOG_REC_FIXED;
    if (s32 == LOG_REC_LARGE) {
        if (avail < LOG_REC_FIXED_LARGE)
            return -1;
        __builtin_memcpy(size, rec + LOG_REC_FIXED, 8);
        *fixed = LOG_REC_FIXED_LARGE;
    }
    return *size < *fixed + 2 || *size > avail ? -1 : 0;
}

/* Reads a varint from [*p, end) into *V, advancing *P: 0, or -1 when it is
 * malformed or runs past END. */
static inline int log_get_varint(const uint8_t **p, const uint8_t *end,
                                 uint64_t *v)
{
    uint64_t x = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*p >= end)
            return -1;
        uint8_t b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}
/* The value a zigzag varint V of a 32-bit int (LOG_ENC_INT) stands for. */
static inline int32_t log_unzigzag32(uint64_t v)
{
    return (int32_t)((uint32_t)(v >> 1) ^ -(uint32_t)(v & 1));
}
/* The value of a 64-bit zigzag varint V (LOG_ENC_AINT). */
static inline int64_t log_unzigzag64(uint64_t v)
{
    return (int64_t)((v >> 1) ^ -(v & 1));
}
/* The handle a LOG_ENC_HANDLE varint V stands for (rotated back). */
static inline uint32_t log_unrotate_handle(uint64_t v)
{
    return (uint32_t)v >> 8 | (uint32_t)v << 24;
}
/* Reads one element of an ARRAY field (LOG_F_ARRAY) stored with encoding
 * ENC from [*p, end) into *V, advancing *P: 0, or -1 when malformed. */
static inline int log_get_array_elem(const uint8_t **p, const uint8_t *end,
                                     int enc, int64_t *v)
{
    uint64_t x;
    if (log_get_varint(p, end, &x) < 0)
        return -1;
    *v = enc == LOG_ENC_INT ? log_unzigzag32(x)
         : enc == LOG_ENC_AINT ? log_unzigzag64(x)
         : enc == LOG_ENC_HANDLE ? (int64_t)log_unrotate_handle(x)
                                 : (int64_t)x;
    return 0;
}

/* Reads a buffer address (log_put_bufaddr) from [*P, END) into *ADDR,
 * *LB, *SPAN1 (1 + span, 0: unknown): 0, or -1 when malformed. */
static inline int log_get_bufaddr(const uint8_t **p, const uint8_t *end,
                                  uint64_t *addr, int64_t *lb,
                                  uint64_t *span1)
{
    uint64_t v = 0, z;
    if (end - *p < 6)
        return -1;
    __builtin_memcpy(&v, *p, 6);
    *p += 6;
    if (v == LOG_BUFADDR_ESC && log_get_varint(p, end, &v))
        return -1;
    *addr = v;
    if (log_get_varint(p, end, &z) || log_get_varint(p, end, span1))
        return -1;
    *lb = log_unzigzag64(z);
    return 0;
}

#endif
