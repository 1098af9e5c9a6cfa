/* drdb functions: list the MPI function table. */
#include <stddef.h>
#include <string.h>

#include "fe.h"
#include "log.h"

/* The spec's class: which sides have a hand-written hook. */
static const char *const class_names[] = {"auto", "manual(rec)",
                                          "manual(rpl)", "manual"};

static const char *const dir_names[] = {"", "in ", "out ", "inout ",
                                        "async "};
static const char *const at_names[] = {"", "root", "nonroot", "all"};

/* The spec's roles: the kind, then the flags. */
static void print_roles(const struct log_func_desc *fn, char *buf,
                        size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "%s", log_kind_names[fn->kind]);
    for (int i = 0; i < LOG_FLAG_COUNT && n < len; i++)
        if (fn->roles & (1u << i))
            n += (size_t)snprintf(buf + n, len - n, ",%s", log_flag_names[i]);
    if (fn->unsupported && n < len)
        snprintf(buf + n, len - n, ",unsupported");
}

/* One line: id, class, roles and the prototype annotated as in the spec. */
static void print_func(const struct log_func_desc *fn, int names_only)
{
    char roles[128];
    if (names_only) {
        printf("%s\n", fn->name);
        return;
    }
    print_roles(fn, roles, sizeof roles);
    printf("%-4d %-11s %-22s %s %s(", fn->id, class_names[fn->hooks], roles,
           fn->ret, fn->name);
    for (int i = 0; i < fn->nargs; i++) {
        const struct log_arg_desc *a = &fn->args[i];
        printf("%s%s%s %s", i ? ", " : "", dir_names[a->dir], a->ctype,
               a->name);
        if (a->length)
            printf(" {%s%s%s%s}", a->length, a->at ? "; at " : "",
                   at_names[a->at], a->logged ? "; logged" : "");
    }
    printf("%s)\n", fn->variadic ? (fn->nargs ? ", ..." : "...")
                                  : (fn->nargs ? "" : "void"));
}

/* The kind named NAME, or -1. */
static int kind_by_name(const char *name)
{
    for (int k = 0; k < LOG_KIND_COUNT; k++)
        if (strcmp(log_kind_names[k], name) == 0)
            return k;
    return -1;
}

/* --class: an index into class_names (a LOG_HOOK_* mask), or these. */
enum { ANY_CLASS = -1, ANY_HOOK = 4 };

/* Whether FN is of class CLS: --class manual is any function with a
 * hook. */
static int class_matches(const struct log_func_desc *fn, int cls)
{
    if (cls == ANY_CLASS)
        return 1;
    return cls == ANY_HOOK ? fn->hooks != 0 : (int)fn->hooks == cls;
}

struct functions_opts {
    int names_only, cls, kind;
};

static int class_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    (void)o;
    int *cls = dst;
    for (*cls = 0; *cls < ANY_HOOK; ++*cls)
        if (strcmp(arg, class_names[*cls]) == 0)
            return 0;
    if (strcmp(arg, "manual") == 0)
        return 0; /* ANY_HOOK */
    return fe_error("--class takes auto, manual, manual(rec) or "
                    "manual(rpl), not '%s'", arg), -1;
}

static int kind_opt(void *dst, const struct fe_opt *o, const char *arg)
{
    (void)o;
    if ((*(int *)dst = kind_by_name(arg)) < 0)
        return fe_error("no role kind '%s': see the header of "
                        "log/mpi-functions.spec", arg), -1;
    return 0;
}

#define OFF(f) offsetof(struct functions_opts, f)
static const struct fe_opt functions_opts[] = {
    FE_FLAG('n', "names", OFF(names_only), "print names only"),
    FE_CALL('c', "class", "C", OFF(cls), class_opt, "only functions of class "
     "C (manual: a hook on either side)"),
    FE_CALL('k', "kind", "K", OFF(kind), kind_opt, "only functions of role "
     "kind K (send, coll, completion, ...)"),
    FE_END,
};
#undef OFF

static int run(int argc, char **argv)
{
    struct functions_opts o = {0, ANY_CLASS, -1};
    struct fe_pos pos;
    /* options first, then the names */
    if (fe_subcmd_parse(&fe_sub_functions, argc, argv, &o, 0, &pos) < 0)
        return 2;
    if (pos.rest < argc) {
        int status = 0;
        for (int i = pos.rest; i < argc; i++) {
            const struct log_func_desc *fn = log_func_by_name(argv[i]);
            if (fn)
                print_func(fn, o.names_only);
            else
                status = fe_error("no MPI function '%s' in the table",
                                  argv[i]);
        }
        return status;
    }
    for (int i = 0; i < log_funcs_count; i++)
        if (class_matches(&log_funcs[i], o.cls) &&
            (o.kind < 0 || log_funcs[i].kind == o.kind))
            print_func(&log_funcs[i], o.names_only);
    return 0;
}

const struct fe_subcmd fe_sub_functions = {
    .name = "functions",
    .args = "[NAME...]",
    .summary = "list the MPI functions drdb knows, with ids and prototypes",
    .help = "Prints one line per function, as log/mpi-functions.spec has "
            "it: permanent id,\nclass (auto: generated; manual(rec), "
            "manual(rpl), manual: a hand-written hook\nin the recorder, "
            "the replay stub, or both), roles (what the call is), and\n"
            "the annotated prototype. NAME may be MPI_ or PMPI_, in any "
            "case.\n",
    .opts = functions_opts,
    .run = run,
};
