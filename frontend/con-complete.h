/*
 * con-complete.h - tab completion of the console's command lines (the
 * interactive console, sub-console.c, asks; readline shows).
 *
 * What a word completes to depends on where it stands:
 *   - the command's name (first word, or after "@SET"): drdb's commands
 *     and the user's (define);
 *   - "@..." anywhere: the rank sets' names;
 *   - "--..." after a drdb command with options: its options (its
 *     table, fe_opts_each, and its usage line);
 *   - `set WORD` and `info WORD`: drdb's session options and subjects
 *     merged with GDB's subcommands; `set merge|prefix|timing`: on, off;
 *   - the arguments of a GDB command (print, break, list, x, ptype,
 *     info ..., set ..., any command the console does not define, and
 *     the drdb commands that take a GDB location or expression): GDB's
 *     own completion (-complete "LINE") on a replayed rank stopped where
 *     GDB can answer.
 */
#ifndef DRDB_CON_COMPLETE_H
#define DRDB_CON_COMPLETE_H

struct con;
struct con_compl;

/* A completer for session C (nothing read yet): NULL when out of
 * memory. */
struct con_compl *con_compl_new(struct con *c);
void con_compl_free(struct con_compl *cc);

/* The completions of the word LINE[START..END) (END: the cursor; what
 * follows it is not looked at), each the whole word that replaces it,
 * sorted, each once, in a NULL-terminated array (con_compl_list_free);
 * NULL when there is none. *NOSPACE: a single completion is not a whole
 * word yet ("complete.c:", "dir/"): no space after it. */
char **con_compl_words(struct con_compl *cc, const char *line, int start,
                       int end, int *nospace);
void con_compl_list_free(char **list);

/* The last con_compl_words: how long it took (ms), how many completions
 * it found, and whose GDB answered (-1: none, drdb's own words). */
struct con_compl_stat {
    double ms;
    int n;
    int rank;
};
void con_compl_last(const struct con_compl *cc, struct con_compl_stat *st);

#endif
