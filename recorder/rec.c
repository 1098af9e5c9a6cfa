/*
 * The recorder's runtime: opening the rank's log, the per-record helpers the
 * wrappers call, message-data packing and the request-to-buffer table.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drdb_mpi_abi.h"
#include "log-writer.h"
#include "rec.h"

int rec_on;
int rec_send_data;
uint64_t rec_t0;
static struct log_writer writer;
/* Time spent building and committing records, for the overhead estimate. */
static uint64_t busy_ns, cur_t1;

static void warn(const char *fmt, const char *arg)
{
    fprintf(stderr, "drdb-record: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
}

/* The run of identical unsuccessful polls not yet logged. */
static struct {
    int fn;
    size_t len;
    uint8_t img[512];
    uint64_t n, t0, t1;
} poll;

static void poll_flush(void)
{
    struct log_rec rec;
    uint64_t n = poll.n;
    poll.n = 0;
    if (!log_writer_begin(&writer, &rec, poll.len + 10, poll.fn,
                          n > 1 ? LOG_REC_REPEAT : 0, poll.t0,
                          poll.t1 - poll.t0)) {
        rec_on = 0;
        return;
    }
    if (n > 1)
        log_put_varint(&rec, n);
    log_put_bytes(&rec, poll.img, poll.len);
    log_writer_commit(&writer, &rec);
}

void rec_poll(int fn, const void *img, size_t len, uint64_t t0, uint64_t t1)
{
    if (poll.n && poll.fn == fn && poll.len == len &&
        memcmp(poll.img, img, len) == 0) {
        poll.n++;
        poll.t1 = t1;
        return;
    }
    if (poll.n)
        poll_flush();
    if (len > sizeof poll.img || !rec_on)
        return;
    poll.fn = fn;
    poll.len = len;
    memcpy(poll.img, img, len);
    poll.n = 1;
    poll.t0 = t0;
    poll.t1 = t1;
}

int rec_begin(struct log_rec *rec, int fn, unsigned flags, int ret,
              uint64_t t0, uint64_t t1, size_t room)
{
    if (poll.n)
        poll_flush();
    if (!rec_on)
        return 0;
    if (ret != MPI_SUCCESS)
        flags |= LOG_REC_RET;
    if (!log_writer_begin(&writer, rec, room + 10, fn, flags, t0, t1 - t0)) {
        rec_on = 0; /* the writer warned once; the program goes on */
        return 0;
    }
    cur_t1 = t1;
    if (flags & LOG_REC_RET)
        log_put_varint(rec, ((uint64_t)(int64_t)ret << 1) ^
                                (uint64_t)((int64_t)ret >> 63));
    return 1;
}

void rec_end(struct log_rec *rec)
{
    log_writer_commit(&writer, rec);
    busy_ns += rec_now() - cur_t1;
}

/* ---- opening and closing ---------------------------------------------- */

/* Appends "key value" to BUF, escaping newlines and backslashes. */
static void run_kv(FILE *f, const char *key, const char *val)
{
    fprintf(f, "%s ", key);
    for (const char *p = val; *p; p++) {
        if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\\')
            fputs("\\\\", f);
        else
            fputc(*p, f);
    }
    fputc('\n', f);
}

/* Reads a /proc file of NUL-separated strings into "a b c" form. */
static void proc_args(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;
    if (fd >= 0)
        close(fd);
    if (n < 0)
        n = 0;
    buf[n] = '\0';
    for (ssize_t i = 0; i + 1 < n; i++)
        if (buf[i] == '\0')
            buf[i] = '\x1f'; /* unit separator: arguments may hold spaces */
}

/* Rank 0 describes the run (drdb.run), atomically (write + rename). */
static void write_run_file(const char *dir, int size)
{
    char path[PATH_MAX], tmp[PATH_MAX], buf[8192];
    snprintf(path, sizeof path, "%s/%s", dir, LOG_RUN_FILE);
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, LOG_RUN_FILE);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        warn("cannot write the run description in '%s'", dir);
        return;
    }
    fprintf(f, "format drdb-run 1\nworld_size %d\n", size);
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    run_kv(f, "exe", buf);
    proc_args("/proc/self/cmdline", buf, sizeof buf);
    run_kv(f, "argv", buf);
    if (getcwd(buf, sizeof buf))
        run_kv(f, "cwd", buf);
    int len = 0;
    char ver[MPI_MAX_LIBRARY_VERSION_STRING];
    if (PMPI_Get_library_version(ver, &len) == MPI_SUCCESS) {
        char *nl = strchr(ver, '\n');
        if (nl)
            *nl = '\0';
        run_kv(f, "mpi_library", ver);
    }
    run_kv(f, "recorder", DRDB_VERSION);
    snprintf(buf, sizeof buf, "%llu",
             (unsigned long long)((struct log_file_header *)writer.map)->start_ns);
    run_kv(f, "start_ns", buf);
    const char *cmd = getenv("DRDB_COMMAND");
    if (cmd)
        run_kv(f, "command", cmd);
    if (fclose(f) != 0 || rename(tmp, path) != 0)
        warn("cannot write the run description in '%s'", dir);
}

/* Whether RANK is in the DRDB_RANKS list ("0-3,8"; unset: every rank). */
static int rank_selected(int rank)
{
    const char *s = getenv("DRDB_RANKS");
    if (!s || !*s)
        return 1;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s)
            return 1; /* malformed: drdb record validated it; be generous */
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        if (rank >= a && rank <= b)
            return 1;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            break;
    }
    return 0;
}

/* Called right after PMPI_Init*: opens this rank's log. */
void rec_open(void);
void rec_open(void)
{
    const char *dir = getenv("DRDB_RUN_DIR");
    int rank = 0, size = 1;
    char path[PATH_MAX];

    if (!dir || !*dir)
        return; /* preloaded outside 'drdb record': stay out of the way */
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!rank_selected(rank))
        return;

    struct log_file_header hdr;
    struct timespec ts;
    memset(&hdr, 0, sizeof hdr);
    memcpy(hdr.magic, LOG_MAGIC, 8);
    hdr.version = LOG_VERSION;
    hdr.header_size = LOG_HEADER_SIZE;
    hdr.rank = rank;
    hdr.world_size = size;
    clock_gettime(CLOCK_REALTIME, &ts);
    hdr.start_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    hdr.max_func_id = DRDB_MPI_FUNC_MAX_ID;
    hdr.pid = getpid();
    gethostname(hdr.host, sizeof hdr.host - 1);
    if (getenv("DRDB_SEND_DATA")) {
        hdr.flags |= LOG_HDR_SEND_DATA;
        rec_send_data = 1;
    }

    log_path(path, sizeof path, dir, rank);
    int rc = log_writer_open(&writer, path, &hdr);
    if (rc < 0) {
        fprintf(stderr, "drdb-record: rank %d: cannot create '%s': %s; this "
                        "rank is not recorded\n", rank, path, strerror(-rc));
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &ts);
    rec_t0 = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    rec_on = 1;
    if (rank == 0)
        write_run_file(dir, size);
}

void rec_close(void);
void rec_close(void)
{
    if (poll.n && rec_on)
        poll_flush();
    rec_on = 0;
    if (writer.map)
        log_writer_close(&writer, busy_ns);
}

/* ---- data ------------------------------------------------------------- */

int rec_peers(MPI_Comm comm)
{
    int inter = 0, n = 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        PMPI_Comm_remote_size(comm, &n);
    else
        PMPI_Comm_size(comm, &n);
    return n;
}

/* The topology's neighbour counts: in-degree, out-degree. */
static void degrees(MPI_Comm comm, int *in, int *out)
{
    int topo = MPI_UNDEFINED, n = 0, rank = 0, weighted = 0;
    *in = *out = 0;
    if (PMPI_Topo_test(comm, &topo) != MPI_SUCCESS)
        return;
    switch (topo) {
    case MPI_CART:
        if (PMPI_Cartdim_get(comm, &n) == MPI_SUCCESS)
            *in = *out = 2 * n;
        break;
    case MPI_GRAPH:
        PMPI_Comm_rank(comm, &rank);
        if (PMPI_Graph_neighbors_count(comm, rank, &n) == MPI_SUCCESS)
            *in = *out = n;
        break;
    case MPI_DIST_GRAPH:
        PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted);
        break;
    }
}

int rec_in_degree(MPI_Comm comm)
{
    int in, out;
    degrees(comm, &in, &out);
    return in;
}

int rec_out_degree(MPI_Comm comm)
{
    int in, out;
    degrees(comm, &in, &out);
    return out;
}

int rec_coll_writes(MPI_Comm comm, int root, enum rec_side side)
{
    int inter = 0, rank = -1;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        return side == REC_AT_ROOT ? root == MPI_ROOT : root >= 0;
    if (side == REC_AT_ALL)
        return 1;
    PMPI_Comm_rank(comm, &rank);
    return (rank == root) == (side == REC_AT_ROOT);
}

static int64_t type_size(MPI_Datatype type)
{
    MPI_Count sz = 0;
    if (PMPI_Type_size_x(type, &sz) != MPI_SUCCESS || sz < 0)
        return 0;
    return (int64_t)sz;
}

int64_t rec_data_bytes(int64_t n, MPI_Datatype type)
{
    return n > 0 ? n * type_size(type) : 0;
}

int64_t rec_status_bytes(const MPI_Status *st, int64_t n, MPI_Datatype type)
{
    MPI_Count bytes = 0;
    if (PMPI_Get_elements_x(st, MPI_BYTE, &bytes) != MPI_SUCCESS ||
        bytes == MPI_UNDEFINED || bytes < 0)
        return 0;
    int64_t max = rec_data_bytes(n, type);
    return bytes < max ? (int64_t)bytes : max;
}

size_t rec_pack_room(int64_t bytes, MPI_Datatype type)
{
    return (size_t)bytes + (size_t)type_size(type);
}

/* A builtin datatype: contiguous. */
static int builtin_type(MPI_Datatype type)
{
    return DRDB_MPI_HANDLE_BUILTIN(type);
}

/* Packs BYTES of N x TYPE at BUF into the record at rec->p. */
static void pack(struct log_rec *rec, const void *buf, int64_t n,
                 MPI_Datatype type, int64_t bytes)
{
    if (builtin_type(type)) {
        memcpy(rec->p, buf, (size_t)bytes);
    } else {
        int64_t esz = type_size(type);
        int64_t elems = esz ? (bytes + esz - 1) / esz : 0;
        if (elems > n)
            elems = n;
        MPI_Count pos = 0;
        /* The record has room for one element of slack: packing a whole
         * last element is safe, only BYTES of it are kept. */
        PMPI_Pack_c(buf, (MPI_Count)elems, type, rec->p,
                    (MPI_Count)(elems * esz), &pos, MPI_COMM_SELF);
    }
    rec->p += bytes;
}

static void put_data(struct log_rec *rec, unsigned arg, uint64_t elem,
                     const void *buf, int64_t n, MPI_Datatype type,
                     int64_t bytes)
{
    log_put_field(rec, arg, LOG_F_DATA, elem, (uint64_t)bytes);
    pack(rec, buf, n, type, bytes);
    writer.data_bytes += (uint64_t)bytes;
}

void rec_put_data(struct log_rec *rec, unsigned arg, const void *buf,
                  int64_t n, MPI_Datatype type, int64_t bytes)
{
    put_data(rec, arg, 0, buf, n, type, bytes);
}

static int64_t elem_at(const void *arr, size_t esize, int i)
{
    if (esize == 8)
        return ((const int64_t *)arr)[i];
    return ((const int *)arr)[i];
}

int64_t rec_vdata_bytes(int peers, const void *counts, size_t csize,
                        MPI_Datatype type)
{
    int64_t total = 0, esz = type_size(type);
    for (int i = 0; i < peers; i++) {
        int64_t c = elem_at(counts, csize, i);
        if (c > 0)
            total += c * esz;
    }
    return total;
}

/* The v- and w-shapes' body: PEERS blocks, packed back to back. TYPES NULL:
 * TYPE for every peer, DISPLS in its extents; else DISPLS in bytes. */
static void put_blocks(struct log_rec *rec, unsigned arg, uint64_t elem,
                       const void *buf, int peers, const void *counts,
                       size_t csize, const void *displs, size_t dsize,
                       MPI_Datatype type, const MPI_Datatype *types,
                       int64_t bytes)
{
    MPI_Aint lb, extent = 1;
    int64_t esz = 0;
    if (!types) {
        PMPI_Type_get_extent(type, &lb, &extent);
        esz = type_size(type);
    }
    log_put_field(rec, arg, LOG_F_DATA, elem, (uint64_t)bytes);
    for (int i = 0; i < peers; i++) {
        int64_t c = elem_at(counts, csize, i);
        if (c <= 0)
            continue;
        MPI_Datatype t = types ? types[i] : type;
        if (types)
            esz = type_size(t);
        pack(rec, (const char *)buf + elem_at(displs, dsize, i) * extent, c,
             t, c * esz);
    }
    writer.data_bytes += (uint64_t)bytes;
}

void rec_put_vdata(struct log_rec *rec, unsigned arg, const void *buf,
                   int peers, const void *counts, size_t csize,
                   const void *displs, size_t dsize, MPI_Datatype type,
                   int64_t bytes)
{
    put_blocks(rec, arg, 0, buf, peers, counts, csize, displs, dsize, type,
               NULL, bytes);
}

/* The w-variants' bytes: a type per peer. */
static int64_t wdata_bytes(int peers, const void *counts, size_t csize,
                           const MPI_Datatype *types)
{
    int64_t total = 0;
    for (int i = 0; i < peers; i++) {
        int64_t c = elem_at(counts, csize, i);
        if (c > 0)
            total += c * type_size(types[i]);
    }
    return total;
}

/* ---- buffers described by a struct rec_buf ------------------------------ */

int64_t rec_buf_bytes(const struct rec_buf *b, const MPI_Status *st)
{
    size_t cs = b->flags & REC_COUNTS64 ? 8 : 4;
    switch (b->shape) {
    case REC_RECV:
        return st ? rec_status_bytes(st, b->n, b->type) : 0;
    case REC_COLL:
        return rec_data_bytes(b->n, b->type);
    case REC_VCOLL:
        return rec_vdata_bytes(b->peers, b->counts, cs, b->type);
    case REC_WCOLL:
        return wdata_bytes(b->peers, b->counts, cs, b->types);
    }
    return 0;
}

size_t rec_buf_room(const struct rec_buf *b, int64_t bytes)
{
    if (bytes <= 0)
        return 0;
    /* v- and w-shapes pack whole elements: no slack needed. */
    if (b->shape == REC_VCOLL || b->shape == REC_WCOLL)
        return LOG_FIELD_HEAD + (size_t)bytes;
    return LOG_FIELD_HEAD + rec_pack_room(bytes, b->type);
}

void rec_put_buf(struct log_rec *rec, unsigned arg, uint64_t elem,
                 const struct rec_buf *b, int64_t bytes)
{
    size_t cs = b->flags & REC_COUNTS64 ? 8 : 4;
    size_t ds = b->flags & REC_DISPLS64 ? 8 : 4;
    if (bytes <= 0)
        return;
    if (b->shape == REC_RECV || b->shape == REC_COLL)
        put_data(rec, arg, elem, b->buf, b->n, b->type, bytes);
    else
        put_blocks(rec, arg, elem, b->buf, b->peers, b->counts, cs,
                   b->displs, ds, b->type,
                   b->shape == REC_WCOLL ? b->types : NULL, bytes);
}

size_t rec_members_room(MPI_Comm comm)
{
    int local = 0, inter = 0;
    if (comm == MPI_COMM_NULL)
        return 0;
    PMPI_Comm_size(comm, &local);
    PMPI_Comm_test_inter(comm, &inter);
    return 2 * LOG_FIELD_HEAD +
           4 * (size_t)(local + (inter ? rec_peers(comm) : 0));
}

/* World ranks of GROUP as one MEMBERS field (elem 0 local, 1 remote). */
static void put_group(struct log_rec *rec, MPI_Group group, unsigned elem)
{
    static MPI_Group world = MPI_GROUP_NULL;
    int n = 0;
    if (world == MPI_GROUP_NULL)
        PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_size(group, &n);
    log_put_field(rec, LOG_ARG_NONE, LOG_F_MEMBERS, elem, 4 * (uint64_t)n);
    int in[256], out[256];
    for (int i = 0; i < n; i += 256) {
        int k = n - i < 256 ? n - i : 256;
        for (int j = 0; j < k; j++)
            in[j] = i + j;
        PMPI_Group_translate_ranks(group, k, in, world, out);
        log_put_bytes(rec, out, 4 * (size_t)k);
    }
}

void rec_put_members(struct log_rec *rec, MPI_Comm comm)
{
    MPI_Group g;
    int inter = 0;
    if (comm == MPI_COMM_NULL)
        return;
    PMPI_Comm_group(comm, &g);
    put_group(rec, g, 0);
    PMPI_Group_free(&g);
    PMPI_Comm_test_inter(comm, &inter);
    if (inter) {
        PMPI_Comm_remote_group(comm, &g);
        put_group(rec, g, 1);
        PMPI_Group_free(&g);
    }
}
