/*
 * life.h - nothing drdb starts outlives it (docs/console.md, "When the
 * console ends").
 *
 * What drdb starts: GDBs (the console's ranks; each in a session of its
 * own, its program its ptrace child), shadow replays (a drain process
 * leading a group, the shadow in it), the ranks of `drdb replay` (children
 * in drdb's group); and directories of its own in $TMPDIR (the session's
 * shadows, the replay's reports). How each way of ending is covered:
 *
 *   - a normal end: the owner stops what it started (con_close(),
 *     `drdb replay` waiting for its ranks); then, at exit (atexit), what is
 *     left: life_end();
 *   - a signal that ends drdb (HUP, TERM, QUIT when asked; SEGV, BUS, ILL,
 *     FPE, ABRT always): the handler does life_end() and the signal is
 *     raised again with its default action (the same exit status, the
 *     same core dump);
 *   - SIGKILL, where no code runs: every child drdb starts dies with its
 *     parent (PR_SET_PDEATHSIG, life_die_with_parent() between fork and
 *     exec), and so down the tree: a GDB dies with the console, its program
 *     with GDB (GDB traces the programs it starts with PTRACE_O_EXITKILL),
 *     a shadow with its drain; directories left behind are removed by the
 *     next drdb that starts (life_sweep()).
 *
 * life_end() kills, with SIGKILL, every child of this process (found in
 * /proc: a child's pid cannot be reused while it is not reaped) and the
 * process group each leads, then removes the registered directories. It
 * is async-signal-safe and does nothing in a forked child (only the
 * process that called life_install() ends things).
 */
#ifndef DRDB_LIFE_H
#define DRDB_LIFE_H

#include <sys/types.h>

/* Which signals end drdb through life_end(): the crashes always; with
 * LIFE_TERM, HUP, TERM and QUIT too (the console; `drdb replay` forwards
 * those to its ranks instead). */
enum { LIFE_CRASH = 0, LIFE_TERM = 1 };
/* Installs the handlers and life_end() at exit, once per process. */
void life_install(int flags);
/* Kills the children and removes the directories (see above). */
void life_end(void);

/* Registers PATH, a directory this process made (mkdtemp) in $TMPDIR, to
 * remove with what it holds (eight levels deep: the shadows' rank-N
 * directories, the replay's files) at life_end(). Up to 8; -1 when
 * full. */
int life_dir_add(const char *path);

/* In a child between fork and exec: die (SIGKILL) when PARENT, the pid
 * that forked it, ends. -1 when PARENT is gone already (the child should
 * _exit). */
int life_die_with_parent(pid_t parent);

/* Removes, in directory DIR, the directories named PREFIX-PID-* (PREFIX
 * e.g. "drdb-shadow") whose PID no longer runs: the leftovers of a drdb
 * killed with SIGKILL. Only the user's own real directories (never a
 * link), eight levels deep. Returns how many were removed. (A drdb of
 * another PID namespace sharing DIR would look gone: give each container
 * its own TMPDIR.) */
int life_sweep(const char *dir, const char *prefix);
/* The prefixes of drdb's directories in $TMPDIR: the console's shadows,
 * `drdb replay`'s reports and the replay's files a run directory could
 * not hold (launch.h: launch_out_dir). */
#define LIFE_SHADOW_PREFIX "drdb-shadow"
#define LIFE_REPLAY_PREFIX "drdb-replay"
/* "$TMPDIR", or "/tmp". */
const char *life_tmpdir(void);

#endif
