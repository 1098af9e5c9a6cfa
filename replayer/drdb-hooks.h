/*
 * drdb-hooks.h - the symbols a debugger relies on inside a replayed process.
 *
 * The replay stub (libmpich.so.12 / libdrdb-replay.so) defines them with
 * default visibility, never inlined, never stripped: GDB (and the drdb
 * console) read and write the variables and set breakpoints on the hook
 * functions by name. THESE NAMES AND MEANINGS ARE STABLE: never rename one.
 * (drdb-stub.h spells them as strings for the front end's GDB commands,
 * with the environment and exit statuses of a replay.)
 *
 * Events are numbered from 0 in log order (the record index of the rank's
 * log; a compressed run of identical polls is one event).
 */
#ifndef DRDB_HOOKS_H
#define DRDB_HOOKS_H

#include <stdint.h>

/* The number of the next event to replay: the events before it are done.
 * Read-only for the debugger. */
extern volatile uint64_t drdb_event;
/* Events in the log (complete records). */
extern volatile uint64_t drdb_nevents;
/* The id (log/mpi-functions.spec) of the MPI function being replayed, 0
 * between calls. */
extern volatile int drdb_current_fn;
/* While drdb_current_fn is not 0: the event that call replays (a rank
 * stopped then, at a watchpoint the call's outputs trigger say, is inside
 * that event). */
extern volatile uint64_t drdb_call_event;
/* The replayed rank. */
extern volatile int drdb_rank;

/*
 * Stop at an event: when the program makes the MPI call that replays event
 * drdb_stop_event, drdb_stop_hook() runs first, before anything of that
 * call happens. A breakpoint on drdb_stop_hook thus stops the rank just
 * before event N with the program's caller two frames up. Set it to
 * UINT64_MAX (the default) for no stop. Only this one comparison runs per
 * call: no conditional breakpoint is evaluated on every MPI call.
 */
extern volatile uint64_t drdb_stop_event;
void drdb_stop_hook(void);

/*
 * A divergence or an end of log: the program's call does not match the log,
 * or the log ends. drdb_divergence_msg holds the report (also printed on
 * stderr) when drdb_divergence_hook() is called, just before the process
 * exits (status 97 diverged, 98 end of log, 99 setup error).
 */
extern char drdb_divergence_msg[2048];
/* Set with drdb_divergence_msg: the exit status the replay is about to
 * end with (enum drdb_exit: 97 diverged, 98 end of the log, 99 setup). */
extern volatile int drdb_fail_code;
void drdb_divergence_hook(void);

/*
 * Checkpoints (checkpoint/ckpt.h, docs/checkpoints.md): at the MPI call
 * boundary where drdb_event == drdb_checkpoint_event, and every
 * drdb_ckpt_every events / drdb_ckpt_interval seconds (0: off; set from
 * DRDB_CKPT_EVERY / DRDB_CKPT_INTERVAL), the stub takes a checkpoint and
 * then calls drdb_checkpoint_hook(). A process rolled back to one of them
 * resumes there and calls drdb_restored_hook().
 */
extern volatile uint64_t drdb_checkpoint_event;
extern volatile uint64_t drdb_ckpt_every;
extern volatile double drdb_ckpt_interval;
void drdb_checkpoint_hook(void);
void drdb_restored_hook(void);

#endif
