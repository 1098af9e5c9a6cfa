/*
 * log-reader.h - reading a run: one rank's log mapped and indexed, its
 * records decoded (reader.c), and the run description (drdb.run). Used by
 * the replay stub and the front end, never by the recorded process.
 */
#ifndef DRDB_LOG_READER_H
#define DRDB_LOG_READER_H

#include <stddef.h>
#include <stdint.h>

#include "log-format.h"
#include "log.h"

/*
 * Where a stripped copy's elided bytes come from (log_rank_open_mem()):
 * reads LEN bytes at offset OFF of the original log into BUF. 0, or -1
 * with the reason in ERR (a lost connection, a log changed since).
 */
typedef int (*log_fetch_fn)(void *ud, uint64_t off, uint8_t *buf,
                            uint64_t len, char *err, size_t errlen);

/* One rank's log, mapped read-only (or a copy in memory), with an index of
 * its records. */
struct log_rank {
    int fd;
    const uint8_t *map;
    size_t size;
    int in_memory;  /* map is a malloc'd copy (log_rank_open_mem) */
    log_fetch_fn fetch; /* a stripped copy's elided fields, or NULL */
    void *fetch_ud;
    struct log_file_header hdr;
    uint64_t nevents;  /* complete records */
    /* The offset and enter time (ns since start) of every
     * LOG_RANK_STRIDE-th record (nevents / LOG_RANK_STRIDE + 1 of each):
     * the others are a walk over at most LOG_RANK_STRIDE - 1 frames from
     * there (log_rank_offset, log_rank_enter), 1 byte per event where a
     * table of every record took 16. */
    uint64_t *ck_off;
    uint64_t *ck_enter;
    uint64_t ck_cap;   /* the tables' room (entries) */
    uint64_t serial;   /* tells this opening apart from any other (the
                        * walk's cursor, reader.c) */
    uint64_t end_off;  /* where reading stopped */
    /* Why reading stopped before the end of the file, "" when it did not:
     * "incomplete ..." (the rank stopped mid-run) or "corrupt ..." */
    char stop_reason[160];
    /* The recorder stopped logging (disk full): the errno its TRUNC record
     * holds, -1 when unknown (the header says so, no record), 0 when it
     * did not stop. */
    int trunc_errno;
    /* The rank ended inside its last call: MPI ended it there (its record,
     * the last, is LOG_REC_TRUNC | LOG_REC_DIED: log_rank_trunc_event). */
    int died;
    /* Some record carries a thread other than the main one
     * (LOG_REC_THREAD): the calls were made by several threads, under
     * MPI_THREAD_MULTIPLE or SERIALIZED. */
    int threads;
    /* The records' checksums are not checked (log_rank_open_trusted). */
    int trusted;
};

/* Every how many records struct log_rank keeps an offset and a time. */
#define LOG_RANK_STRIDE 16

/* Where record N (< nevents) of R starts in R's map, and its enter time
 * (ns since the log's start). Cheap: from the nearest kept record before
 * it, or from the record this thread located last when that is closer
 * (reading records in order costs one frame each). */
uint64_t log_rank_offset(const struct log_rank *r, uint64_t n);
uint64_t log_rank_enter(const struct log_rank *r, uint64_t n);
/* The bytes of R's tables of records (the offsets and times it keeps). */
size_t log_rank_table_bytes(const struct log_rank *r);

/* A decoded record. Pointers point into the mapping. */
struct log_event {
    const struct log_rank *rank; /* the log it was read from */
    uint64_t index; /* event number, from 0 */
    int fn;
    unsigned flags;
    uint64_t enter_ns, dur_ns; /* ns since the log's start */
    int32_t ret;
    uint64_t repeat;
    unsigned depth;    /* callback depth (LOG_REC_CALLBACK), 0: the program's */
    unsigned cb_entry; /* an entry: MPI ran a callback (log-codec.h) */
    uint64_t thread; /* the calling thread, when flags has LOG_REC_THREAD */
    const struct log_func_desc *desc; /* NULL for an unknown id */
    /* Where the program called from (LOG_REC_SITE; version 5): an object
     * (log_rank_object) and an offset in it (log_event_site), and the
     * buffers' addresses (log_event_bufaddr): bufs_len bytes at bufs. */
    uint32_t site_obj;
    uint64_t site_off;
    const uint8_t *bufs;
    size_t bufs_len;
    const uint8_t *args;
    size_t args_len;
    const uint8_t *fields;
    size_t fields_len;
    /* A polling cycle (LOG_REC_CYCLE): its k calls (cycle = k, else 0),
     * their member list and values (log-format.h). args and fields are
     * then the first call's, so that what reads one call sees the first
     * one; log_cycle_member() gives the others. */
    unsigned cycle;
    unsigned cycle_nvalues; /* LOG_CYCLE_VALUE members */
    const uint8_t *members;
    size_t members_len;
    const uint8_t *values;
    size_t values_len;
};

struct log_field {
    unsigned arg, kind;
    uint64_t elem;
    const uint8_t *data;
    uint64_t len;
};

/*
 * Opens and indexes PATH. Never fails on a damaged record: it stops there
 * and says why in stop_reason. Returns 0, or with a message in ERR:
 * -EBADMSG for a damaged header ("corrupt header (...)": its checksum, a
 * field out of bounds), -EINVAL for a file that is not a log or a version
 * this reader does not know, -errno.
 */
int log_rank_open(struct log_rank *r, const char *path, char *err,
                  size_t errlen);
/* The same without checking the records' checksums, which is all that
 * reads a record's message data: for drdb record's summary of the logs
 * its ranks have just written (the data is neither read nor checked
 * again); anything else opens with log_rank_open. */
int log_rank_open_trusted(struct log_rank *r, const char *path, char *err,
                          size_t errlen);
/*
 * As log_rank_open(), over IMAGE (SIZE bytes, malloc'd: R owns it from
 * here, even on failure), named NAME in messages: a log received from
 * elsewhere, e.g. a stripped copy (log_strip_open()) sent by the host that
 * holds the log. FETCH (may be NULL) gives its elided fields' bytes when
 * a field is read (log_event_field()); with none, they read as
 * LOG_F_ELIDED.
 */
int log_rank_open_mem(struct log_rank *r, uint8_t *image, size_t size,
                      const char *name, log_fetch_fn fetch, void *fetch_ud,
                      char *err, size_t errlen);
void log_rank_release(struct log_rank *r);

/* The call LOG's rank was in when its log ended, from its slot in run
 * directory DIR (log-format.h: LOG_CALL_FILE; call.c): 1 with *S filled
 * (a call that can block: what it waits for), 0 when the rank was in no
 * such call, -1 when not known (no slot: a run recorded before drdb kept
 * one, or the logs copied without it; a slot of another process). */
int log_call_in_progress(const char *dir, const struct log_rank *log,
                         struct log_call_slot *s);
/* The signal that ended LOG's rank as its recorder noted it in its slot
 * (a crash: SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT), or 0: none noted
 * (killed by another's signal, SIGKILL, or no slot). */
int log_rank_signal(const char *dir, const struct log_rank *log);
/* 1 when LOG's rank, in run directory DIR, exited with MPI initialized and
 * never finalized, outside any MPI call (its slot's `exited`), else 0. */
int log_rank_exited(const char *dir, const struct log_rank *log);

/* How a rank's log ends. */
enum log_ending {
    LOG_END_COMPLETE,  /* closed by MPI_Finalize, every call logged */
    LOG_END_ABORT,     /* its last call is MPI_Abort */
    LOG_END_KILLED,    /* it stops mid-run: the rank was killed or crashed */
    LOG_END_TRUNCATED, /* the recorder stopped: the disk was full */
    LOG_END_CORRUPT,   /* a damaged record: what follows is unreadable */
};
/* R's ending, and a line saying it into BUF: "complete", "ended in
 * MPI_Abort(comm 0x44000000, 42)", "killed mid-run: incomplete: ...",
 * "truncated (disk full): recording stopped at event N (No space left on
 * device)", "corrupt: ...", "died in MPI_Send at event N: MPI ended the
 * rank there (error 0x..., MPI_ERR_COUNT)" (LOG_END_KILLED). */
enum log_ending log_rank_ending(const struct log_rank *r, char *buf,
                                size_t len);
/* As log_rank_ending(), for R in run directory DIR: a rank that died of a
 * crash its recorder noted (log_rank_signal) is said so, "died of SIGSEGV
 * (Segmentation fault) mid-run: ...", apart from the ranks killed after
 * it ("killed mid-run: ..."); still LOG_END_KILLED. */
enum log_ending log_rank_ending_in(const char *dir, const struct log_rank *r,
                                   char *buf, size_t len);
/* The event where the recorder stopped logging (the TRUNC record's, or the
 * end of the records when there is none), for a truncated log; the call
 * the rank died in, for one that did (died). */
uint64_t log_rank_trunc_event(const struct log_rank *r);
/* Decodes event N. 0, or -EINVAL for a malformed record (message in ERR). */
int log_rank_event(const struct log_rank *r, uint64_t n, struct log_event *ev,
                   char *err, size_t errlen);
/* Iterates over an event's fields: *cursor starts at 0. 1 = a field,
 * 0 = no more, -EINVAL = malformed. A compressed DATA field comes back as
 * LOG_F_DATA with its data inflated into a per-thread buffer, valid until
 * the next field this thread inflates; an elided one (a stripped copy) as
 * what was elided, fetched through the rank's log_fetch_fn into a
 * per-thread buffer (valid until the next fetch), or as LOG_F_ELIDED when
 * there is none or it failed (the reason: log_fetch_error()). */
int log_event_field(const struct log_event *ev, size_t *cursor,
                    struct log_field *f);
/* Iterates over an event's fields as they are stored: nothing inflated
 * or fetched (for readers that want no message data: the event index). */
int log_event_next_stored(const struct log_event *ev, size_t *cursor,
                          struct log_field *f);
/* The message data length of F as a reader gets it: 1 for a DATA field,
 * a DATA_ZSTD one (its inflated length) or an elided one of either, with
 * *LEN set; 0 for other fields (or a malformed one). */
int log_field_data_len(const struct log_field *f, uint64_t *len);
/* An elided field (LOG_F_ELIDED) decoded: 0, or -EINVAL. */
struct log_elided {
    unsigned kind;       /* as stored: DATA, DATA_ZSTD or WINDIFF */
    uint64_t len;        /* as delivered (inflated) */
    uint64_t stored_len; /* as stored in the original log */
    uint64_t off;        /* of the stored bytes in the original log */
};
int log_field_elided(const struct log_field *f, struct log_elided *e);
/* Why the last fetch of an elided field on this thread failed, "" if it
 * did not. */
const char *log_fetch_error(void);
/* The field at CURSOR without taking it: its header, and its data as
 * stored (a compressed DATA field is not inflated). 1, 0 = no more,
 * -EINVAL = malformed. */
int log_event_peek(const struct log_event *ev, size_t cursor,
                   struct log_field *f);
/* Takes the field F that log_event_peek() returned at *CURSOR: moves
 * *CURSOR past it and inflates a compressed DATA field (as
 * log_event_field()). 1, or -EINVAL. */
int log_event_take(const struct log_event *ev, size_t *cursor,
                   struct log_field *f);
/* The value of argument I (an index into desc->args; sign-extended from
 * 32 bits), 0 if it is not a by-value argument or out of range. */
int64_t log_event_arg(const struct log_event *ev, int i);
/* The by-value arguments in order into VALS (at most MAX); returns how many
 * the function has. */
int log_event_args(const struct log_event *ev, int64_t *vals, int max);
/* The MPI calls EV stands for: 1, its repeat count (LOG_REC_REPEAT), or
 * that times the calls of its cycle (LOG_REC_CYCLE). */
uint64_t log_event_calls(const struct log_event *ev);
/*
 * Call I (0 to ev->cycle - 1) of cycle EV as an event of its own into M
 * (number and times EV's, flags 0; a LOG_CYCLE_VALUE member has no fields:
 * its value comes from log_cycle_value_next()). *MFLAGS (may be NULL)
 * gets the member's LOG_CYCLE_* flags. 0, or -EINVAL (not a cycle, I out
 * of range). The reader checked the members when it indexed the log.
 */
int log_cycle_member(const struct log_event *ev, unsigned i,
                     struct log_event *m, unsigned *mflags);
/* The values of cycle EV's LOG_CYCLE_VALUE calls, in call order. */
struct log_cycle_values {
    const uint8_t *p, *end;
    uint64_t bits; /* the previous value's */
};
void log_cycle_values_init(const struct log_event *ev,
                           struct log_cycle_values *it);
/* The next value into *V: 1, 0 at the end, -EINVAL malformed. */
int log_cycle_value_next(struct log_cycle_values *it, double *v);
/* Internal to the reader (reader.c, cycle.c): checks the cycle body
 * [P, END) of EV (whose header fields are read) and sets its cycle
 * members. 0, or -1 with the reason in WHY. */
int log__cycle_parse(struct log_event *ev, uint64_t k, const uint8_t *p,
                     const uint8_t *end, char *why, size_t len);
/* Internal to the reader (reader.c, site.c): whether a record of DESC
 * with FLAGS in a log of format VERSION carries buffer addresses after
 * its site (log-format.h: LOG_REC_SITE, LOG_REC_BUFS). */
static inline int log__has_bufs(const struct log_func_desc *desc,
                                unsigned flags, unsigned version)
{
    return desc && desc->nbufs && (flags & LOG_REC_SITE) &&
           version >= (unsigned)desc->bufs_since &&
           (!desc->bufs_if_pending || (flags & LOG_REC_BUFS));
}
/* Internal to the readers (reader.c, sys-reader.c): opens PATH read-only
 * and maps it whole into *FD, *MAP, *SIZE: a regular file of at least a
 * header (WHAT names the kind of file in the message). 0, or -errno with
 * the reason in ERR and nothing left open. */
int log__map_file(const char *path, const char *what, int *fd,
                  const uint8_t **map, size_t *size, char *err,
                  size_t errlen);

/*
 * Call sites (log-format.h, LOG_REC_SITE). log_event_site: where the
 * program made EV's call: 1 with the object's number in *OBJ and the
 * return address as an offset in it (its ELF virtual address) in *OFF;
 * 0 when the record has none (a log older than version 5, a callback's
 * entry, a poll held back).
 */
int log_event_site(const struct log_event *ev, uint32_t *obj, uint64_t *off);
/* One of the buffers of a call that starts a request, or of a blocking
 * one made while one was pending. */
struct log_bufaddr {
    int arg;       /* its argument index (desc->args) */
    uint64_t addr; /* as the program passed it */
    int64_t lb;    /* MPI may touch [addr + lb, addr + lb + span) */
    int known;     /* span (and lb) known; 0: a v- or w-collective's */
    uint64_t span;
};
/* Buffer I (0 to desc->nbufs - 1) of EV: 1 with *B, 0 when the record has
 * no buffer addresses (a blocking call's: only while a request was
 * pending, LOG_REC_BUFS), -EINVAL malformed. */
int log_event_bufaddr(const struct log_event *ev, int i,
                      struct log_bufaddr *b);
/* The CFA of the program's frame that made EV's call, from the record of
 * its site's first call (LOG_F_FRAME): 1 with it in *CFA, 0 when the
 * record has none, -EINVAL when malformed. */
int log_event_frame(const struct log_event *ev, uint64_t *cfa);
/* A loaded object call sites name (LOG_F_OBJECT). */
struct log_object {
    uint32_t id;
    uint64_t bias;          /* its load bias in the recorded run */
    uint8_t build_id[64];   /* its GNU build id (build_id_len bytes; 0:
                             * it had none) */
    size_t build_id_len;
    char path[4096];        /* as the recorded process saw it */
    uint64_t event;         /* the record that carries it */
};
/* Object ID of R's call sites, from the first record that names it: 1,
 * 0 when no record does (a truncated log), -EINVAL malformed. Reads the
 * records from the start: callers cache it. */
int log_rank_object(const struct log_rank *r, uint32_t id,
                    struct log_object *o);

/* Decodes a REQUEST or HANDLE field: 0 or -EINVAL. */
int log_field_handle(const struct log_field *f, uint32_t *v);
/* A NEIGHBORS field (log-format.h), decoded: the topology (enum
 * log_topo), the degrees, the in- and out-neighbours (local ranks, -1
 * MPI_PROC_NULL), which point into the caller's array. */
struct log_neighbors {
    int kind, in, out;
    const int32_t *src, *dst;
};
/* Decodes F into *NB, its neighbours into V (CAP elements: F's length
 * is always enough, each takes a byte at least): 0 or -EINVAL. */
int log_field_neighbors(const struct log_field *f, int32_t *v, size_t cap,
                        struct log_neighbors *nb);
/* The first field of KIND for argument ARG, or NULL. */
int log_event_find(const struct log_event *ev, unsigned arg, unsigned kind,
                   struct log_field *f);

/* The run description (drdb.run): "key value" lines, values escaped. */
struct log_run {
    char dir[4096];
    int world_size;
    int nranks_present; /* rank-R.log files found */
    int *present;       /* their ranks, ascending (nranks_present) */
    char *text;         /* the file's contents */
};
/* The error message of a reader's call: ERR (LEN bytes; NULL or 0: none)
 * gets FMT's text, cut to fit. */
void log_errf(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/*
 * Reads DIR's drdb.run. Its numbers are untrusted: world_size must be a
 * plain decimal from 1 to LOG_MAX_WORLD ("4x" is refused), and no
 * rank-R.log of the directory may lie outside it. 0, or -errno / -EINVAL
 * with a message naming the file and what is wrong in ERR.
 */
int log_run_open(struct log_run *run, const char *dir, char *err,
                 size_t errlen);
/* Parses TEXT as a whole decimal number from LO to HI into *V: 0 or -1
 * (empty, a sign, any other character, out of range). */
int log_parse_count(const char *text, long long lo, long long hi,
                    long long *v);
void log_run_release(struct log_run *run);
/* Whether DIR's recording is over (log-format.h: LOG_RECORDING_FILE). */
enum log_recording {
    LOG_RECORDING_DONE,        /* drdb record concluded it (or no drdb
                                * record: the recorder linked in) */
    LOG_RECORDING_RUNNING,     /* drdb record is at work on it */
    LOG_RECORDING_INTERRUPTED, /* drdb record was killed before its end */
};
enum log_recording log_run_recording(const char *dir);
/* The value for KEY (first occurrence) copied to BUF, or NULL. */
const char *log_run_get(const struct log_run *run, const char *key,
                        char *buf, size_t len);

#endif
