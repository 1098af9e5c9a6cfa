/*
 * mi-gdb-int.h - the GDB process driver's private state, shared by its two
 * units: mi-gdb.c (commands, replies, reading, its death, timers,
 * polling) and mi-gdb-proc.c (starting GDB and its setup, closing it),
 * which uses the first.
 */
#ifndef DRDB_MI_GDB_INT_H
#define DRDB_MI_GDB_INT_H

#include <stdint.h>
#include <sys/types.h>

#include "mi-int.h"

struct mi__pending {
    struct mi__pending *next;
    uint64_t token;
    int64_t deadline;          /* ms (mi_now_ms), 0: none */
    mi_reply_fn *done;
    void *ud;
    struct mi_reply *sync_out; /* mi_gdb_exec_sync: take the reply here */
    int *sync_flag;
    char *command;
    char *console;
    size_t console_len, console_cap;
};

/* Tokens whose command timed out: their late reply is dropped. */
struct mi__abandoned {
    struct mi__abandoned *next;
    uint64_t token;
};

enum { MI__STARTING = 0, MI__READY = 1 };

struct mi_gdb {
    pid_t pid;
    int in_fd, out_fd, err_fd;
    int pty_master, pty_slave;
    char pty_name[64];
    struct mi_parser parser;
    char *errbuf;              /* partial stderr line */
    size_t errlen, errcap;
    char *wbuf;                /* queued output to GDB */
    size_t wlen, wcap, woff;
    struct mi__pending *head, *tail;
    size_t npending;
    struct mi__abandoned *abandoned;
    uint64_t next_token;
    int state;                 /* MI__STARTING, MI__READY or negative */
    int setup_left;
    int dead;
    int wait_status;           /* -1 until reaped */
    int running;
    int64_t interrupt_at;      /* SIGINT fallback time, 0: none */
    int64_t live_at;           /* next waitpid() liveness check */
    char **features;
    size_t nfeatures;
    mi_record_fn *on_async, *on_stream;
    void *ud;
    int linked;                /* driven through link (mi_gdb_attach) */
    struct mi_gdb_link link;
    char err[512];
};

/* mi-gdb.c */
/* SIG to GDB's process group (a linked GDB: through its callback). */
void mi__signal(struct mi_gdb *g, int sig);
void mi__seterr(struct mi_gdb *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int mi__nonblock(int fd);
/* Closes *FD when open; -1 then. */
void mi__close(int *fd);
/* GDB ended (or is ended): closes its pipes, reaps it, fails every pending
 * command with a message saying how it ended and CAUSE. */
void mi__dead(struct mi_gdb *g, const char *cause);

#endif
