/*
 * thread.h - deterministic thread numbers, the same in a recorded process
 * and in its replay (thread.c; docs/log-format.md, "Threads").
 *
 * OS thread ids differ from run to run, and so does the order in which
 * threads first call MPI. What does not change is who created whom: this
 * module defines pthread_create (linked into libdrdb-record.so and the
 * replay stub only, which export it) and numbers each new thread from its
 * creator's number and how many threads the creator made before it. The
 * main thread is 0; its children are 1, 2, ...; a child of thread P made
 * as P's I-th thread (I from 1) is (P << 16) | I. A thread made when its
 * creator has made 65535 already, or deeper than 4 generations below the
 * main thread, is UTIL_THREAD_NONE, and so are its children: its MPI calls
 * cannot be ordered (the replay says so when it meets one). OpenMP
 * runtimes (libgomp, LLVM's libomp) create their pools with pthread_create
 * in program order, so their threads are numbered too.
 *
 * Threads made otherwise than through pthread_create's dynamic symbol
 * (clone(2), C11's thrd_create, which libc implements without it) are
 * UTIL_THREAD_NONE.
 *
 * Threads created inside the MPI library (a progress thread during
 * MPI_Init) must not use up a number of the program's: the recorder wraps
 * those calls in util_thread_internal(). Such threads get
 * UTIL_THREAD_NONE.
 *
 * Thread-safe; no allocation but one small block per pthread_create.
 */
#ifndef DRDB_UTIL_THREAD_H
#define DRDB_UTIL_THREAD_H

#include <stdint.h>
#include <sys/types.h>

#define UTIL_THREAD_NONE UINT64_MAX

/* The calling thread's number. */
uint64_t util_thread_self(void);
/* The number of the INDEX-th child (from 1) of thread PARENT. */
uint64_t util_thread_child(uint64_t parent, uint64_t index);
/* Threads alive: the main thread and those created through pthread_create
 * that have not ended yet (started or about to). */
int util_thread_live(void);
/* The kernel thread id of live thread NUM (the main thread: the pid), or
 * 0 when unknown or not running. */
pid_t util_thread_tid(uint64_t num);
/* While DEPTH > 0 for the calling thread, the threads it creates are the
 * MPI library's own: unnumbered. util_thread_internal(+1) / (-1). */
void util_thread_internal(int delta);
/* Called (if set) in a numbered thread that is ending, after the program's
 * start routine returned or it called pthread_exit: the replay stub
 * re-checks whether the remaining threads can still make progress. */
extern void (*util_thread_exit_hook)(void);

#endif
