/*
 * ckpt.h - in-process incremental checkpoint and restore of one
 * single-threaded process (x86-64 Linux): the library's API, for the
 * replay stub (libdrdb-ckpt.a). A front end uses ckpt-file.h alone; the
 * library's units are listed in ckpt-int.h. libc only; no malloc:
 * everything the library keeps lives in its own region, which is never
 * checkpointed nor restored.
 *
 * A checkpoint holds every private writable page of the process (data, bss,
 * heap, anonymous and private file-backed mappings, TLS, the stack), the
 * mapping layout, the program break, the offsets of open regular files and
 * the callee-saved registers. The first is full; each later one holds only
 * the pages written since its parent (the checkpoint the process state
 * descends from: the previous one, or the one last rolled back to).
 *
 * Dirty pages are tracked by one of three backends, chosen at run time
 * (DRDB_CKPT_BACKEND=uffd|mprotect|full forces one):
 *   uffd      userfaultfd write-protect in async mode + PAGEMAP_SCAN
 *             (Linux 6.7+): no signals, kernel writes tracked too;
 *   mprotect  write-protection and a SIGSEGV handler (the stack is copied
 *             whole each time and never protected);
 *   full      every page copied every time.
 */
#ifndef DRDB_CKPT_H
#define DRDB_CKPT_H

#include <stddef.h>
#include <stdint.h>

#include "ckpt-file.h" /* struct ckpt_info, ckpt_file_info() */

enum ckpt_backend { CKPT_AUTO, CKPT_UFFD, CKPT_MPROTECT, CKPT_FULL };

struct ckpt_opts {
    enum ckpt_backend backend;   /* CKPT_AUTO: uffd, else mprotect, else full */
    uint64_t mem_cap;            /* bytes of checkpoints kept in memory (0: 1 GiB) */
    const char *dir;             /* when set: each checkpoint is also written to
                                    DIR/ckpt-<id>.drdbck and its memory freed
                                    (the shadow) */
};

/* Starts the library (idempotent). Reads DRDB_CKPT_BACKEND and
 * DRDB_CKPT_MEM (MiB) when the options leave them 0. -1 with ERR set when
 * the process cannot be checkpointed (more than one thread, not x86-64). */
int ckpt_init(const struct ckpt_opts *o, char *err, size_t errlen);
const char *ckpt_backend_name(void);

/*
 * Takes a checkpoint of the calling context, tagged with EVENT and TIME
 * (seconds of replay). Returns its id (> 0), CKPT_RESUMED when the process
 * comes back here through a rollback, or -1 with the reason in ckpt_error().
 */
#define CKPT_RESUMED 0
long ckpt_take(uint64_t event, double time);

/* Rolls the process back (or forward) to checkpoint ID; on success does not
 * return: ckpt_take() returns CKPT_RESUMED in the restored state. -1 with
 * ckpt_error() when ID cannot be restored (the process is unchanged). */
int ckpt_restore(long id);
/* The same from a checkpoint file (a shadow's): -1 with ckpt_error() when
 * the file is missing, truncated or corrupt, before anything is changed. */
int ckpt_restore_file(const char *path);

/* Forgets checkpoint ID (its pages go to its child). */
int ckpt_delete(long id);
/* Forgets checkpoint ID and every later one (a larger id), the newest
 * first (none has a later one built on it then): how many, or -1 with
 * ckpt_error(). */
int ckpt_forget_since(long id);

const char *ckpt_error(void);

/* Fills up to MAX entries, oldest first; returns how many exist. */
int ckpt_list(struct ckpt_info *out, int max);
uint64_t ckpt_mem_used(void);

/*
 * For a debugger (stable names, see docs/checkpoints.md). With the process
 * stopped anywhere, the debugger writes the pc to drdb_ckpt_pc, puts a
 * temporary breakpoint there, and jumps to drdb_ckpt_take_trampoline: the
 * trampoline saves every register (XSAVE's area too), the library takes a
 * checkpoint holding them (drdb_ckpt_last is its id; on failure it is
 * unchanged and drdb_ckpt_msg says why), and the program resumes at the
 * pc with its registers: it stops at the breakpoint, as it was.
 * To roll back, the debugger writes the id to drdb_ckpt_target (or a file
 * name to drdb_ckpt_target_path and -1 to drdb_ckpt_target), the pc to
 * drdb_ckpt_pc, and jumps to drdb_ckpt_restore_trampoline: a refused
 * rollback resumes at the pc, drdb_ckpt_msg set; a checkpoint the stub took
 * resumes inside its ckpt_take() (the stub then calls drdb_restored_hook);
 * a debugger's resumes at the pc it was taken at (the table's last field),
 * registers and all, drdb_ckpt_msg empty.
 * To forget checkpoints it took (a search that failed: bisect), the
 * debugger writes the first id to drdb_ckpt_target and the pc as above,
 * and jumps to drdb_ckpt_forget_trampoline: checkpoint drdb_ckpt_target
 * and every later one are forgotten (ckpt_forget_since), and the program
 * resumes at the pc as it was; drdb_ckpt_msg empty, or why not.
 */
extern volatile long drdb_ckpt_target;
extern volatile uint64_t drdb_ckpt_pc;
extern volatile uint64_t drdb_ckpt_event_tag; /* event of a debugger's */
extern char *drdb_ckpt_target_path;  /* 4096 bytes in the library's region */
extern volatile long drdb_ckpt_last;   /* id of the last checkpoint taken */
extern char *drdb_ckpt_msg;          /* last error, 512 bytes */
extern char *drdb_ckpt_table;        /* ckpt_list() as text, one
                                        ckpt_table_line() each
                                        (ckpt-file.h) */
void drdb_ckpt_take_trampoline(void);
void drdb_ckpt_restore_trampoline(void);
void drdb_ckpt_forget_trampoline(void);
/* mprotect backend: a SIGSEGV that is not the tracking's (a real fault)
 * calls this first, then takes the default action; a debugger that lets
 * the tracking's SIGSEGVs pass silently stops here instead. */
void drdb_ckpt_segv_hook(void);
/* Called by the library where a rollback ends (weak here, defined by the
 * replay stub): drdb_restored_hook. */
void drdb_restored_hook(void);

#endif
