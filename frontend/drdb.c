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
};
#define N_SUBCMDS (sizeof(subcmds) / sizeof(subcmds[0]))

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

void fe_subcmd_usage(const struct fe_subcmd *cmd, FILE *out)
{
    fprintf(out, "usage: drdb %s %s\n\n%s\n", cmd->name, cmd->args,
            cmd->summary);
    if (cmd->help && cmd->help[0])
        fprintf(out, "\n%s", cmd->help);
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
    for (size_t i = 0; i < N_SUBCMDS; i++)
        if (!subcmds[i]->hidden)
            fprintf(out, "  %-12s %s\n", subcmds[i]->name,
                    subcmds[i]->summary);
    fputs("\n'drdb COMMAND --help' shows a command's options.\n", out);
}

/* The subcommand named by NAME or a unique prefix of it. */
static const struct fe_subcmd *find_subcmd(const char *name)
{
    const struct fe_subcmd *found = NULL;
    size_t len = strlen(name);
    int ambiguous = 0;

    for (size_t i = 0; i < N_SUBCMDS; i++) {
        if (strcmp(subcmds[i]->name, name) == 0)
            return subcmds[i];
        if (!subcmds[i]->hidden &&
            strncmp(subcmds[i]->name, name, len) == 0) {
            ambiguous = found != NULL;
            found = subcmds[i];
        }
    }
    if (ambiguous) {
        fprintf(stderr, "drdb: ambiguous command '%s', could be:", name);
        for (size_t i = 0; i < N_SUBCMDS; i++)
            if (!subcmds[i]->hidden &&
                strncmp(subcmds[i]->name, name, len) == 0)
                fprintf(stderr, " %s", subcmds[i]->name);
        fputc('\n', stderr);
        return NULL;
    }
    if (!found)
        fe_error("unknown command '%s'; 'drdb --help' lists the commands",
                 name);
    return found;
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
            const struct fe_subcmd *cmd = find_subcmd(argv[2]);
            if (!cmd)
                return 2;
            fe_subcmd_usage(cmd, stdout);
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

    const struct fe_subcmd *cmd = find_subcmd(argv[1]);
    if (!cmd)
        return 2;
    if (fe_wants_help(argc - 1, argv + 1)) {
        fe_subcmd_usage(cmd, stdout);
        return 0;
    }
    return cmd->run(argc - 1, argv + 1);
}
