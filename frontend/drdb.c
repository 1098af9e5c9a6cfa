/* drdb: the data-replay debugger for MPI programs - entry point. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fe.h"

static const struct fe_subcmd *const subcmds[] = {
    &fe_sub_record,
    &fe_sub_replay,
    &fe_sub_console,
    &fe_sub_batch,
    &fe_sub_log,
    &fe_sub_check,
    &fe_sub_functions,
    &fe_sub_attach,
    &fe_sub_agent,
    NULL,
};

int fe_error(const char *fmt, ...)
{
    va_list ap;

    fputs("drdb: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

/* "log events" for drdb log's events. */
static const char *full_name(const struct fe_subcmd *cmd)
{
    static char name[64];
    snprintf(name, sizeof name, "%s%s%s",
             cmd->parent ? cmd->parent->name : "", cmd->parent ? " " : "",
             cmd->name);
    return name;
}

static void usage_line(const struct fe_subcmd *cmd, FILE *out)
{
    fprintf(out, "usage: drdb %s%s%s%s\n", full_name(cmd),
            cmd->opts ? " [OPTIONS]" : "", cmd->args[0] ? " " : "",
            cmd->args);
}

void fe_subcmd_usage(const struct fe_subcmd *cmd, FILE *out)
{
    usage_line(cmd, out);
    fputc('\n', out);
    fe_wrap(out, cmd->summary, 0, 0);
    if (cmd->help && cmd->help[0])
        fprintf(out, "\n%s", cmd->help);
    if (cmd->subs) {
        fputs("\ncommands:\n", out);
        for (const struct fe_subcmd *const *k = cmd->subs; *k; k++) {
            fprintf(out, "  %s %s\n", (*k)->name, (*k)->args);
            fe_wrap(out, (*k)->summary, 0, 6);
        }
    }
    if (cmd->opts) {
        fputs("\noptions:\n", out);
        fe_opts_help(cmd->opts, out);
    }
    if (cmd->more && cmd->more[0])
        fprintf(out, "\n%s", cmd->more);
    if (cmd->subs)
        fprintf(out, "\n'drdb %s COMMAND --help' shows a command's "
                "options.\n", cmd->name);
}

int fe_subcmd_misuse(const struct fe_subcmd *cmd)
{
    usage_line(cmd, stderr);
    fprintf(stderr, "       'drdb %s --help' says more\n", full_name(cmd));
    return 2;
}

int fe_subcmd_parse(const struct fe_subcmd *cmd, int argc, char **argv,
                    void *dst, int npos, struct fe_pos *pos)
{
    char name[64];
    snprintf(name, sizeof name, "%s", full_name(cmd));
    int rc = fe_opts_parse(cmd->opts, name, argc, argv, dst, npos, pos);
    if (rc == -2)
        fprintf(stderr, "       'drdb %s --help' lists its options\n", name);
    return rc;
}

int fe_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return 1;
    }
    return 0;
}

static void usage(FILE *out)
{
    fputs("usage: drdb [--version] [--help] COMMAND [ARGS]\n\n"
          "drdb records MPI programs and debugs any rank alone by replaying "
          "its log.\n\ncommands:\n", out);
    for (const struct fe_subcmd *const *k = subcmds; *k; k++)
        if (!(*k)->hidden)
            fprintf(out, "  %-12s %s\n", (*k)->name, (*k)->summary);
    fputs("\n'drdb COMMAND --help' shows a command's options.\n", out);
}

const struct fe_subcmd *fe_subcmd_find(const struct fe_subcmd *const *list,
                                       const char *name,
                                       const struct fe_subcmd *parent)
{
    const struct fe_subcmd *found = NULL;
    size_t len = strlen(name);
    int ambiguous = 0;
    char whose[80];
    snprintf(whose, sizeof whose, "%s%s", parent ? parent->name : "",
             parent ? " " : "");

    for (const struct fe_subcmd *const *k = list; *k; k++) {
        if (strcmp((*k)->name, name) == 0)
            return *k;
        if (!(*k)->hidden && len && strncmp((*k)->name, name, len) == 0) {
            ambiguous = found != NULL;
            found = *k;
        }
    }
    if (ambiguous) {
        fprintf(stderr, "drdb: ambiguous command 'drdb %s%s', could be:",
                whose, name);
        for (const struct fe_subcmd *const *k = list; *k; k++)
            if (!(*k)->hidden && strncmp((*k)->name, name, len) == 0)
                fprintf(stderr, " %s", (*k)->name);
        fputc('\n', stderr);
        return NULL;
    }
    if (!found)
        fe_error("unknown command 'drdb %s%s'; 'drdb %s--help' lists the "
                 "commands", whose, name, whose);
    return found;
}

/* The command ARGV[0] of CMD names, when CMD has commands of its own and
 * ARGV[0] names one (for --help); else CMD. */
static const struct fe_subcmd *help_target(const struct fe_subcmd *cmd,
                                           int argc, char **argv)
{
    if (!cmd->subs)
        return cmd;
    for (int i = 1; i < argc; i++)
        if (argv[i][0] != '-') {
            for (const struct fe_subcmd *const *k = cmd->subs; *k; k++)
                if (strcmp((*k)->name, argv[i]) == 0)
                    return *k;
            break;
        }
    return cmd;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        if (argc > 2 && strcmp(argv[1], "help") == 0) {
            const struct fe_subcmd *cmd = fe_subcmd_find(subcmds, argv[2],
                                                         NULL);
            if (!cmd)
                return 2;
            fe_subcmd_usage(help_target(cmd, argc - 2, argv + 2), stdout);
            return 0;
        }
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("drdb %s\n", DRDB_VERSION);
        return 0;
    }
    if (argv[1][0] == '-') {
        fe_error("unknown option '%s'; 'drdb --help' lists the options",
                 argv[1]);
        return 2;
    }

    const struct fe_subcmd *cmd = fe_subcmd_find(subcmds, argv[1], NULL);
    if (!cmd)
        return 2;
    if (fe_wants_help(argc - 1, argv + 1)) {
        fe_subcmd_usage(help_target(cmd, argc - 1, argv + 1), stdout);
        return 0;
    }
    return cmd->run(argc - 1, argv + 1);
}
