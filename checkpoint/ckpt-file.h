/*
 * ckpt-file.h - the part of the checkpoint library that a program outside
 * the replayed process may use: reading a checkpoint file's header, the
 * line of the checkpoint table a debugger reads out of the process (the
 * library writes it, the front end reads it), and asking whether this
 * kernel can run the uffd backend. It is libdrdb-ckpt-file.a
 * (ckpt-file.c, ckpt-track-uffd.c), which the front end links instead of
 * the whole library: nothing there takes, stores or restores a
 * checkpoint, or touches the calling process's memory.
 *
 * The layout of a checkpoint file is in ckpt-int.h (and
 * docs/checkpoints.md): only the library reads it.
 */
#ifndef DRDB_CKPT_FILE_H
#define DRDB_CKPT_FILE_H

#include <stddef.h>
#include <stdint.h>

/* One checkpoint as listed (ckpt_list() in ckpt.h, the checkpoint table,
 * or a file's header). */
struct ckpt_info {
    long id, parent;
    uint64_t event;   /* UINT64_MAX: none (a debugger's, outside a call) */
    double time;
    uint64_t pages;   /* pages stored in this checkpoint itself */
    uint64_t bytes;   /* its size: pages and metadata */
    int external;     /* taken through the debugger's trampoline: 0 or 1 */
    int in_file;      /* stored in a file (spilled or a shadow's): 0 or 1 */
    uint64_t pc;      /* an external one's: where it was taken (else 0;
                       * not in a file's header) */
};

/* Reads a checkpoint file's header (no page data), checking it: the
 * sizes, the metadata checksum, the tables' order. 0, or -1 with ERR
 * ("checkpoint file PATH: truncated", ...). Used by the front end to list
 * a shadow's files. */
int ckpt_file_info(const char *path, struct ckpt_info *out, char *err,
                   size_t errlen);

/*
 * The checkpoint table (drdb_ckpt_table, ckpt.h): the library's
 * checkpoints as text, for a debugger to read out of the process with one
 * command. One line per checkpoint, its fields those of struct ckpt_info
 * in order, separated by one space:
 *
 *     id parent event time pages bytes external in_file pc
 *     3 2 -1 0.250000 17 69632 1 0 0x401136
 *
 * event -1 for none, time in seconds with 6 decimals, pc in hex (0 when
 * not external). ckpt_table_line writes CK's line, newline included, into
 * BUF of LEN bytes (at least CKPT_TABLE_LINE_MAX: it fits) and returns its
 * length, as snprintf; ckpt_table_parse reads the line at LINE (up to its
 * newline) into *CK: 0, or -1 when it is not one (CK untouched). The
 * library writes the table, the front end reads it (frontend/con-ckpt.c):
 * these two are the format.
 */
#define CKPT_TABLE_LINE_MAX 160
int ckpt_table_line(char *buf, size_t len, const struct ckpt_info *ck);
int ckpt_table_parse(const char *line, struct ckpt_info *ck);

/* Whether this kernel has what the uffd backend needs (userfaultfd's
 * asynchronous write-protect and PAGEMAP_SCAN, Linux 6.7+), for a front
 * end deciding how to treat SIGSEGV. 1, or 0 with WHY. */
int ckpt_uffd_available(char *why, size_t len);

#endif
