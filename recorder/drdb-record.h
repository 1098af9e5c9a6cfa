/*
 * drdb-record.h - the protocol between `drdb record` and the recorder
 * (libdrdb-record.so): the names both sides must spell alike, defined once.
 *
 *  - the environment `drdb record` gives the launcher, which passes it on
 *    to every rank (the recorder reads it: rec.c, rec-files.c, rec-sys.c,
 *    rec-cb.c);
 *  - the recorder's file name, which the front end preloads;
 *  - how a recorded process ends when the recorder fails (rec.h:
 *    rec_warn, rec_fail).
 *
 * The files the two sides share in the run directory are the log's
 * format, named in log/log-format.h: LOG_RUN_ROOM (drdb.run's room, which
 * rank 0 fills), LOG_BUDGET_FILE (--max-log-size total=), LOG_INPUTS_DIR
 * and LOG_STDIN_FILE (--capture-inputs, rank 0's standard input),
 * LOG_CALL_FILE (the call in progress, which drdb check reads).
 *
 * Plain macros: the header is included by code that runs inside the
 * recorded process and by the front end alike. Shell scripts (tests/,
 * tests/bench/) and the user's guide spell some of the names as they are:
 * a program linked with -ldrdb-record needs DRDB_RUN_DIR alone, the
 * benchmarks pick a recorder with DRDB_RECORD_LIB, DRDB_OP_BYTES is the
 * user's to set.
 */
#ifndef DRDB_RECORD_H
#define DRDB_RECORD_H

/* ---- the environment of a recorded process ------------------------------ */

/* The run directory (required: without it the recorder stays out of the
 * way, whoever preloaded it). */
#define DRDB_ENV_RUN_DIR "DRDB_RUN_DIR"
/* The ranks to record (--ranks), as ranges "0-3,8"; unset: every rank. */
#define DRDB_ENV_RANKS "DRDB_RANKS"
/* The launcher's command line, its arguments joined by spaces, for
 * drdb.run. */
#define DRDB_ENV_COMMAND "DRDB_COMMAND"
/* Set (to anything): log the data of sends too (--send-data). */
#define DRDB_ENV_SEND_DATA "DRDB_SEND_DATA"
/* The directories whose files the program reads are captured
 * (--capture-inputs: the working directory and each PATH given), absolute,
 * separated by DRDB_CAPTURE_SEP. */
#define DRDB_ENV_CAPTURE_INPUTS "DRDB_CAPTURE_INPUTS"
#define DRDB_CAPTURE_SEP "\x1f"
/* Set (not empty): the libc results are not recorded (--no-libc). */
#define DRDB_ENV_NO_LIBC "DRDB_NO_LIBC"
/* --max-log-size: each rank's limit (decimal bytes), and, when set, that
 * the run's budget file (LOG_BUDGET_FILE) is there to share. */
#define DRDB_ENV_MAX_LOG_SIZE "DRDB_MAX_LOG_SIZE"
#define DRDB_ENV_LOG_BUDGET "DRDB_LOG_BUDGET"
/* The bytes of each vector a user operator's entry logs (decimal; default
 * 1 MiB; docs/recording.md). Not set by drdb record: the user's. */
#define DRDB_ENV_OP_BYTES "DRDB_OP_BYTES"
/* Front end only: room in the ranks' environment (a run with ASLR off),
 * which a replay gives back to lay the stack out as recorded
 * (launch_pad_env). */
#define DRDB_ENV_STACK_ROOM "DRDB_STACK_ROOM"

/* ---- the recorder ------------------------------------------------------- */

/* Front end only: the recorder's path, instead of beside drdb. */
#define DRDB_ENV_RECORD_LIB "DRDB_RECORD_LIB"
/* Its file name. */
#define DRDB_RECORDER_LIB "libdrdb-record.so"

/* ---- how a recorded process ends ---------------------------------------- */

/* The recorder never ends the process for a failure it can go on after
 * (a log it cannot create or extend: that rank's recording stops, the
 * program goes on; it warns once on standard error, "drdb-record:
 * warning: rank R: ..."). For one it cannot (an allocation the logging
 * needs) it says so ("drdb-record: rank R: event N (MPI_X): ...") and
 * aborts: SIGABRT, which the launcher reports, and the rank's log ends as
 * a killed rank's does (drdb record's verdict: "killed mid-run"). No exit
 * status of its own: the program's are the launcher's to report. */

#endif
