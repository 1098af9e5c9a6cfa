/*
 * con-flow.h - what con-flow.c (blocks: foreach, if, while; bodies and
 * their $-references) and con-flow-user.c (define, document, user
 * commands) share. Internal to the console's control flow: the
 * console's API is con.h.
 */
#ifndef DRDB_CON_FLOW_H
#define DRDB_CON_FLOW_H

#include "con.h"
#include "ev-sql.h"

/* User command calls nested deeper than this stop (GDB's default
 * max-user-call-depth). */
#define FLOW_MAX_DEPTH 1024
/* Blocks nested deeper than this in one body are an error. */
#define FLOW_MAX_NEST 64

struct flow_user {
    struct con_cmd cmd; /* its entry: name, usage, summary (its doc) */
    char *name, *usage, *doc;
    char **lines;
    size_t nlines;
    int busy;           /* running: not to be redefined */
};

/* A scope of $-references: a foreach row, or a user command's arguments
 * (which hides the scopes of its caller). */
struct flow_frame {
    const struct ev_sql_result *res;
    size_t row;
    char **argv;
    int argc;
    const char *user;
    struct flow_frame *up;
};

/* The session's control flow (c->flow). */
struct con_flow {
    struct flow_user **users;
    size_t nusers, cap;
    struct flow_frame *top;
    char **pending;        /* the body of the block command about to run */
    size_t npending;
    int has_pending;
    int active;            /* blocks and user commands running */
    int depth;             /* user command calls running */
    int loops;             /* loops running */
    int brk, cont;         /* loop_break, loop_continue: pending */
    int stopped;           /* stopped by Ctrl-C or the timeout: unwinding */
    int failed;            /* a body's command failed: said, unwinding */
    int64_t t0;            /* when the outermost one started */
};

/* What a line of a body is: its command's name decides. */
enum flow_kind { K_OTHER, K_IF, K_BLOCK, K_DOC, K_ELSE, K_END };

/* A body: lines, owned or borrowed. */
struct flow_body {
    char **lines;
    size_t n, cap;
    int owned;
};

void con__body_release(struct flow_body *b);
/* Appends LINE (owned by B from now): 0, or -1 out of memory. */
int con__body_add(struct flow_body *b, char *line);
/* The session's control flow state (allocated on first use), or NULL. */
struct con_flow *con__flow_get(struct con *c);
/* The body of block command NAME (KIND) into B: flow->pending inside a
 * running body, else the lines the reader gives up to the block's `end`,
 * checked (an `else` only in an `if`, no `end` missing). INTRO: said at a
 * prompt first. 0, or -1 (reported) once the whole block is read. */
int con__read_body(struct con *c, const char *name, enum flow_kind kind,
                   const char *intro, struct flow_body *b);
/* Runs the lines of B, each with its $-references replaced; a block's
 * lines go to its command. Stops at the first that fails (-1), at a
 * loop_break or loop_continue (0, left pending for the loop), on Ctrl-C
 * or the timeout (-1, said naming WHAT, the block, and ITER). */
int con__run_body(struct con *c, const struct flow_body *b, const char *what,
                  long iter);
/* Around a block or user command: the outermost starts the clock and, when
 * it ends, forgets a stop. */
void con__flow_enter(struct con_flow *f);
void con__flow_leave(struct con_flow *f);
/* A block's @SET is the focus of its body: makes SET the focus when it is
 * another set, the focus before it into SAVED (to be given back), 1;
 * else 0 (a body's `focus` then stays). */
int con__focus_on(struct con *c, const struct rankset *set,
                  struct rankset *saved);
void con__focus_back(struct con *c, struct rankset *saved, int changed);

#endif
