/* The MPI function table: ids unique, sorted and permanent; lookups work. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "log.h"

/*
 * The permanent assignment of ids 1..PINNED_MAX_ID, pinned by a 64-bit
 * FNV-1a hash of the lines "ID NAME\n" in id order. Appending functions to
 * the spec leaves it unchanged; renumbering, renaming or removing any pinned
 * function changes it. When (and only when) new functions are appended,
 * raise PINNED_MAX_ID/PINNED_HASH together in a reviewed commit.
 */
#define PINNED_MAX_ID 634
#define PINNED_HASH UINT64_C(0x5674703b61bedac8)

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

TEST(ids_unique_and_increasing)
{
    REQUIRE(log_funcs_count == DRDB_MPI_FUNC_COUNT);
    for (int i = 1; i < log_funcs_count; i++)
        CHECK_MSG(log_funcs[i].id > log_funcs[i - 1].id, "%s after %s",
                  log_funcs[i].name, log_funcs[i - 1].name);
    CHECK(log_funcs[0].id >= 1);
}

TEST(names_unique)
{
    for (int i = 0; i < log_funcs_count; i++)
        CHECK_MSG(log_func_by_name(log_funcs[i].name) == &log_funcs[i], "%s",
                  log_funcs[i].name);
}

TEST(pinned_ids_never_change)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    char line[128];
    int n = 0;

    for (int i = 0; i < log_funcs_count && log_funcs[i].id <= PINNED_MAX_ID;
         i++, n++) {
        snprintf(line, sizeof line, "%d %s\n", log_funcs[i].id,
                 log_funcs[i].name);
        h = fnv1a(h, line);
    }
    CHECK_INT_EQ(n, PINNED_MAX_ID);
    CHECK_MSG(h == PINNED_HASH,
              "ids 1..%d changed (hash %#llx): ids are permanent, append new "
              "functions at the end of log/mpi-functions.spec",
              PINNED_MAX_ID, (unsigned long long)h);
}

TEST(well_known_ids)
{
    /* A few ids spelled out, so a reader sees what the pin protects. */
    CHECK_INT_EQ(LOG_FN_MPI_Send, 272);
    CHECK_INT_EQ(LOG_FN_MPI_Recv, 268);
    CHECK_INT_EQ(LOG_FN_MPI_Wtime, 348);
    CHECK_INT_EQ(LOG_FN_MPI_Allreduce, 30);
}

TEST(lookup_by_id_and_name)
{
    const struct log_func_desc *fn = log_func_by_id(LOG_FN_MPI_Send);
    REQUIRE(fn != NULL);
    CHECK_STR_EQ(fn->name, "MPI_Send");
    CHECK(log_func_by_name("PMPI_Send") == fn);
    CHECK(log_func_by_name("mpi_send") == fn);
    CHECK(log_func_by_name("MPI_Sendx") == NULL);
    CHECK(log_func_by_id(0) == NULL);
    CHECK(log_func_by_id(DRDB_MPI_FUNC_MAX_ID + 1) == NULL);
    CHECK_STR_EQ(log_func_name(-5), "?");
    CHECK_STR_EQ(log_func_name(LOG_FN_MPI_Wtime), "MPI_Wtime");
}

TEST(argument_annotations)
{
    const struct log_func_desc *fn = log_func_by_name("MPI_Recv");
    REQUIRE(fn && fn->nargs == 7);
    CHECK_STR_EQ(fn->args[0].name, "buf");
    CHECK_INT_EQ(fn->args[0].dir, LOG_DIR_OUT);
    CHECK_STR_EQ(fn->args[0].length, "count x datatype");
    CHECK_INT_EQ(fn->args[1].dir, LOG_DIR_VALUE);
    CHECK_INT_EQ(fn->args[6].dir, LOG_DIR_OUT); /* status */

    fn = log_func_by_name("MPI_Irecv");
    REQUIRE(fn);
    CHECK_INT_EQ(fn->args[0].dir, LOG_DIR_ASYNC);

    fn = log_func_by_name("MPI_Wait");
    REQUIRE(fn && fn->nargs == 2);
    CHECK_INT_EQ(fn->args[0].dir, LOG_DIR_INOUT);
    CHECK_INT_EQ(fn->cls, LOG_CLASS_MANUAL);
}

TEST(every_pointer_has_a_direction)
{
    for (int i = 0; i < log_funcs_count; i++)
        for (int j = 0; j < log_funcs[i].nargs; j++) {
            const struct log_arg_desc *a = &log_funcs[i].args[j];
            int pointer = strchr(a->ctype, '*') || strchr(a->ctype, '[');
            CHECK_MSG(pointer == (a->dir != LOG_DIR_VALUE), "%s: %s",
                      log_funcs[i].name, a->name);
        }
}

/* What the spec says a call is, as the role table has it: the facts the
 * event index, the printer and the stub rely on instead of names. */
TEST(roles_and_slots)
{
    const struct log_func_desc *d = log_func_by_id(LOG_FN_MPI_Send);
    REQUIRE(d);
    CHECK_INT_EQ(d->kind, LOG_K_SEND);
    CHECK_INT_EQ(d->roles, 0);
    CHECK_INT_EQ(d->slot[LOG_S_DEST], 3);
    CHECK_INT_EQ(d->slot[LOG_S_DEST], LOG_A_MPI_Send_dest);
    CHECK_INT_EQ(d->slot[LOG_S_TAG], 4);
    CHECK_INT_EQ(d->slot[LOG_S_COMM], 5);
    CHECK_INT_EQ(d->slot[LOG_S_SOURCE], -1);
    CHECK_INT_EQ(d->args[d->slot[LOG_S_COMM]].vpos, 4);

    d = log_func_by_id(LOG_FN_MPI_Issend);
    REQUIRE(d);
    CHECK_INT_EQ(d->kind, LOG_K_SEND);
    CHECK_INT_EQ(d->roles, LOG_R_NB | LOG_R_SYNC);
    CHECK_INT_EQ(d->slot[LOG_S_REQUEST], 6);

    d = log_func_by_id(LOG_FN_MPI_Recv_init);
    REQUIRE(d);
    CHECK_INT_EQ(d->kind, LOG_K_RECV);
    CHECK_INT_EQ(d->roles, LOG_R_PERSISTENT);

    d = log_func_by_id(LOG_FN_MPI_Sendrecv);
    REQUIRE(d);
    CHECK_INT_EQ(d->kind, LOG_K_SENDRECV);
    CHECK_INT_EQ(d->slot[LOG_S_RECVTAG], LOG_A_MPI_Sendrecv_recvtag);
    CHECK_INT_EQ(d->slot[LOG_S_TAG], LOG_A_MPI_Sendrecv_sendtag);

    d = log_func_by_id(LOG_FN_MPI_Ineighbor_alltoallw_c);
    REQUIRE(d);
    CHECK_INT_EQ(d->kind, LOG_K_COLL);
    CHECK_INT_EQ(d->roles, LOG_R_NB | LOG_R_NEIGHBOR);

    d = log_func_by_id(LOG_FN_MPI_Comm_idup);
    REQUIRE(d);
    CHECK_INT_EQ(d->kind, LOG_K_COMM_CTOR);
    CHECK_INT_EQ(d->roles, LOG_R_NB);
    CHECK_INT_EQ(d->slot[LOG_S_NEWCOMM], 1);
    d = log_func_by_id(LOG_FN_MPI_Comm_create_group);
    REQUIRE(d);
    CHECK_INT_EQ(d->roles, LOG_R_GROUP);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Comm_get_parent)->kind,
                 LOG_K_LOCAL);

    d = log_func_by_id(LOG_FN_MPI_Waitall);
    REQUIRE(d);
    CHECK_INT_EQ(d->kind, LOG_K_COMPLETION);
    CHECK_INT_EQ(d->slot[LOG_S_REQUESTS], 1);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Test)->slot[LOG_S_REQUEST], 0);

    d = log_func_by_id(LOG_FN_MPI_Type_create_struct);
    REQUIRE(d);
    CHECK_INT_EQ(d->kind, LOG_K_TYPE_CTOR);
    CHECK_INT_EQ(d->slot[LOG_S_NEWTYPE], 4);
    /* Block lengths and types checked by the replay, displacements
     * logged for drdb check only (absolute addresses). */
    CHECK(d->args[1].logged == 1 && d->args[2].logged == 2 &&
          d->args[3].logged == 1);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Type_vector)->slot[LOG_S_OLDTYPE],
                 3);

    /* Where a rooted collective's buffers count. */
    d = log_func_by_id(LOG_FN_MPI_Scatterv);
    REQUIRE(d);
    CHECK_INT_EQ(d->args[0].at, LOG_AT_ROOT);
    CHECK_INT_EQ(d->args[4].at, LOG_AT_ALL);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Bcast)->args[0].at,
                 LOG_AT_NONROOT);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Allreduce)->args[1].at, 0);
}

/* Whether D's roles have FLAG. */
static int has(const struct log_func_desc *d, unsigned flag)
{
    return (d->roles & flag) != 0;
}

/* The functions whose roles (kind and flags, not names) satisfy TEST, or
 * with TEST NULL have FLAG, as "NAME NAME ..." in id order, into BUF. */
static const char *functions_where(int (*test)(const struct log_func_desc *),
                                   unsigned flag, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < log_funcs_count && n < len; i++)
        if (test ? test(&log_funcs[i]) : has(&log_funcs[i], flag))
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "",
                                  log_funcs[i].name);
    return buf;
}

/* A blocking send in standard mode (drdb check's deadlock.unsafe-send). */
static int standard_send(const struct log_func_desc *d)
{
    return d->kind == LOG_K_SEND &&
           !(d->roles & (LOG_R_NB | LOG_R_PERSISTENT | LOG_R_SEND_MODES));
}

/* A completion that blocks (the recorder's wait-for slot). */
static int blocking_completion(const struct log_func_desc *d)
{
    return d->kind == LOG_K_COMPLETION && !(d->roles & LOG_R_POLL);
}

/* The roles drdb check's res.leak and deadlock checks and the recorder's
 * generator read instead of names: which calls free an object (and
 * which argument names it), the send modes, the completions of all their
 * requests, the handles MPI keeps. */
TEST(roles_free_sync_all)
{
    char buf[1024];
    const struct log_func_desc *d = log_func_by_id(LOG_FN_MPI_File_close);
    REQUIRE(d);
    CHECK_INT_EQ(d->kind, LOG_K_FILE);
    CHECK_INT_EQ(d->roles, LOG_R_FREE);
    REQUIRE(d->slot[LOG_S_FREED] == LOG_A_MPI_File_close_fh);
    CHECK_STR_EQ(d->args[d->slot[LOG_S_FREED]].ctype, "MPI_File *");
    d = log_func_by_id(LOG_FN_MPI_Comm_disconnect);
    REQUIRE(d);
    CHECK_INT_EQ(d->roles, LOG_R_FREE);
    CHECK_INT_EQ(d->slot[LOG_S_FREED], LOG_A_MPI_Comm_disconnect_comm);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Win_free)->slot[LOG_S_FREED], 0);
    CHECK_STR_EQ(functions_where(NULL, LOG_R_FREE, buf, sizeof buf),
                 "MPI_Comm_free MPI_Type_free MPI_Errhandler_free "
                 "MPI_Group_free MPI_Info_free MPI_Op_free MPI_Win_free "
                 "MPI_Comm_disconnect MPI_File_close");
    for (int i = 0; i < log_funcs_count; i++) {
        d = &log_funcs[i];
        int s = d->slot[LOG_S_FREED];
        CHECK_MSG(has(d, LOG_R_FREE) == (s >= 0), "%s: free %d, freed slot %d",
                  d->name, has(d, LOG_R_FREE), s);
        CHECK_MSG(s < 0 || d->args[s].dir == LOG_DIR_INOUT, "%s", d->name);
    }
    /* A request's free is its kind; an inout handle is not a free. */
    d = log_func_by_id(LOG_FN_MPI_Request_free);
    REQUIRE(d);
    CHECK_INT_EQ(d->kind, LOG_K_REQUEST_FREE);
    CHECK_INT_EQ(d->roles, 0);
    CHECK_INT_EQ(d->slot[LOG_S_FREED], -1);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Type_commit)->slot[LOG_S_FREED],
                 -1);

    /* The send modes: MPI_Send is standard, MPI_Ssend synchronous. */
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Ssend)->roles, LOG_R_SYNC);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Ssend_init_c)->roles,
                 LOG_R_PERSISTENT | LOG_R_SYNC);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Issend_c)->roles,
                 LOG_R_NB | LOG_R_SYNC);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Bsend)->roles, LOG_R_BUFFERED);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Irsend)->roles,
                 LOG_R_NB | LOG_R_READY);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Send_init)->roles,
                 LOG_R_PERSISTENT);
    CHECK_INT_EQ(LOG_R_SEND_MODES, LOG_R_SYNC | LOG_R_BUFFERED | LOG_R_READY);
    CHECK_STR_EQ(functions_where(standard_send, 0, buf, sizeof buf),
                 "MPI_Send MPI_Send_c");

    /* Completions: Waitall waits for all, the other Waits for any. */
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Waitall)->roles, LOG_R_ALL);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Testall)->roles,
                 LOG_R_POLL | LOG_R_ALL);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Waitany)->roles, 0);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Waitsome)->roles, 0);
    CHECK_STR_EQ(functions_where(blocking_completion, 0, buf, sizeof buf),
                 "MPI_Wait MPI_Waitall MPI_Waitany MPI_Waitsome");

    CHECK_STR_EQ(functions_where(NULL, LOG_R_MPI_OWNED, buf, sizeof buf),
                 "MPI_Type_create_f90_integer MPI_Type_create_f90_real "
                 "MPI_Type_create_f90_complex MPI_Comm_get_parent");
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Comm_dup)->roles, 0);

    CHECK_STR_EQ(log_flag_names[6], "free");
    CHECK_INT_EQ(LOG_R_FREE, 1u << 6);
    CHECK_STR_EQ(log_flag_names[11], "mpi-owned");
    CHECK_STR_EQ(log_slot_names[LOG_S_FREED], "freed");
}

/* An error handler constructor whose handler gets a pointer (a file). */
static int errh_on_pointer(const struct log_func_desc *d)
{
    return d->errh_enc == LOG_ENC_PTR;
}

/* The roles drdb check's err.ignored, the reader's ending of a log and the
 * error handlers' trampolines read instead of names: the end of the job
 * and of MPI, the calls that examine an error code (and which argument
 * holds it), the error handlers' objects. */
TEST(roles_errors)
{
    char buf[1024];
    CHECK_STR_EQ(functions_where(NULL, LOG_R_ABORT, buf, sizeof buf),
                 "MPI_Abort");
    CHECK_STR_EQ(functions_where(NULL, LOG_R_FINALIZE, buf, sizeof buf),
                 "MPI_Finalize");
    const struct log_func_desc *d = log_func_by_id(LOG_FN_MPI_Abort);
    REQUIRE(d);
    CHECK_INT_EQ(d->kind, LOG_K_LIFECYCLE);
    CHECK_INT_EQ(d->slot[LOG_S_COMM], LOG_A_MPI_Abort_comm);
    CHECK_INT_EQ(d->slot[LOG_S_ERRORCODE], LOG_A_MPI_Abort_errorcode);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Finalize)->kind, LOG_K_LIFECYCLE);
    /* MPI_Session_finalize ends a session, not MPI. */
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Session_finalize)->roles, 0);

    /* err.ignored's "examined": the code in the errorcode slot. */
    CHECK_STR_EQ(functions_where(NULL, LOG_R_EXAMINES, buf, sizeof buf),
                 "MPI_Comm_call_errhandler MPI_Error_class MPI_Error_string "
                 "MPI_File_call_errhandler MPI_Session_call_errhandler "
                 "MPI_Win_call_errhandler");
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Error_class)->slot[LOG_S_ERRORCODE],
                 LOG_A_MPI_Error_class_errorcode);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Win_call_errhandler)
                     ->slot[LOG_S_ERRORCODE],
                 LOG_A_MPI_Win_call_errhandler_errorcode);
    /* A code given to define its string or delete it is not examined. */
    d = log_func_by_id(LOG_FN_MPI_Add_error_string);
    REQUIRE(d);
    CHECK_INT_EQ(d->slot[LOG_S_ERRORCODE],
                 LOG_A_MPI_Add_error_string_errorcode);
    CHECK_INT_EQ(d->roles, 0);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPIX_Delete_error_code)->roles, 0);
    /* MPI_Add_error_code returns a code: no slot (an out argument). */
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Add_error_code)
                     ->slot[LOG_S_ERRORCODE],
                 -1);
    for (int i = 0; i < log_funcs_count; i++) {
        d = &log_funcs[i];
        int s = d->slot[LOG_S_ERRORCODE];
        CHECK_MSG(!has(d, LOG_R_EXAMINES) || s >= 0,
                  "%s: examines no errorcode", d->name);
        CHECK_MSG(s < 0 || (d->args[s].dir == LOG_DIR_VALUE &&
                            !strcmp(d->args[s].ctype, "int")),
                  "%s: errorcode is no int by value", d->name);
        CHECK_MSG(has(d, LOG_R_ERRHANDLER)
                      ? d->errh_enc == LOG_ENC_HANDLE ||
                            d->errh_enc == LOG_ENC_PTR
                      : d->errh_enc == 0,
                  "%s: errhandler %d, errh_enc %d", d->name,
                  has(d, LOG_R_ERRHANDLER), d->errh_enc);
    }

    /* What an error handler is called with: a file is a pointer. */
    CHECK_STR_EQ(functions_where(NULL, LOG_R_ERRHANDLER, buf, sizeof buf),
                 "MPI_Comm_create_errhandler MPI_File_create_errhandler "
                 "MPI_Session_create_errhandler MPI_Win_create_errhandler "
                 "MPI_Errhandler_create");
    CHECK_STR_EQ(functions_where(errh_on_pointer, 0, buf, sizeof buf),
                 "MPI_File_create_errhandler");

    CHECK_STR_EQ(log_flag_names[12], "abort");
    CHECK_INT_EQ(LOG_R_ABORT, 1u << 12);
    CHECK_STR_EQ(log_flag_names[15], "errhandler");
    CHECK_STR_EQ(log_slot_names[LOG_S_ERRORCODE], "errorcode");
}

/* MPI 4's large-count functions and their classic twins: one operation
 * (drdb check's coll.operation), one hook where the classes agree. */
TEST(large_count_twins)
{
    int twins = 0;
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Send_c)->classic, LOG_FN_MPI_Send);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Send)->classic, LOG_FN_MPI_Send);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Allreduce_init_c)->classic,
                 LOG_FN_MPI_Allreduce_init);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Type_get_contents_c)->classic,
                 LOG_FN_MPI_Type_get_contents);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Status_c2f)->classic,
                 LOG_FN_MPI_Status_c2f);
    for (int i = 0; i < log_funcs_count; i++) {
        const struct log_func_desc *d = &log_funcs[i];
        const struct log_func_desc *c = log_func_by_id(d->classic);
        REQUIRE(c);
        CHECK_MSG(c->classic == c->id, "%s: classic %s is a twin", d->name,
                  c->name);
        if (c == d)
            continue;
        twins++;
        CHECK_MSG(d->kind == c->kind && d->roles == c->roles &&
                      d->nargs >= c->nargs,
                  "%s and %s: not the same call", d->name, c->name);
        /* What one twin needs a hook for, the other does too (the stub
         * once generated MPI_Buffer_detach_c, which handed back the
         * recorded process's buffer). */
        CHECK_MSG(d->hooks == c->hooks, "%s: hooks %u, %s's %u", d->name,
                  d->hooks, c->name, c->hooks);
    }
    CHECK_INT_EQ(twins, 154);
}

/* Which side has hand-written code, and what the replay refuses. */
TEST(hooks_and_unsupported)
{
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Wait)->hooks,
                 LOG_HOOK_REC | LOG_HOOK_RPL);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Iprobe)->hooks, LOG_HOOK_REC);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Type_vector)->hooks, LOG_HOOK_RPL);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Send)->hooks, 0);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Send)->cls, LOG_CLASS_AUTO);
    CHECK(log_func_by_id(LOG_FN_MPI_Send)->unsupported == NULL);
    const struct log_func_desc *d = log_func_by_id(LOG_FN_MPI_Comm_spawn);
    REQUIRE(d && d->unsupported);
    CHECK(strstr(d->unsupported, "process creation") != NULL);
    /* Shared-memory windows replay (issue 16): hooks on both sides. */
    d = log_func_by_id(LOG_FN_MPI_Win_allocate_shared_c);
    REQUIRE(d);
    CHECK(d->unsupported == NULL);
    CHECK_INT_EQ(d->hooks, LOG_HOOK_REC | LOG_HOOK_RPL);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Win_shared_query)->hooks,
                 LOG_HOOK_RPL);
    CHECK_INT_EQ(log_func_by_id(LOG_FN_MPI_Buffer_detach_c)->hooks,
                 LOG_HOOK_RPL);
    CHECK_STR_EQ(log_kind_names[LOG_K_REQUEST_FREE], "request-free");
    CHECK_STR_EQ(log_flag_names[1], "persistent");
    CHECK_INT_EQ(LOG_R_PERSISTENT, 1u << 1);
}

int main(void)
{
    RUN(ids_unique_and_increasing);
    RUN(names_unique);
    RUN(pinned_ids_never_change);
    RUN(well_known_ids);
    RUN(lookup_by_id_and_name);
    RUN(argument_annotations);
    RUN(every_pointer_has_a_direction);
    RUN(roles_and_slots);
    RUN(roles_free_sync_all);
    RUN(roles_errors);
    RUN(large_count_twins);
    RUN(hooks_and_unsupported);
    return check_done();
}
