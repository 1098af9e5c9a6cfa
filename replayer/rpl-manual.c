/*
 * Hand-written replay of the calls whose replay does not follow from the
 * spec's annotations: the life cycle, the Wait/Test families (the mirror of
 * recorder/rec-manual.c), calls MPI answers locally, calls whose logged
 * output is an address of the recorded process (meaningless here), the
 * datatype constructors (which also feed the datatype engine), error
 * handlers and attributes (which call the program's own callbacks, as MPI
 * did). Each replaces the generated weak PMPI_ function of the same name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "drdb_mpi_abi.h"
#include "rpl.h"

#pragma GCC diagnostic ignored "-Wmissing-prototypes"

/* Calls MPI permits before MPI_Init and after MPI_Finalize are not logged:
 * they are answered here. */
static int logging(void)
{
    return rpl_state == RPL_RUNNING;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- life cycle --------------------------------------------------------- */

static void at_exit(void)
{
    if (rpl_state != RPL_RUNNING || drdb_event >= drdb_nevents)
        return;
    rpl_fail(NULL, RPL_EXIT_DIVERGED,
             "replay diverged: the program exits without MPI_Finalize, but "
             "the log has %" PRIu64 " events", (uint64_t)drdb_nevents);
}

static void init_common(void)
{
    rpl_state = RPL_RUNNING;
    atexit(at_exit);
}

int PMPI_Init(int *argc, char ***argv)
{
    int ret = rpl__auto_MPI_Init(argc, argv);
    init_common();
    return ret;
}

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int ret = rpl__auto_MPI_Init_thread(argc, argv, required, provided);
    init_common();
    return ret;
}

int PMPI_Finalize(void)
{
    int ret = rpl__auto_MPI_Finalize();
    rpl_state = RPL_FINALIZED;
    return ret;
}

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    struct rpl_call c;
    const int64_t v[] = {(int32_t)comm, errorcode};
    rpl_begin(&c, LOG_FN_MPI_Abort, v, 2, 0);
    fflush(NULL);
    fprintf(stderr, "drdb-replay: rank %d: MPI_Abort(comm %#x, %d) at event "
            "%" PRIu64 ", as in the recorded run\n", drdb_rank,
            (unsigned)comm, errorcode, c.ev.index);
    _exit(errorcode);
}

int PMPI_Initialized(int *flag)
{
    if (logging())
        return rpl__auto_MPI_Initialized(flag);
    *flag = rpl_state != RPL_PRE_INIT;
    return MPI_SUCCESS;
}

int PMPI_Finalized(int *flag)
{
    if (logging())
        return rpl__auto_MPI_Finalized(flag);
    *flag = rpl_state == RPL_FINALIZED;
    return MPI_SUCCESS;
}

int PMPI_Get_version(int *version, int *subversion)
{
    if (logging())
        return rpl__auto_MPI_Get_version(version, subversion);
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int PMPI_Get_library_version(char *version, int *resultlen)
{
    if (logging())
        return rpl__auto_MPI_Get_library_version(version, resultlen);
    *resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                          "MPICH Version: %s (drdb replay stub)",
                          MPI_VERSION == 4 ? "4.0.2" : "?");
    return MPI_SUCCESS;
}

double PMPI_Wtime(void)
{
    return logging() ? rpl__auto_MPI_Wtime() : now();
}

double PMPI_Wtick(void)
{
    return logging() ? rpl__auto_MPI_Wtick() : 1e-9;
}

/* MPI_Pcontrol's extra arguments cannot be forwarded: the recorder passes
 * it through unlogged. */
int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}

/* ---- local answers ------------------------------------------------------ */

MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((char *)base + disp);
}

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((char *)addr1 - (char *)addr2);
}

/* File handles keep their recorded values; the Fortran integer is an index
 * into this table (as in MPICH). */
static MPI_File files[1024];

MPI_Fint PMPI_File_c2f(MPI_File file)
{
    if (file == MPI_FILE_NULL)
        return 0;
    for (int i = 1; i < 1024; i++)
        if (files[i] == file || !files[i]) {
            files[i] = file;
            return i;
        }
    return 0;
}

MPI_File PMPI_File_f2c(MPI_Fint file)
{
    return file > 0 && file < 1024 ? files[file] : MPI_FILE_NULL;
}

#define FORWARD(ret, name, params, args)                                   \
    ret name params;                                                       \
    ret name params { return P##name args; }
FORWARD(MPI_Aint, MPI_Aint_add, (MPI_Aint base, MPI_Aint disp), (base, disp))
FORWARD(MPI_Aint, MPI_Aint_diff, (MPI_Aint a, MPI_Aint b), (a, b))
FORWARD(MPI_Fint, MPI_File_c2f, (MPI_File file), (file))
FORWARD(MPI_File, MPI_File_f2c, (MPI_Fint file), (file))
FORWARD(int, MPI_Pcontrol, (const int level, ...), (level))

/*
 * Addresses: the log holds the recorded process's addresses, which mean
 * nothing here (ASLR, another machine). The event is replayed (and
 * checked), but the program gets this process's own address.
 */
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    int ret = rpl__auto_MPI_Get_address(location, address);
    *address = (MPI_Aint)location;
    return ret;
}

int PMPI_Address(void *location, MPI_Aint *address)
{
    int ret = rpl__auto_MPI_Address(location, address);
    *address = (MPI_Aint)location;
    return ret;
}

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    int ret = rpl__auto_MPI_Alloc_mem(size, info, baseptr);
    if (ret == MPI_SUCCESS) {
        void *p = malloc(size > 0 ? (size_t)size : 1);
        memcpy(baseptr, &p, sizeof p);
    }
    return ret;
}

int PMPI_Free_mem(void *base)
{
    int ret = rpl__auto_MPI_Free_mem(base);
    if (ret == MPI_SUCCESS)
        free(base);
    return ret;
}

/* The buffer MPI_Buffer_detach hands back: the one attached here. */
static void *attached_buf;
static int attached_size;

int PMPI_Buffer_attach(void *buffer, int size)
{
    int ret = rpl__auto_MPI_Buffer_attach(buffer, size);
    attached_buf = buffer;
    attached_size = size;
    return ret;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    int ret = rpl__auto_MPI_Buffer_detach(buffer_addr, size);
    memcpy(buffer_addr, &attached_buf, sizeof attached_buf);
    *size = attached_size;
    attached_buf = NULL;
    return ret;
}

/* ---- completions: the mirror of recorder/rec-manual.c ------------------ */

/* A completion whose STATUS the recorder left out (a request that delivers
 * no data, whose status MPI did not change but for the count): MPI zeroed
 * the count and the cancel bit. */
static void zero_count(MPI_Status *st)
{
    if (st != MPI_STATUS_IGNORE && st != MPI_STATUSES_IGNORE) {
        st->count_lo = 0;
        st->count_hi_and_cancelled = 0;
    }
}

/* Checks that the request a completion names is the program's. */
static void same_request(struct rpl_call *c, MPI_Request logged,
                         MPI_Request prog)
{
    if (logged != prog) {
        char msg[160];
        snprintf(msg, sizeof msg, "request %#x completes in the log, the "
                 "program's is %#x", (unsigned)logged, (unsigned)prog);
        rpl_fail(c, RPL_EXIT_DIVERGED, "replay diverged: %s", msg);
    }
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    struct rpl_call c;
    struct rpl_field f;
    MPI_Request before = *request, done = MPI_REQUEST_NULL;
    int raw = 0, st = 0;
    rpl_begin(&c, LOG_FN_MPI_Wait, NULL, 0, 0);
    while (rpl_field(&c, &f)) {
        switch (f.kind) {
        case LOG_F_RAW: rpl_out_raw(&c, &f, request, 4); raw = 1; break;
        case LOG_F_REQUEST:
            done = (MPI_Request)rpl_field_handle(&c, &f);
            same_request(&c, done, before);
            break;
        case LOG_F_STATUS: rpl_out_status(&c, &f, status); st = 1; break;
        case LOG_F_DATA: rpl_req_data(&c, done, &f); break;
        default: rpl_out_other(&c, &f); break;
        }
    }
    /* Left out of the log: a NULL request after, an unchanged status. */
    if (!raw)
        *request = MPI_REQUEST_NULL;
    if (!st)
        zero_count(status);
    rpl_req_done(done, 0);
    return rpl_end(&c, MPI_COMM_WORLD);
}

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    struct rpl_call c;
    struct rpl_field f;
    MPI_Request before = *request, done = MPI_REQUEST_NULL;
    int raw = 0, st = 0, completed = 0;
    rpl_begin(&c, LOG_FN_MPI_Test, NULL, 0, 0);
    while (rpl_field(&c, &f)) {
        switch (f.kind) {
        case LOG_F_RAW:
            rpl_out_raw(&c, &f, f.arg == 0 ? (void *)request : (void *)flag,
                        4);
            raw |= f.arg == 0;
            break;
        case LOG_F_REQUEST:
            done = (MPI_Request)rpl_field_handle(&c, &f);
            same_request(&c, done, before);
            completed = 1;
            break;
        case LOG_F_STATUS: rpl_out_status(&c, &f, status); st = 1; break;
        case LOG_F_DATA: rpl_req_data(&c, done, &f); break;
        default: rpl_out_other(&c, &f); break;
        }
    }
    if (!raw)
        *request = MPI_REQUEST_NULL;
    if (completed && !st)
        zero_count(status);
    rpl_req_done(done, 0);
    return rpl_end(&c, MPI_COMM_WORLD);
}

/* The array functions share one record layout: the count, the requests
 * after the call (RAW, arg 1), an extra RAW (arg 255: Testall's flag,
 * Waitany/Testany's index and flag, Waitsome/Testsome's outcount), then per
 * completed request I: REQUEST, STATUS, DATA with elem I. STATUS_AT(I, K)
 * says where the K-th completion's status goes. */
enum { ST_BY_INDEX, ST_SINGLE, ST_BY_ORDER };

static int completions(int fn, int count, MPI_Request reqs[], int *extra,
                       int nextra, MPI_Status *statuses, int st_mode,
                       int *indices)
{
    struct rpl_call c;
    struct rpl_field f;
    const int64_t v[] = {count};
    MPI_Request done = MPI_REQUEST_NULL;
    MPI_Request small[64], *before = small;
    MPI_Status *slot = MPI_STATUS_IGNORE; /* the completion's status */
    int k = -1, raw = 0, st_pending = 0;
    if (count > 64 && !(before = malloc((size_t)count * sizeof *before)))
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory");
    if (count > 0)
        memcpy(before, reqs, (size_t)count * sizeof *before);
    rpl_begin(&c, fn, v, 1, 0);
    while (rpl_field(&c, &f)) {
        if (f.elem >= (uint64_t)(count > 0 ? count : 1))
            rpl_fail(&c, RPL_EXIT_SETUP, "malformed record: element %" PRIu64
                     " of %d requests", f.elem, count);
        switch (f.kind) {
        case LOG_F_RAW:
            if (f.arg == 1) {
                rpl_out_raw(&c, &f, reqs, (int64_t)count * 4);
                raw = 1;
            } else
                rpl_out_raw(&c, &f, extra, nextra * 4);
            break;
        case LOG_F_REQUEST:
            if (done != MPI_REQUEST_NULL)
                rpl_req_done(done, 0);
            if (st_pending)
                zero_count(slot);
            done = (MPI_Request)rpl_field_handle(&c, &f);
            same_request(&c, done, before[f.elem]);
            k++;
            if (indices)
                indices[k] = (int)f.elem;
            slot = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE
                   : st_mode == ST_SINGLE          ? statuses
                   : st_mode == ST_BY_ORDER        ? &statuses[k]
                                                   : &statuses[f.elem];
            st_pending = 1;
            break;
        case LOG_F_STATUS:
            rpl_out_status(&c, &f, slot);
            st_pending = 0;
            break;
        case LOG_F_DATA: rpl_req_data(&c, done, &f); break;
        default: rpl_out_other(&c, &f); break;
        }
    }
    if (done != MPI_REQUEST_NULL)
        rpl_req_done(done, 0);
    if (st_pending)
        zero_count(slot);
    /* Left out of the log: every request is MPI_REQUEST_NULL after. */
    if (!raw)
        for (int i = 0; i < count; i++)
            reqs[i] = MPI_REQUEST_NULL;
    if (before != small)
        free(before);
    return rpl_end(&c, MPI_COMM_WORLD);
}

int PMPI_Waitall(int count, MPI_Request array_of_requests[],
                 MPI_Status array_of_statuses[])
{
    return completions(LOG_FN_MPI_Waitall, count, array_of_requests, NULL, 0,
                       array_of_statuses, ST_BY_INDEX, NULL);
}

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status array_of_statuses[])
{
    return completions(LOG_FN_MPI_Testall, count, array_of_requests, flag, 1,
                       array_of_statuses, ST_BY_INDEX, NULL);
}

static int any(int fn, int count, MPI_Request reqs[], int *indx, int *flag,
               MPI_Status *status)
{
    int extra[2] = {MPI_UNDEFINED, 1};
    int ret = completions(fn, count, reqs, extra, 2, status, ST_SINGLE, NULL);
    *indx = extra[0];
    if (flag)
        *flag = extra[1];
    return ret;
}

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *indx,
                 MPI_Status *status)
{
    return any(LOG_FN_MPI_Waitany, count, array_of_requests, indx, NULL,
               status);
}

int PMPI_Testany(int count, MPI_Request array_of_requests[], int *indx,
                 int *flag, MPI_Status *status)
{
    return any(LOG_FN_MPI_Testany, count, array_of_requests, indx, flag,
               status);
}

/* The recorder logs completions in request order: indices come out
 * increasing, as MPICH reports them. */
int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return completions(LOG_FN_MPI_Waitsome, incount, array_of_requests,
                       outcount, 1, array_of_statuses, ST_BY_ORDER,
                       array_of_indices);
}

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return completions(LOG_FN_MPI_Testsome, incount, array_of_requests,
                       outcount, 1, array_of_statuses, ST_BY_ORDER,
                       array_of_indices);
}

int PMPI_Request_free(MPI_Request *request)
{
    struct rpl_call c;
    struct rpl_field f;
    MPI_Request before = *request;
    rpl_begin(&c, LOG_FN_MPI_Request_free, NULL, 0, 0);
    while (rpl_field(&c, &f)) {
        if (f.kind == LOG_F_REQUEST)
            same_request(&c, (MPI_Request)rpl_field_handle(&c, &f), before);
        else
            rpl_out_raw(&c, &f, request, 4);
    }
    rpl_req_done(before, 1);
    return rpl_end(&c, MPI_COMM_WORLD);
}

/* ---- datatypes: the engine learns each type the program builds --------- */

/* N values of an int / MPI_Aint / MPI_Count array as int64_t (the small
 * buffer or malloc'd: release with i64_free). */
struct i64s {
    int64_t small[32];
    int64_t *v;
};

static int64_t *i64(struct i64s *s, const void *arr, size_t esize, int64_t n)
{
    s->v = n <= 32 ? s->small : malloc((size_t)n * sizeof(int64_t));
    if (!s->v)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory");
    for (int64_t i = 0; i < n; i++)
        s->v[i] = esize == 8 ? ((const int64_t *)arr)[i]
                             : ((const int *)arr)[i];
    return s->v;
}

static void i64_free(struct i64s *s)
{
    if (s->v != s->small)
        free(s->v);
}

/* Registers the type a constructor returned, or stops the replay. */
static int learned(int ret, int rc, MPI_Datatype t)
{
    if (ret == MPI_SUCCESS && rc < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP,
                 "cannot rebuild datatype %#x (%s)", (unsigned)t,
                 strerror(-rc));
    return ret;
}

#define TYPE_SIMPLE(name, params, args, engine_call)                       \
    int P##name params                                                     \
    {                                                                      \
        int ret = rpl__auto_##name args;                                   \
        if (ret != MPI_SUCCESS)                                            \
            return ret;                                                    \
        return learned(ret, engine_call, *newtype);                        \
    }

TYPE_SIMPLE(MPI_Type_contiguous,
            (int count, MPI_Datatype oldtype, MPI_Datatype *newtype),
            (count, oldtype, newtype),
            rpl_type_contiguous(count, oldtype, *newtype))
TYPE_SIMPLE(MPI_Type_contiguous_c,
            (MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype),
            (count, oldtype, newtype),
            rpl_type_contiguous(count, oldtype, *newtype))
TYPE_SIMPLE(MPI_Type_vector,
            (int count, int blocklength, int stride, MPI_Datatype oldtype,
             MPI_Datatype *newtype),
            (count, blocklength, stride, oldtype, newtype),
            rpl_type_vector(count, blocklength, stride, oldtype, *newtype))
TYPE_SIMPLE(MPI_Type_vector_c,
            (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
             MPI_Datatype oldtype, MPI_Datatype *newtype),
            (count, blocklength, stride, oldtype, newtype),
            rpl_type_vector(count, blocklength, stride, oldtype, *newtype))
TYPE_SIMPLE(MPI_Type_create_hvector,
            (int count, int blocklength, MPI_Aint stride,
             MPI_Datatype oldtype, MPI_Datatype *newtype),
            (count, blocklength, stride, oldtype, newtype),
            rpl_type_hvector(count, blocklength, stride, oldtype, *newtype))
TYPE_SIMPLE(MPI_Type_hvector,
            (int count, int blocklength, MPI_Aint stride,
             MPI_Datatype oldtype, MPI_Datatype *newtype),
            (count, blocklength, stride, oldtype, newtype),
            rpl_type_hvector(count, blocklength, stride, oldtype, *newtype))
TYPE_SIMPLE(MPI_Type_create_hvector_c,
            (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
             MPI_Datatype oldtype, MPI_Datatype *newtype),
            (count, blocklength, stride, oldtype, newtype),
            rpl_type_hvector(count, blocklength, stride, oldtype, *newtype))
TYPE_SIMPLE(MPI_Type_create_resized,
            (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
             MPI_Datatype *newtype),
            (oldtype, lb, extent, newtype),
            rpl_type_resized(oldtype, lb, extent, *newtype))
TYPE_SIMPLE(MPI_Type_create_resized_c,
            (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
             MPI_Datatype *newtype),
            (oldtype, lb, extent, newtype),
            rpl_type_resized(oldtype, lb, extent, *newtype))
TYPE_SIMPLE(MPI_Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype),
            (oldtype, newtype), rpl_type_dup(oldtype, *newtype))

/* f90 and match_size types: contiguous bytes of the size MPI chose. */
static int64_t f90_real_size(int p, int r)
{
    if ((p == MPI_UNDEFINED || p <= 6) && (r == MPI_UNDEFINED || r <= 37))
        return 4;
    if ((p == MPI_UNDEFINED || p <= 15) && (r == MPI_UNDEFINED || r <= 307))
        return 8;
    return 16;
}

static int64_t f90_int_size(int r)
{
    return r <= 2 ? 1 : r <= 4 ? 2 : r <= 9 ? 4 : r <= 18 ? 8 : 16;
}

TYPE_SIMPLE(MPI_Type_create_f90_integer, (int r, MPI_Datatype *newtype),
            (r, newtype), rpl_type_bytes(f90_int_size(r), *newtype))
TYPE_SIMPLE(MPI_Type_create_f90_real, (int p, int r, MPI_Datatype *newtype),
            (p, r, newtype), rpl_type_bytes(f90_real_size(p, r), *newtype))
TYPE_SIMPLE(MPI_Type_create_f90_complex,
            (int p, int r, MPI_Datatype *newtype), (p, r, newtype),
            rpl_type_bytes(2 * f90_real_size(p, r), *newtype))

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    int ret = rpl__auto_MPI_Type_match_size(typeclass, size, datatype);
    struct rpl_type_info ti;
    if (ret == MPI_SUCCESS && rpl_type_get(*datatype, &ti) < 0)
        learned(ret, rpl_type_bytes(size, *datatype), *datatype);
    return ret;
}

/* Constructors with arrays: ESIZE of each array given. */
#define TYPE_INDEXED(name, cnt_t, bl_t, dp_t, engine)                      \
    int P##name(cnt_t count, bl_t blocklens[], dp_t displs[],              \
                MPI_Datatype oldtype, MPI_Datatype *newtype)               \
    {                                                                      \
        int ret = rpl__auto_##name(count, blocklens, displs, oldtype,      \
                                   newtype);                               \
        if (ret != MPI_SUCCESS)                                            \
            return ret;                                                    \
        struct i64s b, d;                                                  \
        int rc = engine(count, i64(&b, blocklens, sizeof *blocklens, count), \
                        i64(&d, displs, sizeof *displs, count), oldtype,   \
                        *newtype);                                         \
        i64_free(&b);                                                      \
        i64_free(&d);                                                      \
        return learned(ret, rc, *newtype);                                 \
    }

TYPE_INDEXED(MPI_Type_indexed, int, const int, const int, rpl_type_indexed)
TYPE_INDEXED(MPI_Type_indexed_c, MPI_Count, const MPI_Count, const MPI_Count,
             rpl_type_indexed)
TYPE_INDEXED(MPI_Type_create_hindexed, int, const int, const MPI_Aint,
             rpl_type_hindexed)
TYPE_INDEXED(MPI_Type_hindexed, int, int, MPI_Aint, rpl_type_hindexed)
TYPE_INDEXED(MPI_Type_create_hindexed_c, MPI_Count, const MPI_Count,
             const MPI_Count, rpl_type_hindexed)

#define TYPE_BLOCK(name, cnt_t, dp_t, engine)                              \
    int P##name(cnt_t count, cnt_t blocklen, dp_t displs[],                \
                MPI_Datatype oldtype, MPI_Datatype *newtype)               \
    {                                                                      \
        int ret = rpl__auto_##name(count, blocklen, displs, oldtype,       \
                                   newtype);                               \
        if (ret != MPI_SUCCESS)                                            \
            return ret;                                                    \
        struct i64s d;                                                     \
        int rc = engine(count, blocklen,                                   \
                        i64(&d, displs, sizeof *displs, count), oldtype,   \
                        *newtype);                                         \
        i64_free(&d);                                                      \
        return learned(ret, rc, *newtype);                                 \
    }

TYPE_BLOCK(MPI_Type_create_indexed_block, int, const int,
           rpl_type_indexed_block)
TYPE_BLOCK(MPI_Type_create_indexed_block_c, MPI_Count, const MPI_Count,
           rpl_type_indexed_block)
TYPE_BLOCK(MPI_Type_create_hindexed_block, int, const MPI_Aint,
           rpl_type_hindexed_block)
TYPE_BLOCK(MPI_Type_create_hindexed_block_c, MPI_Count, const MPI_Count,
           rpl_type_hindexed_block)

#define TYPE_STRUCT(name, cnt_t, bl_t, dp_t, ty_t)                         \
    int P##name(cnt_t count, bl_t blocklens[], dp_t displs[],              \
                ty_t types[], MPI_Datatype *newtype)                       \
    {                                                                      \
        int ret = rpl__auto_##name(count, blocklens, displs, types,        \
                                   newtype);                               \
        if (ret != MPI_SUCCESS)                                            \
            return ret;                                                    \
        struct i64s b, d;                                                  \
        int rc = rpl_type_struct(count,                                    \
                                 i64(&b, blocklens, sizeof *blocklens,     \
                                     count),                               \
                                 i64(&d, displs, sizeof *displs, count),   \
                                 types, *newtype);                         \
        i64_free(&b);                                                      \
        i64_free(&d);                                                      \
        return learned(ret, rc, *newtype);                                 \
    }

TYPE_STRUCT(MPI_Type_create_struct, int, const int, const MPI_Aint,
            const MPI_Datatype)
TYPE_STRUCT(MPI_Type_struct, int, int, MPI_Aint, MPI_Datatype)
TYPE_STRUCT(MPI_Type_create_struct_c, MPI_Count, const MPI_Count,
            const MPI_Count, const MPI_Datatype)

#define TYPE_SUBARRAY(name, sz_t)                                          \
    int P##name(int ndims, sz_t sizes[], sz_t subsizes[], sz_t starts[],   \
                int order, MPI_Datatype oldtype, MPI_Datatype *newtype)    \
    {                                                                      \
        int ret = rpl__auto_##name(ndims, sizes, subsizes, starts, order,  \
                                   oldtype, newtype);                      \
        if (ret != MPI_SUCCESS)                                            \
            return ret;                                                    \
        struct i64s a, b, s;                                               \
        int rc = rpl_type_subarray(ndims,                                  \
                                   i64(&a, sizes, sizeof *sizes, ndims),   \
                                   i64(&b, subsizes, sizeof *subsizes,     \
                                       ndims),                             \
                                   i64(&s, starts, sizeof *starts, ndims), \
                                   order, oldtype, *newtype);              \
        i64_free(&a);                                                      \
        i64_free(&b);                                                      \
        i64_free(&s);                                                      \
        return learned(ret, rc, *newtype);                                 \
    }

TYPE_SUBARRAY(MPI_Type_create_subarray, const int)
TYPE_SUBARRAY(MPI_Type_create_subarray_c, const MPI_Count)

#define TYPE_DARRAY(name, gs_t)                                            \
    int P##name(int size, int rank, int ndims, gs_t gsizes[],              \
                const int distribs[], const int dargs[],                   \
                const int psizes[], int order, MPI_Datatype oldtype,       \
                MPI_Datatype *newtype)                                     \
    {                                                                      \
        int ret = rpl__auto_##name(size, rank, ndims, gsizes, distribs,    \
                                   dargs, psizes, order, oldtype,          \
                                   newtype);                               \
        if (ret != MPI_SUCCESS)                                            \
            return ret;                                                    \
        struct i64s g;                                                     \
        int rc = rpl_type_darray(size, rank, ndims,                        \
                                 i64(&g, gsizes, sizeof *gsizes, ndims),   \
                                 distribs, dargs, psizes, order, oldtype,  \
                                 *newtype);                                \
        i64_free(&g);                                                      \
        return learned(ret, rc, *newtype);                                 \
    }

TYPE_DARRAY(MPI_Type_create_darray, const int)
TYPE_DARRAY(MPI_Type_create_darray_c, const MPI_Count)

int PMPI_Type_free(MPI_Datatype *datatype)
{
    MPI_Datatype old = *datatype;
    int ret = rpl__auto_MPI_Type_free(datatype);
    if (ret == MPI_SUCCESS)
        rpl_type_free(old);
    return ret;
}

/* ---- error handlers ----------------------------------------------------- */

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
                                MPI_Errhandler *errhandler)
{
    int ret = rpl__auto_MPI_Comm_create_errhandler(fn, errhandler);
    if (ret == MPI_SUCCESS)
        rpl_errh_create(*errhandler, (void (*)(void))fn);
    return ret;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    int ret = rpl__auto_MPI_Comm_set_errhandler(comm, errhandler);
    if (ret == MPI_SUCCESS)
        rpl_errh_set(comm, errhandler);
    return ret;
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    /* The logged return code is the handler's doing: run the handler. */
    struct rpl_call c;
    const int64_t v[] = {(int32_t)comm, errorcode};
    rpl_begin(&c, LOG_FN_MPI_Comm_call_errhandler, v, 2, 0);
    int ret = c.ret;
    c.ret = errorcode;
    rpl_end(&c, comm);
    return ret;
}

/* ---- attributes -----------------------------------------------------------
 * Attribute values are the program's (pointers of this process), so they
 * are kept here rather than taken from the log; MPI called the copy and
 * delete callbacks inside Comm_dup, Comm_free, set_attr and delete_attr,
 * and so does the replay. Predefined attributes (MPI_TAG_UB, ...) are the
 * logged values.
 */
struct keyval {
    int keyval;
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra;
};
struct attr {
    int obj; /* a communicator (0: free slot) */
    int keyval;
    void *val;
};
static struct keyval keyvals[256];
static struct attr attrs[1024];
/* Predefined attribute values: MPI returns their address. int-valued ones
 * read the first 4 bytes, MPI_WIN_SIZE all 8 (little-endian). */
static int64_t predefined_vals[16];

static struct keyval *keyval_find(int k)
{
    for (size_t i = 0; i < sizeof keyvals / sizeof keyvals[0]; i++)
        if (keyvals[i].keyval == k)
            return &keyvals[i];
    return NULL;
}

static struct attr *attr_find(int obj, int k)
{
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        if (attrs[i].obj == obj && attrs[i].keyval == k)
            return &attrs[i];
    return NULL;
}

static void attr_delete(struct attr *a)
{
    struct keyval *kv = keyval_find(a->keyval);
    if (kv && kv->del && kv->del != MPI_COMM_NULL_DELETE_FN)
        kv->del((MPI_Comm)a->obj, a->keyval, a->val, kv->extra);
    a->obj = 0;
}

static void attr_set(int obj, int k, void *val)
{
    struct attr *a = attr_find(obj, k);
    if (a)
        attr_delete(a);
    a = attr_find(0, 0);
    if (!a)
        rpl_fail(NULL, RPL_EXIT_SETUP, "too many attributes for the replay");
    a->obj = obj;
    a->keyval = k;
    a->val = val;
}

static int keyval_new(int ret, int *keyval, MPI_Comm_copy_attr_function *copy,
                      MPI_Comm_delete_attr_function *del, void *extra)
{
    struct keyval *kv = keyval_find(*keyval);
    if (ret != MPI_SUCCESS)
        return ret;
    if (!kv)
        kv = keyval_find(0);
    if (!kv)
        rpl_fail(NULL, RPL_EXIT_SETUP, "too many keyvals for the replay");
    kv->keyval = *keyval;
    kv->copy = copy;
    kv->del = del;
    kv->extra = extra;
    return ret;
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
                            MPI_Comm_delete_attr_function *del, int *keyval,
                            void *extra_state)
{
    int ret = rpl__auto_MPI_Comm_create_keyval(copy, del, keyval, extra_state);
    return keyval_new(ret, keyval, copy, del, extra_state);
}

int PMPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del,
                       int *keyval, void *extra_state)
{
    int ret = rpl__auto_MPI_Keyval_create(copy, del, keyval, extra_state);
    return keyval_new(ret, keyval, copy, del, extra_state);
}

int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *val)
{
    int ret = rpl__auto_MPI_Comm_set_attr(comm, keyval, val);
    if (ret == MPI_SUCCESS)
        attr_set(comm, keyval, val);
    return ret;
}

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *val)
{
    int ret = rpl__auto_MPI_Attr_put(comm, keyval, val);
    if (ret == MPI_SUCCESS)
        attr_set(comm, keyval, val);
    return ret;
}

static int delete_attr(int ret, MPI_Comm comm, int keyval)
{
    struct attr *a = attr_find(comm, keyval);
    if (ret == MPI_SUCCESS && a)
        attr_delete(a);
    return ret;
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    return delete_attr(rpl__auto_MPI_Comm_delete_attr(comm, keyval), comm,
                       keyval);
}

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return delete_attr(rpl__auto_MPI_Attr_delete(comm, keyval), comm, keyval);
}

/* Replays a get_attr event: the flag and, for a predefined attribute, the
 * logged value (elem 1); a program's own attribute comes from here. */
static int get_attr(int fn, MPI_Comm obj, int keyval, void *out, int *flag)
{
    struct rpl_call c;
    struct rpl_field f;
    const int64_t v[] = {(int32_t)obj, keyval};
    int logged_flag = 0, have_val = 0;
    int64_t val = 0, ptr = 0;
    rpl_begin(&c, fn, v, 2, 0);
    while (rpl_field(&c, &f)) {
        if (f.kind != LOG_F_RAW)
            rpl_out_other(&c, &f);
        else if (f.arg == 3 && f.len == 4)
            logged_flag = (int)rpl_get_i32(f.data);
        else if (f.arg == 2 && f.elem == 1 && f.len <= 8) {
            memcpy(&val, f.data, f.len);
            have_val = 1;
        } else if (f.arg == 2 && f.elem == 0 && f.len == 8) {
            memcpy(&ptr, f.data, 8);
        }
    }
    if (DRDB_MPI_HANDLE_BUILTIN(keyval)) { /* MPICH: a builtin keyval */
        *flag = logged_flag;
        void *base;
        if (logged_flag && !have_val) {
            /* MPI_WIN_BASE: the value is the address itself, of the
             * memory here (rpl-rma.c) rather than the recorded one. */
            if (fn == LOG_FN_MPI_Win_get_attr &&
                rpl_win_base((MPI_Win)obj, &base))
                ptr = (int64_t)(intptr_t)base;
            memcpy(out, &ptr, sizeof ptr);
        } else if (logged_flag) {
            int64_t *slot = &predefined_vals[keyval & 15];
            *slot = val;
            memcpy(out, &slot, sizeof slot);
        }
    } else {
        struct attr *a = attr_find(obj, keyval);
        *flag = a != NULL;
        if (a)
            memcpy(out, &a->val, sizeof a->val);
        if (*flag != logged_flag)
            rpl_fail(&c, RPL_EXIT_DIVERGED, "replay diverged: attribute "
                     "%#x is %s here but was %s in the recorded run",
                     (unsigned)keyval, *flag ? "set" : "not set",
                     logged_flag ? "set" : "not set");
    }
    return rpl_end(&c, obj);
}

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *val, int *flag)
{
    return get_attr(LOG_FN_MPI_Comm_get_attr, comm, keyval, val, flag);
}

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *val, int *flag)
{
    return get_attr(LOG_FN_MPI_Attr_get, comm, keyval, val, flag);
}

/* MPI_Comm_dup and MPI_Comm_idup copy the attributes through the copy
 * callbacks. */
static void attrs_copy(MPI_Comm from, MPI_Comm to)
{
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        struct attr a = attrs[i];
        if (a.obj != from || !from)
            continue;
        struct keyval *kv = keyval_find(a.keyval);
        if (!kv || !kv->copy || kv->copy == MPI_COMM_NULL_COPY_FN)
            continue;
        void *out = NULL;
        int flag = 0;
        if (kv->copy(from, a.keyval, kv->extra, a.val, &out, &flag) ==
                MPI_SUCCESS && flag)
            attr_set(to, a.keyval, out);
    }
}

static void attrs_drop(MPI_Comm comm)
{
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        if (attrs[i].obj == comm && comm)
            attr_delete(&attrs[i]);
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    int ret = rpl__auto_MPI_Comm_dup(comm, newcomm);
    if (ret == MPI_SUCCESS)
        attrs_copy(comm, *newcomm);
    return ret;
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    int ret = rpl__auto_MPI_Comm_idup(comm, newcomm, request);
    if (ret == MPI_SUCCESS)
        attrs_copy(comm, *newcomm);
    return ret;
}

int PMPI_Comm_free(MPI_Comm *comm)
{
    MPI_Comm old = *comm;
    int ret = rpl__auto_MPI_Comm_free(comm);
    if (ret == MPI_SUCCESS)
        attrs_drop(old);
    return ret;
}

/* MPI_COMM_DUP_FN and friends (mpi.h: MPI_DUP_FN is MPIR_Dup_fn). */
int MPIR_Dup_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out,
                int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    memcpy(out, &in, sizeof in);
    *flag = 1;
    return MPI_SUCCESS;
}

/* ---- collectives the generator cannot place ------------------------------
 * Reduce_scatter writes this rank's share, recvcounts[rank] elements (the
 * stub does not know its rank in COMM: the logged data is the bound);
 * Alltoallw and its relatives have a type per peer. Their records hold the
 * request (RAW) of a nonblocking or persistent one and, when MPI wrote the
 * buffer, one DATA field (log-format.md).
 */
struct coll_out {
    void *buf;
    MPI_Datatype type;                  /* Reduce_scatter */
    const void *counts, *displs;        /* Alltoallw: per peer */
    size_t csize, dsize;
    const MPI_Datatype *types;
    int64_t peers;
};

static int coll(int fn, const int64_t *v, int nv, const struct coll_out *o,
                MPI_Request *request, int persistent, MPI_Comm comm)
{
    struct rpl_call c;
    struct rpl_field f;
    rpl_begin(&c, fn, v, nv, 0);
    while (rpl_field(&c, &f)) {
        if (f.kind == LOG_F_RAW && request)
            rpl_out_raw(&c, &f, request, 4);
        else if (f.kind == LOG_F_DATA && o->types)
            rpl_out_wdata(&c, &f, o->buf, o->counts, o->csize, o->displs,
                          o->dsize, o->types, o->peers);
        else if (f.kind == LOG_F_DATA)
            rpl_out_data(&c, &f, o->buf, RPL_MANY, o->type);
        else
            rpl_out_other(&c, &f);
    }
    if (request && c.ret == MPI_SUCCESS) {
        if (o->types)
            rpl_req_register_w(*request, fn, o->buf, o->counts, o->csize,
                               o->displs, o->dsize, o->types, o->peers,
                               persistent);
        else
            rpl_req_register(*request, fn, o->buf, RPL_MANY, o->type, comm,
                             persistent);
    }
    return rpl_end(&c, comm);
}

#define RS_ARGS(cnt_t)                                                     \
    const void *sendbuf, void *recvbuf, const cnt_t recvcounts[],          \
        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm
#define RS_VALS (int32_t)datatype, (int32_t)op, (int32_t)comm
#define RS_OUT {recvbuf, datatype, NULL, NULL, 0, 0, NULL, 0}

int PMPI_Reduce_scatter(RS_ARGS(int))
{
    const int64_t v[] = {RS_VALS};
    const struct coll_out o = RS_OUT;
    (void)sendbuf, (void)recvcounts;
    return coll(LOG_FN_MPI_Reduce_scatter, v, 3, &o, NULL, 0, comm);
}
int PMPI_Reduce_scatter_c(RS_ARGS(MPI_Count))
{
    const int64_t v[] = {RS_VALS};
    const struct coll_out o = RS_OUT;
    (void)sendbuf, (void)recvcounts;
    return coll(LOG_FN_MPI_Reduce_scatter_c, v, 3, &o, NULL, 0, comm);
}
int PMPI_Ireduce_scatter(RS_ARGS(int), MPI_Request *request)
{
    const int64_t v[] = {RS_VALS};
    const struct coll_out o = RS_OUT;
    (void)sendbuf, (void)recvcounts;
    return coll(LOG_FN_MPI_Ireduce_scatter, v, 3, &o, request, 0, comm);
}
int PMPI_Ireduce_scatter_c(RS_ARGS(MPI_Count), MPI_Request *request)
{
    const int64_t v[] = {RS_VALS};
    const struct coll_out o = RS_OUT;
    (void)sendbuf, (void)recvcounts;
    return coll(LOG_FN_MPI_Ireduce_scatter_c, v, 3, &o, request, 0, comm);
}
int PMPI_Reduce_scatter_init(RS_ARGS(int), MPI_Info info,
                             MPI_Request *request)
{
    const int64_t v[] = {RS_VALS, (int32_t)info};
    const struct coll_out o = RS_OUT;
    (void)sendbuf, (void)recvcounts;
    return coll(LOG_FN_MPI_Reduce_scatter_init, v, 4, &o, request, 1, comm);
}
int PMPI_Reduce_scatter_init_c(RS_ARGS(MPI_Count), MPI_Info info,
                               MPI_Request *request)
{
    const int64_t v[] = {RS_VALS, (int32_t)info};
    const struct coll_out o = RS_OUT;
    (void)sendbuf, (void)recvcounts;
    return coll(LOG_FN_MPI_Reduce_scatter_init_c, v, 4, &o, request, 1,
                comm);
}

#define W_ARGS(cnt_t, dsp_t)                                               \
    const void *sendbuf, const cnt_t sendcounts[], const dsp_t sdispls[],  \
        const MPI_Datatype sendtypes[], void *recvbuf,                     \
        const cnt_t recvcounts[], const dsp_t rdispls[],                   \
        const MPI_Datatype recvtypes[], MPI_Comm comm
#define W_OUT(peers)                                                       \
    {recvbuf, MPI_DATATYPE_NULL, recvcounts, rdispls, sizeof *recvcounts,  \
     sizeof *rdispls, recvtypes, peers};                                   \
    (void)sendbuf, (void)sendcounts, (void)sdispls, (void)sendtypes

#define W_FUNCS(name, cnt_t, dsp_t, peers)                                 \
    int P##name(W_ARGS(cnt_t, dsp_t))                                      \
    {                                                                      \
        const int64_t v[] = {(int32_t)comm};                               \
        const struct coll_out o = W_OUT(peers);                            \
        return coll(LOG_FN_##name, v, 1, &o, NULL, 0, comm);               \
    }

#define W_IFUNCS(name, cnt_t, dsp_t, peers)                                \
    int P##name(W_ARGS(cnt_t, dsp_t), MPI_Request *request)                \
    {                                                                      \
        const int64_t v[] = {(int32_t)comm};                               \
        const struct coll_out o = W_OUT(peers);                            \
        return coll(LOG_FN_##name, v, 1, &o, request, 0, comm);            \
    }

#define W_INITFUNCS(name, cnt_t, dsp_t, peers)                             \
    int P##name(W_ARGS(cnt_t, dsp_t), MPI_Info info, MPI_Request *request) \
    {                                                                      \
        const int64_t v[] = {(int32_t)comm, (int32_t)info};                \
        const struct coll_out o = W_OUT(peers);                            \
        return coll(LOG_FN_##name, v, 2, &o, request, 1, comm);            \
    }

W_FUNCS(MPI_Alltoallw, int, int, rpl_comm_peers(comm))
W_FUNCS(MPI_Alltoallw_c, MPI_Count, MPI_Aint, rpl_comm_peers(comm))
W_IFUNCS(MPI_Ialltoallw, int, int, rpl_comm_peers(comm))
W_IFUNCS(MPI_Ialltoallw_c, MPI_Count, MPI_Aint, rpl_comm_peers(comm))
W_INITFUNCS(MPI_Alltoallw_init, int, int, rpl_comm_peers(comm))
W_INITFUNCS(MPI_Alltoallw_init_c, MPI_Count, MPI_Aint, rpl_comm_peers(comm))
W_FUNCS(MPI_Neighbor_alltoallw, int, MPI_Aint, RPL_MANY_PEERS)
W_FUNCS(MPI_Neighbor_alltoallw_c, MPI_Count, MPI_Aint, RPL_MANY_PEERS)
W_IFUNCS(MPI_Ineighbor_alltoallw, int, MPI_Aint, RPL_MANY_PEERS)
W_IFUNCS(MPI_Ineighbor_alltoallw_c, MPI_Count, MPI_Aint, RPL_MANY_PEERS)
W_INITFUNCS(MPI_Neighbor_alltoallw_init, int, MPI_Aint, RPL_MANY_PEERS)
W_INITFUNCS(MPI_Neighbor_alltoallw_init_c, MPI_Count, MPI_Aint,
            RPL_MANY_PEERS)

/* Window attributes: MPI_WIN_BASE is the window's memory in this process
 * (a dynamic window's is the logged MPI_BOTTOM), the other predefined ones
 * are logged values. */
int PMPI_Win_get_attr(MPI_Win win, int keyval, void *val, int *flag)
{
    return get_attr(LOG_FN_MPI_Win_get_attr, win, keyval, val, flag);
}

/* The program's own window attributes: kept in the communicators' table
 * (MPICH never gives a window and a communicator the same handle value, nor
 * two keyvals of different kinds the same value); MPI_Win_free runs the
 * delete callbacks (rpl_win_attrs_drop), as MPI did. */
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy,
                           MPI_Win_delete_attr_function *del, int *keyval,
                           void *extra_state)
{
    int ret = rpl__auto_MPI_Win_create_keyval(copy, del, keyval, extra_state);
    return keyval_new(ret, keyval,
                      (MPI_Comm_copy_attr_function *)(void (*)(void))copy,
                      (MPI_Comm_delete_attr_function *)(void (*)(void))del,
                      extra_state);
}

int PMPI_Win_set_attr(MPI_Win win, int keyval, void *val)
{
    int ret = rpl__auto_MPI_Win_set_attr(win, keyval, val);
    if (ret == MPI_SUCCESS)
        attr_set(win, keyval, val);
    return ret;
}

int PMPI_Win_delete_attr(MPI_Win win, int keyval)
{
    return delete_attr(rpl__auto_MPI_Win_delete_attr(win, keyval), win,
                       keyval);
}

void rpl_win_attrs_drop(MPI_Win win)
{
    attrs_drop(win);
}
