/*
 * ckpt-file.h - the part of the checkpoint library that a program outside
 * the replayed process may use: reading a checkpoint file's header, and
 * asking whether this kernel can run the uffd backend. It is
 * libdrdb-ckpt-file.a (ckpt-file.c, ckpt-track-uffd.c), which the front end
 * links instead of the whole library: nothing there takes, stores or
 * restores a checkpoint, or touches the calling process's memory.
 *
 * The layout of a checkpoint file is in ckpt-int.h (and
 * docs/checkpoints.md): only the library reads it.
 */
#ifndef DRDB_CKPT_FILE_H
#define DRDB_CKPT_FILE_H

#include <stddef.h>
#include <stdint.h>

/* One checkpoint as listed (ckpt_list() in ckpt.h, or a file's header). */
struct ckpt_info {
    long id, parent;
    uint64_t event;
    double time;
    uint64_t pages;   /* pages stored in this checkpoint itself */
    uint64_t bytes;   /* its size: pages and metadata */
    int external;     /* taken through the debugger's trampoline */
    int in_file;      /* stored in a file (spilled or a shadow's) */
};

/* Reads a checkpoint file's header (no page data), checking it: the
 * sizes, the metadata checksum, the tables' order. 0, or -1 with ERR
 * ("checkpoint file PATH: truncated", ...). Used by the front end to list
 * a shadow's files. */
int ckpt_file_info(const char *path, struct ckpt_info *out, char *err,
                   size_t errlen);

/* Whether this kernel has what the uffd backend needs (userfaultfd's
 * asynchronous write-protect and PAGEMAP_SCAN, Linux 6.7+), for a front
 * end deciding how to treat SIGSEGV. 1, or 0 with WHY. */
int ckpt_uffd_available(char *why, size_t len);

#endif
