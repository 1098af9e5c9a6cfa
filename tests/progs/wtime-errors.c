/*
 * wtime-errors - values only MPI can give: clocks, errors, environment,
 * attributes. A replay must return the recorded ones.
 *
 * 1. MPI_Wtime/MPI_Wtick printed; a loop calls MPI_Wtime (sleeping 0.2 ms
 *    in between) until 5 ms have passed, and the number of calls decides a
 *    branch (control flow that depends on time); Wtime values are part of
 *    the checksum.
 * 2. MPI_ERRORS_RETURN on MPI_COMM_WORLD: MPI_Send to rank SIZE and with
 *    count -1 return errors; MPI_Error_class must be MPI_ERR_RANK and
 *    MPI_ERR_COUNT; MPI_Error_string is printed. A user error handler
 *    (MPI_Comm_create_errhandler) on a dup must be called with the code.
 * 3. MPI_Get_processor_name, MPI_Get_version, MPI_Get_library_version,
 *    MPI_Initialized, MPI_Query_thread.
 * 4. Attributes: MPI_TAG_UB (>= 32767), MPI_WTIME_IS_GLOBAL; a keyval with
 *    copy and delete callbacks: MPI_Comm_set_attr/get_attr, MPI_Comm_dup
 *    copies it (value + 1), MPI_Comm_delete_attr and MPI_Comm_free call
 *    the delete callback.
 *
 * Output that varies between runs: Wtime values, spin counts, the branch.
 *
 *   mpiexec -n 1..4 ./wtime-errors
 */
#include <time.h>

#include "progs.h"

static int handler_calls, handler_code;
static int copies, deletes;

static void my_handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
}

static int copy_fn(MPI_Comm old, int key, void *extra, void *in, void *out,
                   int *flag)
{
    copies++;
    *(long *)out = (long)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int key, void *val, void *extra)
{
    deletes++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    prog_start();
    MPI_Comm w = MPI_COMM_WORLD;

    /* 1. clocks */
    {
        double t0 = MPI_Wtime(), tick = MPI_Wtick(), t;
        long spins = 0;
        CHECK(tick > 0 && tick < 1, "wtick %g", tick);
        /* ~25 spins: each MPI_Wtime is one logged event */
        do {
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
            t = MPI_Wtime();
            spins++;
        } while (t - t0 < 0.005);
        CHECK(t >= t0, "wtime went back");
        prog_sum(&t0, sizeof t0);
        prog_sum(&t, sizeof t);
        prog_sum_i(spins);
        prog_say("wtime %.6f wtick %.3g", t0, tick);
        if (spins % 2)
            prog_say("spins %ld: odd branch", spins);
        else
            prog_say("spins %ld: even branch", spins);
        /* rank 0's time, broadcast: everyone's state depends on it */
        double t0_root = t0;
        MPI_OK(MPI_Bcast(&t0_root, 1, MPI_DOUBLE, 0, w));
        prog_sum(&t0_root, sizeof t0_root);
    }

    /* 2. errors returned, not fatal */
    {
        MPI_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
        int x = 1, cls, len, rc;
        char msg[MPI_MAX_ERROR_STRING];
        rc = MPI_Send(&x, 1, MPI_INT, prog_size, 0, w);
        CHECK(rc != MPI_SUCCESS, "send to rank %d succeeded", prog_size);
        MPI_OK(MPI_Error_class(rc, &cls));
        MPI_OK(MPI_Error_string(rc, msg, &len));
        CHECK(cls == MPI_ERR_RANK, "class %d, want MPI_ERR_RANK", cls);
        CHECK(len > 0 && (int)strlen(msg) == len, "error string length");
        prog_sum_i(cls);
        prog_say("send to rank %d: class MPI_ERR_RANK (%d)", prog_size, cls);
        /* MPICH appends an error stack on further lines: print line 1 */
        char *nl = strchr(msg, '\n');
        if (nl)
            *nl = 0;
        prog_say("error string: %.200s", msg);

        rc = MPI_Send(&x, -1, MPI_INT, 0, 0, w);
        MPI_OK(MPI_Error_class(rc, &cls));
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_COUNT, "count -1: class %d",
              cls);
        MPI_OK(MPI_Error_string(cls, msg, &len));
        prog_sum_i(cls);
        prog_say("count -1: class MPI_ERR_COUNT: %s", msg);

        MPI_Comm d;
        MPI_Errhandler eh, got;
        MPI_OK(MPI_Comm_dup(w, &d));
        MPI_OK(MPI_Comm_create_errhandler(my_handler, &eh));
        MPI_OK(MPI_Comm_set_errhandler(d, eh));
        MPI_OK(MPI_Comm_get_errhandler(d, &got));
        rc = MPI_Recv(&x, 1, MPI_INT, -5, 0, d, MPI_STATUS_IGNORE);
        CHECK(rc != MPI_SUCCESS && handler_calls == 1 && handler_code == rc,
              "user handler: rc %d calls %d code %d", rc, handler_calls,
              handler_code);
        MPI_OK(MPI_Error_class(rc, &cls));
        CHECK(cls == MPI_ERR_RANK, "recv from -5: class %d", cls);
        prog_say("user error handler called once, class MPI_ERR_RANK");
        MPI_OK(MPI_Errhandler_free(&got));
        MPI_OK(MPI_Errhandler_free(&eh));
        MPI_OK(MPI_Comm_free(&d));
        /* Comm still usable after the errors */
        int sum = 0, one = 1;
        MPI_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, w));
        CHECK(sum == prog_size, "allreduce after errors %d", sum);
        MPI_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_ARE_FATAL));
    }

    /* 3. environment */
    {
        char name[MPI_MAX_PROCESSOR_NAME], lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len, ver, sub, flag, level;
        MPI_OK(MPI_Get_processor_name(name, &len));
        CHECK(len > 0 && (int)strlen(name) == len, "processor name");
        MPI_OK(MPI_Get_version(&ver, &sub));
        CHECK(ver >= 3, "MPI version %d.%d", ver, sub);
        MPI_OK(MPI_Get_library_version(lib, &len));
        CHECK(len > 0, "library version");
        MPI_OK(MPI_Initialized(&flag));
        CHECK(flag, "not initialized");
        MPI_OK(MPI_Query_thread(&level));
        CHECK(level >= MPI_THREAD_SINGLE && level <= MPI_THREAD_MULTIPLE,
              "thread level %d", level);
        char *nl = strchr(lib, '\n');
        if (nl)
            *nl = 0;
        prog_sum(name, (size_t)strlen(name));
        prog_sum_i(ver * 100 + sub);
        prog_say("processor %s", name);
        prog_say("MPI %d.%d, library %.80s", ver, sub, lib);
    }

    /* 4. attributes */
    {
        int *tag_ub, flag;
        MPI_OK(MPI_Comm_get_attr(w, MPI_TAG_UB, &tag_ub, &flag));
        CHECK(flag && *tag_ub >= 32767, "tag_ub");
        prog_sum_i(*tag_ub);
        prog_say("MPI_TAG_UB %d", *tag_ub);
        int *global;
        MPI_OK(MPI_Comm_get_attr(w, MPI_WTIME_IS_GLOBAL, &global, &flag));
        prog_say("MPI_WTIME_IS_GLOBAL %s", flag ? (*global ? "1" : "0")
                                                 : "unset");

        int key;
        MPI_Comm d;
        void *v;
        MPI_OK(MPI_Comm_create_keyval(copy_fn, delete_fn, &key, NULL));
        MPI_OK(MPI_Comm_get_attr(w, key, &v, &flag));
        CHECK(!flag, "attribute set before set_attr");
        MPI_OK(MPI_Comm_set_attr(w, key, (void *)(long)(40 + prog_rank)));
        MPI_OK(MPI_Comm_get_attr(w, key, &v, &flag));
        CHECK(flag && (long)v == 40 + prog_rank, "get_attr %ld", (long)v);
        MPI_OK(MPI_Comm_dup(w, &d));
        MPI_OK(MPI_Comm_get_attr(d, key, &v, &flag));
        CHECK(copies == 1 && flag && (long)v == 41 + prog_rank,
              "dup copied %ld (copies %d)", (long)v, copies);
        MPI_OK(MPI_Comm_set_attr(d, key, (void *)7L)); /* replaces: delete */
        CHECK(deletes == 1, "replace did not delete (%d)", deletes);
        MPI_OK(MPI_Comm_free(&d));
        CHECK(deletes == 2, "free did not delete (%d)", deletes);
        MPI_OK(MPI_Comm_delete_attr(w, key));
        CHECK(deletes == 3, "delete_attr did not delete (%d)", deletes);
        MPI_OK(MPI_Comm_get_attr(w, key, &v, &flag));
        CHECK(!flag, "attribute still there");
        MPI_OK(MPI_Comm_free_keyval(&key));
        prog_sum_i(copies * 10 + deletes);
        prog_say("keyval: 1 copy, 3 deletes ok");
    }
    return prog_finish();
}
