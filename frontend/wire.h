/*
 * wire.h - the protocol between drdb and a `drdb agent` (docs/architecture.md,
 * "Remote replay nodes"): frames over a byte stream (the agent's stdin and
 * stdout, through ssh or a local pipe).
 *
 * A frame is an 8-byte header, little-endian: u32 payload length, u16
 * type, u16 channel; then the payload (at most WIRE_MAX_PAYLOAD bytes: a
 * longer one is a protocol error, so a peer never makes the other buffer
 * more than that). Channel 0 is the connection's; a process the client
 * starts gets the channel number the client chose (1..65535), and so does
 * a file read. Payload fields: u32, u64 (little-endian), and strings (u32
 * length, the bytes, no NUL inside).
 *
 *   HELLO   both ways, first, ch 0: WIRE_MAGIC (8 bytes), u32 protocol
 *           version (WIRE_PROTOCOL), string drdb version. Each side sends
 *           its own without waiting; the client judges a mismatch (it
 *           knows the host's name) and the agent ends.
 *   ERROR   agent -> client: string. Ch 0: the agent ends; ch N: request
 *           N (a START or READ) failed and the channel is free again.
 *   START   client -> agent, ch N: a launcher description (struct
 *           launch_desc, wire_put_desc()).
 *   STARTED agent -> client, ch N: u32 pid, string: the slave of the
 *           extra terminal (LAUNCH_TTY), else "".
 *   STDIN, STDOUT, STDERR, TTY  ch N: bytes of the process's streams
 *           (STDIN and TTY client -> agent, the others agent -> client;
 *           TTY both ways: the extra terminal's master). An empty payload
 *           is the end of that stream (client -> agent: closes it).
 *   SIGNAL  client -> agent, ch N: u32 signal, to the process's group.
 *   EXIT    agent -> client, ch N: u32 wait status; sent after the
 *           process's STDOUT and STDERR ended (or 2 s after it was
 *           reaped, when a child of its own keeps them open). The channel
 *           is then free.
 *   READ    client -> agent, ch N: string run directory, string file name
 *           in it (no '/'), u64 offset, u32 length (<= WIRE_MAX_READ).
 *   DATA    agent -> client, ch N: the bytes read (fewer at the end of the
 *           file); the channel is then free.
 *   RUN     client -> agent, ch N: string run directory. Answered by
 *           DATA: u32 world size, string the ranks whose logs the
 *           directory holds ("0-31,40": rankset.h), string drdb.run.
 *   INDEX   client -> agent, ch N: string run directory, u32 rank: that
 *           rank's log as a copy without message data (log-strip.h).
 *   IMAGE   agent -> client, ch N: the next bytes of the copy (frames of
 *           at most WIRE_MAX_READ), then
 *   IMAGE_END agent -> client, ch N: u64 the copy's size, u64 the log's
 *           size, string why the log's reading stopped early ("" if it
 *           did not: log_rank's stop_reason), u64 the bytes of message
 *           data the copy still holds (protocol 4; 0: the agent elides
 *           every data field); the channel is then free.
 *           The elided bytes are READ from "rank-R.log" by offset. A
 *           client may send INDEX requests for several ranks at once
 *           (each on its channel): the agent answers them in order.
 *
 * Keeping a session (protocol 2; docs/remote.md, "Keeping a session"): an
 * agent started with `--keep` may outlive its connection.
 *   KEEP    client -> agent, ch N: u32 seconds to keep the processes after
 *           the connection ends (0: end them with it, as a plain agent),
 *           string session note (<= WIRE_MAX_NOTE bytes, opaque: what the
 *           client needs to rebuild its state). Answered by DATA: string
 *           the session's id, or ERROR (an agent not started to keep).
 *   LABEL   client -> agent, ch N (a process): string label (<=
 *           WIRE_MAX_LABEL bytes, opaque: "rank 3"), listed by LIST.
 *   LIST    client -> agent, ch N: answered by DATA: the session's note
 *           and its processes (wire_put_list()).
 *   RESUME  client -> agent, ch 0, empty: the client knows the processes
 *           LIST gave; the agent sends what they wrote while no client
 *           took it (kept since the last connection ended), their EXITs,
 *           and relays them again. An agent connected by `--attach` sends
 *           its processes' output only after RESUME.
 *   SESSIONS client -> agent, ch N: answered by DATA: u32 count, strings
 *           the ids of this user's kept sessions on the host.
 *   SETUP   client -> agent, ch N: string run directory, u32 rank, u32
 *           flags (LAUNCH_GDB_IN_PLACE: no replay-out directory). What a
 *           rank's replay under GDB needs on the agent's host, made there
 *           (launch_gdb_prepare). Answered by DATA: a struct launch_gdb
 *           (wire_put_gdb(); protocol 5: with the recorded stack, which
 *           the console pads the rank's environment to).
 *
 * Shadows (protocol 3; docs/remote.md): a shadow of a rank replaying on
 * the agent's host, made there as the console makes a local one
 * (launch_shadow_of(), in a directory of the agent's: launch_shadow_dir()).
 *   SHADOW  client -> agent, ch N: u32 op (WIRE_SHADOW_*), then
 *           START: u32 pid (the replay to copy: a descendant of a process
 *           this agent started, else refused), string run directory (""
 *           : its writes in place), u32 rank, u64 the interval in seconds
 *           (a double's bits; > 0: by time), u64 every N events. Answered
 *           by DATA: u32 the shadow's id (its drain's pid there), string
 *           its directory there (its checkpoint files, what `rollback sK`
 *           restores by path).
 *           POLL, u32 id: DATA: u32 ended (0 running, 1), u32 its wait
 *           status. STOP, u32 id, u32 flags (WIRE_SHADOW_CLEAR: remove
 *           its files too): DATA, empty. LIST, u32 id: DATA: u32 count,
 *           then per checkpoint file: string name, u64 id, u64 parent,
 *           u64 event, u64 time (a double's bits), u64 pages, u64 bytes.
 *           An id the agent did not give is refused (ERROR).
 *
 * Requests (START, READ, RUN, INDEX, KEEP, LIST, SESSIONS, SETUP, SHADOW)
 * may be pipelined: a client may send any number, each on a channel of
 * its own, before it reads an answer; the agent handles frames in the
 * order they arrive and answers each on its channel (the console starts
 * a host's ranks so: every SETUP, then every START).
 *
 * A version change of anything here raises WIRE_PROTOCOL.
 */
#ifndef DRDB_WIRE_H
#define DRDB_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define WIRE_MAGIC "drdbwire"
#define WIRE_PROTOCOL 5
#define WIRE_HEADER 8
#define WIRE_MAX_PAYLOAD (1u << 20)
#define WIRE_MAX_READ (WIRE_MAX_PAYLOAD - 64)
/* Stream data is sent in frames of at most this much. */
#define WIRE_CHUNK 65536
/* Above this much queued output, a side stops reading what feeds it. */
#define WIRE_HIGH_WATER (4u << 20)

enum wire_type {
    WIRE_HELLO = 1,
    WIRE_ERROR,
    WIRE_START,
    WIRE_STARTED,
    WIRE_STDIN,
    WIRE_STDOUT,
    WIRE_STDERR,
    WIRE_TTY,
    WIRE_SIGNAL,
    WIRE_EXIT,
    WIRE_READ,
    WIRE_DATA,
    WIRE_RUN,
    WIRE_INDEX,
    WIRE_IMAGE,
    WIRE_IMAGE_END,
    WIRE_KEEP,
    WIRE_LABEL,
    WIRE_LIST,
    WIRE_RESUME,
    WIRE_SESSIONS,
    WIRE_SETUP,
    WIRE_SHADOW, /* protocol 3 */
    WIRE_TYPE_END
};
/* SHADOW's operations, and STOP's flag. */
enum { WIRE_SHADOW_START, WIRE_SHADOW_POLL, WIRE_SHADOW_STOP,
       WIRE_SHADOW_LIST, WIRE_SHADOW_END };
#define WIRE_SHADOW_CLEAR 1u

/* A frame as parsed: the payload points into the caller's buffer. */
struct wire_frame {
    uint16_t type, channel;
    uint32_t len;
    const uint8_t *data;
};

/* The frame at the start of BUF (LEN bytes) into *F: the bytes it takes,
 * 0 when BUF holds only part of it, or -1 (a bad length or type, with the
 * reason in ERR) after which the stream cannot be resynchronized. */
long wire_parse(const uint8_t *buf, size_t len, struct wire_frame *f,
                char *err, size_t errlen);
/* The name of a frame type ("STDOUT"), or "?". */
const char *wire_type_name(unsigned type);

/* ---- payloads ----------------------------------------------------------- */

/* A growing byte buffer (a payload being built, a queue). */
struct wire_buf {
    uint8_t *p;
    size_t len, cap, off; /* off: bytes consumed at the front (a queue) */
    int oom;              /* an allocation failed: the contents are cut */
};
void wire_buf_init(struct wire_buf *b);
void wire_buf_release(struct wire_buf *b);
void wire_buf_add(struct wire_buf *b, const void *p, size_t n);
/* Room for N more bytes at the end (the caller fills them and adds N to
 * len): a pointer to it, or NULL out of memory. */
uint8_t *wire_buf_reserve(struct wire_buf *b, size_t n);
void wire_put_u32(struct wire_buf *b, uint32_t v);
void wire_put_u64(struct wire_buf *b, uint64_t v);
void wire_put_str(struct wire_buf *b, const char *s);
/* Bytes not consumed yet; drops N of them from the front. */
static inline size_t wire_buf_size(const struct wire_buf *b)
{
    return b->len - b->off;
}
void wire_buf_drop(struct wire_buf *b, size_t n);

/* Reading a payload: each get fails (-1, and every later one) past the
 * end; a string is returned malloc'd and NUL-terminated, and one with a
 * NUL inside fails. */
struct wire_rd {
    const uint8_t *p;
    size_t len, at;
    int bad;
};
void wire_rd_init(struct wire_rd *r, const struct wire_frame *f);
int wire_get_u32(struct wire_rd *r, uint32_t *v);
int wire_get_u64(struct wire_rd *r, uint64_t *v);
char *wire_get_str(struct wire_rd *r);

/* A launcher description (launch.h) as START's payload, and back: 0, or
 * -1 (malformed or out of memory; D is then released). At most
 * WIRE_MAX_WORDS arguments and environment settings. */
#define WIRE_MAX_WORDS 4096
struct launch_desc;
void wire_put_desc(struct wire_buf *b, const struct launch_desc *d);
int wire_get_desc(struct wire_rd *r, struct launch_desc *d);

/* LIST's answer: (the session id, string, before it) the session note
 * (string), u32 count, then per process
 * u32 channel, u32 pid, u32 flags (WIRE_KEPT_*), u32 wait status (when
 * exited), string label, string terminal name ("" none). */
#define WIRE_MAX_NOTE 65536
#define WIRE_MAX_LABEL 256
enum {
    WIRE_KEPT_EXITED = 1, /* reaped: STATUS is its wait status */
    /* its streams not ended yet (whose ends the client will be told) */
    WIRE_KEPT_ERR = 2,    /* stderr (none with LAUNCH_PTY) */
    WIRE_KEPT_TTY = 4,    /* the extra terminal (LAUNCH_TTY) */
    WIRE_KEPT_OUT = 8,    /* stdout */
};
struct wire_kept {
    uint32_t ch, pid, flags, status;
    char *label, *tty_name;
};
void wire_put_list(struct wire_buf *b, const char *note,
                   const struct wire_kept *k, size_t n);
/* 0 with *NOTE and *K (N of them; malloc'd: wire_kept_free), or -1 (a
 * malformed list, a channel 0 or out of 1..65535, a note or label over
 * its bound, more than WIRE_MAX_WORDS processes). */
int wire_get_list(struct wire_rd *r, char **note, struct wire_kept **k,
                  size_t *n);
void wire_kept_free(struct wire_kept *k, size_t n);
/* SETUP's answer (launch.h's struct launch_gdb), and back: 0, or -1
 * (malformed or out of memory; G is then released). */
struct launch_gdb;
void wire_put_gdb(struct wire_buf *b, const struct launch_gdb *g);
int wire_get_gdb(struct wire_rd *r, struct launch_gdb *g);
/* SHADOW's request (the fields of its OP: ID for all but START; FLAGS
 * for STOP; PID, RUNDIR, RANK, INTERVAL, EVERY for START), and back: 0,
 * or -1 (malformed, an unknown op, trailing bytes; Q->rundir is then
 * NULL). Q->rundir is malloc'd (free it). */
struct wire_shadow {
    uint32_t op, id, flags, pid, rank;
    char *rundir;
    double interval;
    uint64_t every;
};
void wire_put_shadow(struct wire_buf *b, const struct wire_shadow *q);
int wire_get_shadow(struct wire_rd *r, struct wire_shadow *q);
/* The checkpoint files of a shadow's directory (launch.h) as LIST's
 * answer lists them; and back: 0 with *V (N of them, malloc'd), or -1
 * (malformed: a name empty, with a '/' or too long; trailing bytes). */
struct launch_shadow_file;
void wire_put_ckpt_files(struct wire_buf *b, const struct launch_shadow_file *v,
                         size_t n);
int wire_get_ckpt_files(struct wire_rd *r, struct launch_shadow_file **v,
                        size_t *n);

/* ---- a connection ------------------------------------------------------- */

/* Frames in from IN, out to OUT (both non-blocking; the same fd for a
 * socket): output is queued and written as the peer takes it. */
struct wire_conn {
    int in, out;
    struct wire_buf inq, outq;
    char err[256]; /* why the connection failed */
    uint64_t nread; /* bytes read from IN so far (frames and headers) */
};
void wire_conn_init(struct wire_conn *c, int in, int out);
void wire_conn_release(struct wire_conn *c);
/* Queues a frame: 0, or -1 (out of memory, or LEN too large). */
int wire_send(struct wire_conn *c, unsigned type, unsigned channel,
              const void *data, size_t len);
int wire_send_buf(struct wire_conn *c, unsigned type, unsigned channel,
                  const struct wire_buf *b);
/* Reads up to WIRE_CHUNK bytes of FD straight into a queued TYPE frame:
 * read()'s result (nothing is queued unless > 0; errno as read's). */
long wire_send_read(struct wire_conn *c, unsigned type, unsigned channel,
                    int fd);
/* Writes what the peer takes now: 0, or -1 (the peer is gone; c->err). */
int wire_flush(struct wire_conn *c);
/* Reads what is there: 1, 0 at the end of the stream, -1 on an error. */
int wire_fill(struct wire_conn *c);
/* The next complete frame read into *F (its payload valid until the next
 * wire_fill()): 1,
 * 0 when none is complete, -1 on a protocol error (c->err). */
int wire_next(struct wire_conn *c, struct wire_frame *f);

/* The poll loops of both sides: adds FD (not when < 0 or N is MAX) for
 * events EV. */
struct pollfd;
void wire_poll_add(struct pollfd *fds, int *n, int max, int fd, short ev);
/* The events poll() gave, by descriptor: the loops ask for each of every
 * process's descriptors, which a search of the poll set would make
 * quadratic in the processes. wire_ready_take() after each poll() (the
 * N results of FDS; those of before forgotten), then wire_ready_get():
 * the events of FD (0 when it was not polled; several entries of one
 * descriptor: theirs together). Out of memory, it searches FDS (which
 * must then stay as it is until the next take). */
struct wire_ready {
    short *ev;        /* by descriptor, CAP of them */
    size_t cap;
    const struct pollfd *fds; /* the fallback */
    int n, bad;
};
void wire_ready_take(struct wire_ready *w, const struct pollfd *fds, int n);
short wire_ready_get(const struct wire_ready *w, int fd);
void wire_ready_release(struct wire_ready *w);

/* This drdb's version as HELLO says it: DRDB_VERSION, or for tests only
 * $DRDB_TEST_VERSION (docs/remote.md). */
const char *wire_version(void);
/* HELLO's payload for this drdb (VERSION: DRDB_VERSION, or a test's). */
void wire_put_hello(struct wire_buf *b, const char *version);
/* A peer's HELLO: 0 with its protocol and version (malloc'd), or -1 when
 * F is not a HELLO of drdb's protocol. */
int wire_get_hello(const struct wire_frame *f, uint32_t *proto,
                   char **version);
/* Which of two drdb versions is older: <0 when A is, >0 when B is, 0 when
 * they are the same (numeric dotted parts compared as numbers). */
int wire_version_cmp(const char *a, const char *b);

#endif
