/* drdb functions: list the MPI function table. */
#include <getopt.h>
#include <string.h>

#include "fe.h"
#include "log.h"

static const char *const class_names[] = {"auto", "manual"};

static const char *const dir_names[] = {"", "in ", "out ", "inout ",
                                        "async "};

/* One line: id, class and the prototype annotated as in the spec. */
static void print_func(const struct log_func_desc *fn, int names_only)
{
    if (names_only) {
        printf("%s\n", fn->name);
        return;
    }
    printf("%-4d %-6s %s %s(", fn->id, class_names[fn->cls], fn->ret,
           fn->name);
    for (int i = 0; i < fn->nargs; i++) {
        const struct log_arg_desc *a = &fn->args[i];
        printf("%s%s%s %s", i ? ", " : "", dir_names[a->dir], a->ctype,
               a->name);
        if (a->length)
            printf(" {%s}", a->length);
    }
    printf("%s)\n", fn->variadic ? (fn->nargs ? ", ..." : "...")
                                  : (fn->nargs ? "" : "void"));
}

static int run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"names", no_argument, NULL, 'n'},
        {"class", required_argument, NULL, 'c'},
        {NULL, 0, NULL, 0},
    };
    int names_only = 0, cls = -1, c;

    while ((c = getopt_long(argc, argv, "+nc:", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            names_only = 1;
            break;
        case 'c':
            if (strcmp(optarg, "auto") == 0)
                cls = LOG_CLASS_AUTO;
            else if (strcmp(optarg, "manual") == 0)
                cls = LOG_CLASS_MANUAL;
            else
                return fe_error("--class takes 'auto' or 'manual', not '%s'",
                                optarg);
            break;
        default:
            fe_subcmd_usage(&fe_sub_functions, stderr);
            return 2;
        }
    }

    if (optind < argc) {
        int status = 0;
        for (int i = optind; i < argc; i++) {
            const struct log_func_desc *fn = log_func_by_name(argv[i]);
            if (fn)
                print_func(fn, names_only);
            else
                status = fe_error("no MPI function '%s' in the table",
                                  argv[i]);
        }
        return status;
    }
    for (int i = 0; i < log_funcs_count; i++)
        if (cls < 0 || (int)log_funcs[i].cls == cls)
            print_func(&log_funcs[i], names_only);
    return 0;
}

const struct fe_subcmd fe_sub_functions = {
    .name = "functions",
    .args = "[--names] [--class auto|manual] [NAME...]",
    .summary = "list the MPI functions drdb knows, with ids and prototypes",
    .help = "Prints one line per function: permanent id, class (auto: "
            "generated wrapper,\nmanual: hand-written), and the annotated "
            "prototype. NAME may be MPI_ or PMPI_,\nin any case.\n\n"
            "  -n, --names     print names only\n"
            "  -c, --class C   only functions of class C\n",
    .run = run,
};
