/*
 * rankset.h - sets of ranks and their one grammar, for the whole program:
 * the console's `@SET COMMAND`, `focus`, `defset`, `drdb console --ranks`,
 * `drdb replay --ranks` and `drdb record --ranks`.
 *
 * A set is a bitmap over the ranks 0..n-1 of a run (n fixed at rs_init).
 * Text form (no spaces inside a set):
 *
 *   set  := term ( op term )*     evaluated left to right
 *   op   := ','  union   |  '&'  intersection  |  '!'  difference
 *   term := N | N-M | NAME | '(' set ')'
 *
 * NAMEs are resolved by the caller (the console knows all, stopped, ...,
 * and its defsets; the subcommands know none). Printed, a set is its
 * ranges: "0-3,8", or "none".
 */
#ifndef DRDB_RANKSET_H
#define DRDB_RANKSET_H

#include <stddef.h>
#include <stdint.h>

struct rankset {
    int n;           /* ranks 0..n-1 */
    uint64_t *bits;
};

/* An empty set over N ranks: 0, or -1 out of memory. */
int rs_init(struct rankset *s, int n);
void rs_release(struct rankset *s);
void rs_clear(struct rankset *s);
/* DST and SRC have the same n. */
void rs_copy(struct rankset *dst, const struct rankset *src);
static inline int rs_has(const struct rankset *s, int r)
{
    return r >= 0 && r < s->n && (s->bits[r / 64] >> (r % 64)) & 1;
}
static inline void rs_add(struct rankset *s, int r)
{
    s->bits[r / 64] |= (uint64_t)1 << (r % 64);
}
static inline void rs_del(struct rankset *s, int r)
{
    s->bits[r / 64] &= ~((uint64_t)1 << (r % 64));
}
int rs_count(const struct rankset *s);
/* The lowest rank, or -1 when empty. */
int rs_first(const struct rankset *s);
/* "0-3,8" into BUF (cut at LEN); "none" when empty. Returns BUF. */
char *rs_format(const struct rankset *s, char *buf, size_t len);

/* Resolves the set name NAME into OUT (of the caller's n): 0, or -1 when
 * NAME is unknown. UD is the caller's. */
typedef int rs_names_fn(void *ud, const char *name, struct rankset *out);

/* Parses TEXT[0..LEN) (without an '@') into OUT, initialized by the caller
 * with the run's n: every rank must be below it. NAMES may be NULL (no
 * names then). 0, or -1 with the reason in *WHY and the offset of the bad
 * character in *AT. */
int rs_parse(const char *text, size_t len, struct rankset *out,
             rs_names_fn *names, void *ud, int *at, const char **why);
/* The error on stderr, with a caret under the bad character:
 *   drdb: bad rank set: 0-9
 *   drdb:                 ^ no such rank in this run */
void rs_report(const char *text, size_t len, int at, const char *why);

#endif
