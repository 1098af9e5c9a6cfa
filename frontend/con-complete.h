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
 *     GDB can answer, less the names that are not the program's (below);
 *     when no rank's GDB can answer (a lazy session, every rank running)
 *     or GDB's list is cut short (over 1,000), the program's names read
 *     from its ELF file, for a location (break, list: functions, files)
 *     or an expression (print: functions, variables), starting no rank;
 *     `until-call`: the MPI functions the program calls.
 *
 * The program's names, read once per session with libelf and libdw
 * (con-complete-names.c): the functions and variables the executable
 * (and its shared libraries outside the system's directories) defines or
 * calls, every name its DWARF declares (functions, variables, types,
 * fields, enumerators, labels) and its source files. GDB also offers the
 * names of every other object in the process: the replay stub
 * (libmpich.so.12: rpl_*, log_*, ckpt_*, drdb_*), libc, ld.so, the vDSO.
 * Those objects' symbols and files are read too (the libraries GDB
 * lists), and a candidate whose name is one of theirs and not the
 * program's is left out, and so are the names reserved to the
 * implementation ('_' first) the program does not declare; every other
 * candidate (GDB's commands and settings, keywords, registers, values)
 * is kept.
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
 * it found, whose GDB answered (-1: none), and whether the program's
 * names from its ELF file did (else drdb's own words). */
struct con_compl_stat {
    double ms;
    int n;
    int rank;
    int elf;
};
void con_compl_last(const struct con_compl *cc, struct con_compl_stat *st);

#endif
