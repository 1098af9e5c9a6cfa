/*
 * buf.h - a program buffer as an MPI call writes (or reads) it, described
 * well enough to log it later or write it back on replay: the shared
 * description of the recorder's and the replay stub's request-to-buffer
 * tables (a nonblocking or persistent call's buffer, logged or written back
 * by the Wait/Test call that completes its request) and of the buffers of
 * irregular collectives.
 *
 * Fixed size, no allocation: the v- and w-shapes keep pointers to the
 * program's count, displacement and type arrays, which MPI requires to stay
 * unmodified until the request completes (persistent requests: until it is
 * freed). Handles are MPICH's 32-bit ints. Runs inside the recorded and the
 * replayed process.
 */
#ifndef DRDB_LOG_BUF_H
#define DRDB_LOG_BUF_H

#include <stdint.h>

#include "util.h"

enum log_buf_shape {
    LOG_BUF_RECV = 1, /* a receive: N x TYPE at most, as its status says */
    LOG_BUF_COLL,     /* a collective: exactly N x TYPE */
    LOG_BUF_VCOLL,    /* PEERS x (COUNTS[i] x TYPE at DISPLS[i] * extent) */
    LOG_BUF_WCOLL,    /* PEERS x (COUNTS[i] x TYPES[i] at DISPLS[i] bytes) */
};
enum {
    LOG_BUF_PERSISTENT = 1, /* stays registered until MPI_Request_free */
    LOG_BUF_COUNTS64 = 2,   /* COUNTS are 8 bytes (MPI_Count), else int */
    LOG_BUF_DISPLS64 = 4,   /* DISPLS are 8 bytes (MPI_Aint), else int */
    LOG_BUF_OWN_TYPE = 8,   /* TYPE is the table's own copy of the program's
                               (which the program freed): freed with B */
    LOG_BUF_DELIVERED = 16, /* the data was logged before the completion
                               (MPI_Request_get_status): not again */
    LOG_BUF_OWN_TYPES = 32, /* TYPES is the table's own array (malloc'd),
                               PEERS flag bytes after it marking its copies */
};

struct log_buf {
    void *buf;
    int64_t n;              /* RECV, COLL */
    const void *counts;     /* VCOLL, WCOLL */
    const void *displs;
    const uint32_t *types;  /* WCOLL */
    uint32_t type;          /* RECV, COLL, VCOLL */
    int32_t peers;          /* VCOLL, WCOLL; RECV of a partitioned
                               receive: its partitions (N / PEERS
                               elements each), else 0 */
    const void *where;      /* the program's request variable the call
                               starting it wrote (MPICH's builtin
                               requests, below), or NULL */
    uint32_t req;           /* table key; the null request: a free slot */
    uint16_t fn;            /* the call that started the request */
    uint8_t shape;          /* enum log_buf_shape */
    uint8_t flags;          /* LOG_BUF_* */
};

/* The flags of a v- or w-shape whose counts take CSIZE bytes and whose
 * displacements take DSIZE bytes (4 or 8). */
static inline uint8_t log_buf_sizes(unsigned csize, unsigned dsize)
{
    return (uint8_t)((csize == 8 ? LOG_BUF_COUNTS64 : 0) |
                     (dsize == 8 ? LOG_BUF_DISPLS64 : 0));
}

/* Peer I's count and displacement. */
static inline int64_t log_buf_count(const struct log_buf *b, int i)
{
    return b->flags & LOG_BUF_COUNTS64 ? ((const int64_t *)b->counts)[i]
                                       : ((const int32_t *)b->counts)[i];
}
static inline int64_t log_buf_displ(const struct log_buf *b, int i)
{
    return b->flags & LOG_BUF_DISPLS64 ? ((const int64_t *)b->displs)[i]
                                       : ((const int32_t *)b->displs)[i];
}

/*
 * Split collectives (MPI_File_read_all_begin ... _end): the buffer a
 * _begin call gave MPI, until the _end call on the same file handle. MPI
 * allows one split collective at a time per file handle; a process with
 * more than LOG_SPLITS_MAX of them at once gets NULL for the others (their
 * data is then not logged, or not written back).
 */
#define LOG_SPLITS_MAX 16
struct log_splits {
    uint64_t fh[LOG_SPLITS_MAX]; /* 0: a free slot */
    struct log_buf b[LOG_SPLITS_MAX];
};
/* Keeps B for file handle FH: 0, or -1 when the table is full. */
static inline int log_splits_put(struct log_splits *t, uint64_t fh,
                                 const struct log_buf *b)
{
    for (int i = 0; i < LOG_SPLITS_MAX; i++)
        if (t->fh[i] == fh || t->fh[i] == 0) {
            t->fh[i] = fh;
            t->b[i] = *b;
            return 0;
        }
    return -1;
}
/* FH's buffer, forgotten (the pointer stays valid until the next put), or
 * NULL. */
static inline struct log_buf *log_splits_take(struct log_splits *t,
                                              uint64_t fh)
{
    for (int i = 0; fh && i < LOG_SPLITS_MAX; i++)
        if (t->fh[i] == fh) {
            t->fh[i] = 0;
            return &t->b[i];
        }
    return NULL;
}

/* A request-to-buffer table, keyed by the request handle (NULLREQ: MPI's
 * null request, never a key). */
#define LOG_BUFS_INIT(nullreq) UTIL_HTAB_INIT(struct log_buf, req, (int)(nullreq))

/*
 * MPICH answers an operation it completed at once with one of its builtin
 * requests, one handle per kind of operation for all of them (two
 * MPI_Iallreduce on MPI_COMM_SELF both return 0x6c00000a; so do two
 * MPI_Rget from the rank itself): their entries would take each other's
 * place. They are kept under keys of their own instead, with the null
 * request's kind and type (never a handle MPI gives: 0x2c000000 | the
 * builtin's index << 20 | a count), in the order they started. A
 * completion of such a handle through the program's request variable
 * WHERE finds the entry that was started into that variable (the
 * program keeps its requests in an array and completes any of them:
 * MPICH's coll/nonblocking3), else the oldest; the recorder and the stub
 * pair them alike, each by its own addresses, and each entry logs and
 * writes its own buffer (the data was final when the call returned). A
 * table comes with its LOG_BUFS_BUILTIN counts (Q below): IN, the next
 * entry's count; OUT, the oldest live one's.
 */
struct log_bufs_builtin {
    uint32_t in[16], out[16];
};
static inline int log_bufs_builtin_index(uint32_t req)
{
    return (req >> 30) == 1 && (req & 0x03ffffffu) < 16 ? (int)(req & 15)
                                                         : -1;
}
static inline uint32_t log_bufs_builtin_key(int i, uint32_t n)
{
    return 0x2c000000u | (uint32_t)i << 20 | (n % 0xfffffu + 1);
}

/* The entry of request REQ completed through the program's variable at
 * WHERE (NULL: not known), or NULL; SKIP[0..NSKIP): the keys of entries
 * already picked by the call (a call completing one builtin handle more
 * than once, sized before it logs them), passed over. */
static inline struct log_buf *log_bufs_find(const struct util_htab *t,
                                            const struct log_bufs_builtin *q,
                                            uint32_t req, const void *where,
                                            const uint32_t *skip,
                                            unsigned nskip)
{
    int i = log_bufs_builtin_index(req);
    if (i < 0)
        return util_htab_find(t, (int)req);
    struct log_buf *first = NULL;
    for (uint32_t n = q->out[i]; n != q->in[i]; n++) {
        uint32_t key = log_bufs_builtin_key(i, n);
        struct log_buf *e = util_htab_find(t, (int)key);
        unsigned j = 0;
        while (j < nskip && skip[j] != key)
            j++;
        if (!e || j < nskip)
            continue;
        if (where && e->where == where)
            return e;
        if (!first)
            first = e;
    }
    return first;
}

/* Registers B (nothing for the null request): 0, or -1 out of memory. */
static inline int log_bufs_put(struct util_htab *t, struct log_bufs_builtin *q,
                               const struct log_buf *b)
{
    if ((int)b->req == t->null)
        return 0;
    struct log_buf e = *b;
    int i = log_bufs_builtin_index(b->req);
    if (i >= 0)
        e.req = log_bufs_builtin_key(i, q->in[i]++);
    return util_htab_put(t, &e) < 0 ? -1 : 0;
}

/*
 * A datatype the program frees while requests using it are pending (legal:
 * MPI keeps it until they complete) is still needed to log or write their
 * data after the completion, when MPI has released it. How a table copies
 * and frees a type: the recorder with PMPI, the stub with its engine.
 */
struct log_buf_types {
    int (*copy)(uint32_t type, uint32_t *copy); /* 0, or -1: no copy */
    void (*free)(uint32_t type);
};

/* Before the program frees TYPE: every entry of T using it gets a copy of
 * its own (one-type shapes: TYPE replaced, LOG_BUF_OWN_TYPE; a w-shape:
 * an array of types of its own, LOG_BUF_OWN_TYPES, with copies where the
 * program's had TYPE). Walks the table: for MPI_Type_free only (buf.c). */
void log_bufs_keep_type(struct util_htab *t, uint32_t type,
                        const struct log_buf_types *ops);
/* Frees what B owns (log_bufs_keep_type's copies). */
void log_bufs_release(struct log_buf *b, const struct log_buf_types *ops);

/* Forgets B (a pointer log_bufs_find returned) unless it is persistent
 * (FORCE: in any case), with what it owns. */
static inline void log_bufs_done(struct util_htab *t,
                                 struct log_bufs_builtin *q, struct log_buf *b,
                                 int force, const struct log_buf_types *ops)
{
    if (b && (force || !(b->flags & LOG_BUF_PERSISTENT))) {
        uint32_t key = b->req;
        if (b->flags & (LOG_BUF_OWN_TYPE | LOG_BUF_OWN_TYPES))
            log_bufs_release(b, ops);
        util_htab_remove(t, b);
        /* a builtin's oldest live entry: past those gone */
        if ((key & 0xff000000u) == 0x2c000000u && (key & 0xfffffu)) {
            int i = (int)(key >> 20) & 15;
            while (q->out[i] != q->in[i] &&
                   !util_htab_find(t, (int)log_bufs_builtin_key(i, q->out[i])))
                q->out[i]++;
        }
    }
}

#endif
