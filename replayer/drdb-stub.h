/*
 * drdb-stub.h - the protocol between the front end and the replay stub: the
 * names both sides must spell alike, defined once.
 *
 *  - the environment `drdb replay` and the console give a replayed process
 *    (the stub reads it: rpl.c, rpl-ckpt.c; the checkpoint library reads
 *    DRDB_CKPT_BACKEND and DRDB_CKPT_MEM);
 *  - the exit statuses of a replay the stub stops, and the report file it
 *    writes first;
 *  - the names of the symbols a debugger uses inside the replayed process,
 *    as strings for GDB commands (their C declarations and meanings are in
 *    drdb-hooks.h and checkpoint/ckpt.h; THE NAMES ARE STABLE).
 *
 * Plain macros and one enum: the header is included by code that runs
 * inside the replayed process and by the front end alike.
 */
#ifndef DRDB_STUB_H
#define DRDB_STUB_H

/* ---- the environment of a replayed process ------------------------------ */

/* The run directory and the rank to replay (both required). */
#define DRDB_ENV_REPLAY_DIR "DRDB_REPLAY_DIR"
#define DRDB_ENV_REPLAY_RANK "DRDB_REPLAY_RANK"
/* A file the stub writes its report to when it stops the replay (below):
 * `drdb replay` names the call's source line from it, so the stub's own
 * message then leaves out its raw "called from OBJECT+0xOFFSET" line. */
#define DRDB_ENV_REPLAY_REPORT "DRDB_REPLAY_REPORT"
/* Set (to "1") by the console: it shows the stub's report itself, read
 * from drdb_divergence_msg at the program's frame, so the stub writes
 * nothing on the program's stderr when it stops the replay. */
#define DRDB_ENV_REPLAY_QUIET "DRDB_REPLAY_QUIET"
/* Files (docs/replaying.md, "Files"): the replay's own directory, where
 * the program's writes go (unset: where the program says, as recorded);
 * the file that becomes standard input (rank 0's recorded stdin). */
#define DRDB_ENV_REPLAY_OUT "DRDB_REPLAY_OUT"
#define DRDB_ENV_REPLAY_STDIN "DRDB_REPLAY_STDIN"
/* An event to stop before from the start (drdb_stop_event's first value):
 * the console's start of a program without a main symbol, before its
 * first MPI call (event 0). */
#define DRDB_ENV_REPLAY_STOP "DRDB_REPLAY_STOP_EVENT"
/* Set (to "1") when the user gave the program and its arguments (drdb
 * replay RUNDIR -- PROGRAM ARGS): the front end says once that they are
 * not the recorded ones, and the stub runs with them. Unset, the stub
 * stops a replay started with other arguments than recorded (rpl.c). */
#define DRDB_ENV_REPLAY_OWN_ARGS "DRDB_REPLAY_OWN_ARGS"
/* Front end only: the directory of the stub, instead of beside drdb. */
#define DRDB_ENV_REPLAY_LIB_DIR "DRDB_REPLAY_LIB_DIR"
/* Seconds threads may wait for a turn that does not come before the replay
 * of a multi-threaded rank stops as diverged (rpl-thread.c; default 30). */
#define DRDB_ENV_TURN_TIMEOUT "DRDB_REPLAY_TURN_TIMEOUT"
/* The stub's file name: its soname, MPICH's. */
#define DRDB_STUB_LIB "libmpich.so.12"

/* Checkpoints in the stub (docs/checkpoints.md): "on" starts the library
 * with no automatic checkpoint, "off" or "0" keeps it out; every S seconds,
 * every N events, at the events listed ("5,2,3"); to files in a directory
 * (a shadow). */
#define DRDB_ENV_CKPT "DRDB_CKPT"
#define DRDB_ENV_CKPT_INTERVAL "DRDB_CKPT_INTERVAL"
#define DRDB_ENV_CKPT_EVERY "DRDB_CKPT_EVERY"
#define DRDB_ENV_CKPT_EVENTS "DRDB_CKPT_EVENTS"
#define DRDB_ENV_CKPT_DIR "DRDB_CKPT_DIR"
/* Read by the checkpoint library: its dirty-page tracking (uffd, mprotect,
 * full) and its memory cap. */
#define DRDB_ENV_CKPT_BACKEND "DRDB_CKPT_BACKEND"
#define DRDB_ENV_CKPT_MEM "DRDB_CKPT_MEM"

/* ---- how a replay the stub stops ends ------------------------------------ */

/* Exit statuses, after the stub printed why and called
 * drdb_divergence_hook(). */
enum drdb_exit {
    DRDB_EXIT_DIVERGED = 97, /* the program's call differs from the log */
    DRDB_EXIT_LOG_END = 98,  /* the log ends (the recorded rank stopped) */
    DRDB_EXIT_SETUP = 99,    /* no log, unreadable log, unsupported call */
};

/* The report in $DRDB_REPLAY_REPORT, one "KEY VALUE" line each:
 * "status 97", "message rank 0: event 4 (MPI_Send): ...", and
 * "caller OBJ+0xOFF (SYMBOL)": where the program called from, which
 * `drdb replay` turns into a source line. */
#define DRDB_REPORT_STATUS "status "
#define DRDB_REPORT_MESSAGE "message "
#define DRDB_REPORT_CALLER "caller "

/* ---- symbols in the replayed process (drdb-hooks.h) ---------------------- */

/* Every hook and variable of the stub starts so; a frame in a function of
 * that name is the stub's, not the program's. */
#define DRDB_SYM_PREFIX "drdb_"
/* The next event to replay; the MPI function being replayed. */
#define DRDB_SYM_EVENT "drdb_event"
#define DRDB_SYM_CURRENT_FN "drdb_current_fn"
/* The event of the MPI call being replayed (drdb_current_fn not 0). */
#define DRDB_SYM_CALL_EVENT "drdb_call_event"
/* Stop before event N: set the variable, break on the hook. UINT64_MAX
 * (as GDB reads it: DRDB_NO_EVENT) is "no stop". */
#define DRDB_SYM_STOP_EVENT "drdb_stop_event"
#define DRDB_SYM_STOP_HOOK "drdb_stop_hook"
#define DRDB_NO_EVENT "18446744073709551615"
/* A divergence: the hook is called with the report in the message. */
#define DRDB_SYM_DIVERGENCE_HOOK "drdb_divergence_hook"
#define DRDB_SYM_DIVERGENCE_MSG "drdb_divergence_msg"
#define DRDB_SYM_FAIL_CODE "drdb_fail_code"
/* Automatic checkpoints: their period, as DRDB_CKPT_EVERY/INTERVAL. */
#define DRDB_SYM_CKPT_EVERY "drdb_ckpt_every"
#define DRDB_SYM_CKPT_INTERVAL "drdb_ckpt_interval"
/* A process rolled back to a stub's checkpoint stops here. */
#define DRDB_SYM_RESTORED_HOOK "drdb_restored_hook"

/* The checkpoint library's debugger interface (checkpoint/ckpt.h): take
 * one anywhere, roll back, forget those from an id on, list; the SIGSEGV
 * hook of its mprotect backend. */
#define DRDB_SYM_CKPT_TAKE "drdb_ckpt_take_trampoline"
#define DRDB_SYM_CKPT_RESTORE "drdb_ckpt_restore_trampoline"
#define DRDB_SYM_CKPT_FORGET "drdb_ckpt_forget_trampoline"
#define DRDB_SYM_CKPT_PC "drdb_ckpt_pc"
#define DRDB_SYM_CKPT_LAST "drdb_ckpt_last"
#define DRDB_SYM_CKPT_EVENT_TAG "drdb_ckpt_event_tag"
#define DRDB_SYM_CKPT_TARGET "drdb_ckpt_target"
#define DRDB_SYM_CKPT_TARGET_PATH "drdb_ckpt_target_path"
#define DRDB_SYM_CKPT_MSG "drdb_ckpt_msg"
#define DRDB_SYM_CKPT_TABLE "drdb_ckpt_table"
#define DRDB_SYM_CKPT_SEGV_HOOK "drdb_ckpt_segv_hook"

#endif
