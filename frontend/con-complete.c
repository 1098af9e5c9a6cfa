/*
 * Tab completion of the console's command lines (con-complete.h): drdb's
 * commands, sets, options and subjects from its own tables; everything
 * GDB's from GDB (-complete), less the names of the objects that are not
 * the program (the replay stub, libc, ld.so); the program's names from
 * its ELF file when no GDB can answer.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "con-complete-int.h"
#include "con-complete.h"
#include "con.h"

/* ---- a list of completions ---------------------------------------------- */

struct words {
    char **v;
    size_t n, cap;
};

static void words_add(struct words *w, const char *s, size_t len)
{
    if (w->n + 2 > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 64;
        char **v = realloc(w->v, cap * sizeof *v);
        if (!v)
            return;
        w->v = v;
        w->cap = cap;
    }
    char *copy = strndup(s, len);
    if (copy)
        w->v[w->n++] = copy;
}

static void words_adds(struct words *w, const char *s)
{
    words_add(w, s, strlen(s));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* W sorted, each once, NULL-terminated; NULL when empty. */
static char **words_finish(struct words *w)
{
    if (!w->n) {
        free(w->v);
        return NULL;
    }
    qsort(w->v, w->n, sizeof *w->v, cmp_str);
    size_t k = 0;
    for (size_t i = 0; i < w->n; i++)
        if (k && strcmp(w->v[k - 1], w->v[i]) == 0)
            free(w->v[i]);
        else
            w->v[k++] = w->v[i];
    w->v[k] = NULL;
    return w->v;
}

void con_compl_list_free(char **list)
{
    for (size_t i = 0; list && list[i]; i++)
        free(list[i]);
    free(list);
}

/* ---- the completer ------------------------------------------------------ */

#define MAX_OBJS 64

struct con_compl {
    struct con *c;
    /* the program's names: its executable's and its own libraries' */
    int prog_state; /* 0: not read yet, 1: read, -1: unreadable */
    struct con_names prog;
    char *objs[MAX_OBJS]; /* the objects read as the program's */
    int nobjs;
    /* the other objects' names: the libraries GDB lists that are not the
     * program's */
    int foreign_state;
    struct con_names foreign;
    /* GDB's commands ("set print pretty", "info b"; NM_LOCAL), and the
     * prefixes asked for them (NM_FILE) */
    struct con_names cmds;
    int loc; /* the word being completed is a location (break, list) */
    struct con_compl_stat last;
};

struct con_compl *con_compl_new(struct con *c)
{
    struct con_compl *cc = calloc(1, sizeof *cc);
    if (cc)
        cc->c = c;
    return cc;
}

void con_compl_free(struct con_compl *cc)
{
    if (!cc)
        return;
    con_names_release(&cc->prog);
    con_names_release(&cc->foreign);
    con_names_release(&cc->cmds);
    for (int i = 0; i < cc->nobjs; i++)
        free(cc->objs[i]);
    free(cc);
}

void con_compl_last(const struct con_compl *cc, struct con_compl_stat *st)
{
    *st = cc->last;
}

/* Is PATH a system library, or MPI's (which the replay stub stands for),
 * rather than one of the program's own? */
static int system_lib(const struct con_compl *cc, const char *path)
{
    static const char *const dirs[] = {
        "/lib/",     "/lib64/",     "/lib32/",     "/libx32/",
        "/usr/lib/", "/usr/lib64/", "/usr/lib32/", "/usr/libx32/"};
    static const char *const mpi[] = {"libmpi",   "libpmpi",   "libfmpich",
                                      "libopa",   "libmpl",    "libdrdb",
                                      "ld-linux", "linux-vdso"};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (strncmp(path, dirs[i], strlen(dirs[i])) == 0)
            return 1;
    for (size_t i = 0; i < sizeof mpi / sizeof mpi[0]; i++)
        if (strncmp(base, mpi[i], strlen(mpi[i])) == 0)
            return 1;
    size_t sl = strlen(cc->c->stub);
    return sl && strncmp(path, cc->c->stub, sl) == 0 && path[sl] == '/';
}

static int read_already(const struct con_compl *cc, const char *real)
{
    for (int i = 0; i < cc->nobjs; i++)
        if (strcmp(cc->objs[i], real) == 0)
            return 1;
    return 0;
}

/* One object of the program at PATH (the executable, or a library of
 * it), and the libraries it needs outside the system's, read once. */
static void read_program_object(struct con_compl *cc, const char *path,
                                int depth)
{
    char real[PATH_MAX];
    if (cc->nobjs >= MAX_OBJS || depth > 8 || !realpath(path, real) ||
        read_already(cc, real))
        return;
    struct con_names_deps d = {0};
    if (con_names_read(&cc->prog, &cc->foreign, real, &d) < 0)
        return;
    cc->objs[cc->nobjs] = strdup(real);
    cc->nobjs += cc->objs[cc->nobjs] != NULL;
    /* ld.so's order: DT_RPATH (without DT_RUNPATH), LD_LIBRARY_PATH,
     * DT_RUNPATH; the system's directories are not the program's */
    char origin[PATH_MAX];
    snprintf(origin, sizeof origin, "%s", real);
    *strrchr(origin, '/') = '\0';
    for (int i = 0; i < d.n; i++) {
        char lib[8192];
        if (strchr(d.needed[i], '/')
                ? snprintf(lib, sizeof lib, "%s", d.needed[i]) <
                      (int)sizeof lib
                : (!d.runpath[0] &&
                   con_names_find_lib(d.rpath, origin, d.needed[i], lib,
                                      sizeof lib) == 0) ||
                      con_names_find_lib(getenv("LD_LIBRARY_PATH"), origin,
                                         d.needed[i], lib, sizeof lib) == 0 ||
                      con_names_find_lib(d.runpath, origin, d.needed[i], lib,
                                         sizeof lib) == 0)
            if (!system_lib(cc, lib))
                read_program_object(cc, lib, depth + 1);
    }
    con_names_deps_release(&d);
}

/* The program's names, read on first use: 0, or -1 when its executable
 * cannot be read here (a rank replayed on another host). */
static int program_names(struct con_compl *cc)
{
    if (!cc->prog_state) {
        read_program_object(cc, cc->c->exe, 0);
        cc->prog_state = cc->nobjs ? 1 : -1;
    }
    return cc->prog_state > 0 ? 0 : -1;
}

/* ---- asking GDB --------------------------------------------------------- */

/* The rank whose GDB answers: the focus's first rank GDB can answer on
 * (stopped, or its program ended), else any other's. NULL: none. */
static struct con_rank *answering_rank(struct con *c)
{
    for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < c->nranks; r++) {
            struct con_rank *k = c->ranks[r];
            if ((pass || rs_has(&c->focus, r)) && k->gdb &&
                (con_rank_halted(k) || k->state == CON_EXITED))
                return k;
        }
    return NULL;
}

#define GDB_WAIT_MS 2000

/* MC (released here) on K's GDB into REP: 0 (REP released by the
 * caller), or -1. */
static int ask(struct con_rank *k, struct mi_cmd *mc, struct mi_reply *rep)
{
    int rc = -1;
    if (mi_cmd_str(mc)) {
        rc = mi_gdb_exec_sync(k->gdb, mi_cmd_str(mc), rep, GDB_WAIT_MS);
        if (rc != 0)
            mi_reply_release(rep);
    }
    mi_cmd_release(mc);
    return rc ? -1 : 0;
}

/* Is LINE (words separated by one space) one of GDB's commands ("set
 * write", "info b")? What `help HEAD` lists of HEAD, LINE without its
 * last word, is asked once per HEAD ("set": "set write -- ...", "set
 * print, set p, set pr -- ..."). */
static int gdb_command(struct con_compl *cc, struct con_rank *k,
                       const char *line, size_t len)
{
    if (con_names_has(&cc->cmds, line, len, NM_LOCAL))
        return 1;
    size_t h = len;
    while (h && line[h - 1] != ' ')
        h--;
    if (!h--)
        return 0;
    for (size_t i = 0; i < h; i++) /* words of commands only */
        if (!islower((unsigned char)line[i]) &&
            !isdigit((unsigned char)line[i]) && !strchr(" -_", line[i]))
            return 0;
    if (con_names_has(&cc->cmds, line, h, NM_FILE)) /* asked */
        return 0;
    con_names_add(&cc->cmds, line, h, NM_FILE);
    char cli[1100];
    struct mi_cmd mc;
    struct mi_reply rep;
    snprintf(cli, sizeof cli, "help %.*s", (int)h, line);
    mi_cmd_init(&mc);
    mi_cmd_console(&mc, cli);
    if (ask(k, &mc, &rep) < 0)
        return 0;
    for (const char *p = rep.console; *p;) {
        size_t n = strcspn(p, "\n");
        const char *dash = strstr(p, " -- ");
        for (const char *s = p; dash && dash < p + n && s < dash;) {
            size_t m = strcspn(s, ",");
            if (s + m > dash)
                m = (size_t)(dash - s);
            con_names_add(&cc->cmds, s, m, NM_LOCAL);
            s += m;
            while (*s == ',' || *s == ' ')
                s++;
        }
        p += n + (p[n] == '\n');
    }
    mi_reply_release(&rep);
    return con_names_has(&cc->cmds, line, len, NM_LOCAL);
}

/* The other objects in K's process, once: every library GDB lists that is
 * not one of the program's, and the vDSO. */
static void foreign_names(struct con_compl *cc, struct con_rank *k)
{
    struct mi_cmd mc;
    struct mi_reply rep;
    if (cc->foreign_state)
        return;
    mi_cmd_init(&mc);
    mi_cmd_op(&mc, "-file-list-shared-libraries");
    if (ask(k, &mc, &rep) < 0)
        return;
    con_names_read_vdso(&cc->foreign);
    /* the replay stub here: the one a remote host's GDB loads is of the
     * same build, at a path that need not be one here */
    char stub[PATH_MAX + 32];
    snprintf(stub, sizeof stub, "%s/libmpich.so.12", cc->c->stub);
    con_names_read(&cc->foreign, NULL, stub, NULL);
    const struct mi_value *libs = mi_get(rep.record, "shared-libraries");
    for (const struct mi_value *v = libs ? libs->first : NULL; v;
         v = v->next) {
        const struct mi_value *h = mi_value_get(v, "host-name");
        char real[PATH_MAX];
        if (h && h->str && realpath(h->str, real) && !read_already(cc, real) &&
            con_names_read(&cc->foreign, NULL, real, NULL) == 0)
            cc->foreign_state = 1;
    }
    mi_reply_release(&rep);
}

/* ---- GDB's completions, the program's only ------------------------------ */

/* Is W, a word GDB offered (CAND: the whole line it completes), a name of
 * another object in the process (a symbol or a source file of the stub,
 * libc, ld.so) that is not also the program's? GDB's own commands never
 * are ("set write": libc has a write). */
static int not_the_programs(struct con_compl *cc, struct con_rank *k,
                            const char *cand, const char *w)
{
    /* GDB's names of PLT and GOT entries (read@plt, malloc@got[plt]) and
     * of absolute symbols (*ABS*+0x9bd00: libc's IFUNCs) */
    if (strstr(w, "@plt") || strstr(w, "@got") || strstr(w, "*ABS*"))
        return 1;
    size_t n = strlen(w);
    while (n && (w[n - 1] == ':' || w[n - 1] == ']')) /* "rpl-debug.c:", */
        n--;                                          /* "ckpt[xarea]" */
    if (n && w[n - 1] == ')') {                       /* C++: "ns::f(int)" */
        int depth = 0;
        while (n) {
            char ch = w[--n];
            depth += ch == ')' ? 1 : ch == '(' ? -1 : 0;
            if (!depth)
                break;
        }
    }
    size_t f = n; /* a file: "x.c", "../replayer/rpl-debug.c" */
    while (f && (con_names_ident((unsigned char)w[f - 1]) ||
                 strchr("./+-", w[f - 1])))
        f--;
    if (memchr(w + f, '.', n - f) || memchr(w + f, '/', n - f)) {
        if (con_names_has(&cc->prog, w + f, n - f, 0))
            return 0;
        if (con_names_has(&cc->foreign, w + f, n - f, 0)) /* GLIBC_2.17 */
            return 1;
    }
    size_t i = n; /* the name it ends with: "&board", "ckpt.make_room" */
    while (i && con_names_ident((unsigned char)w[i - 1]))
        i--;
    /* the program's, as what the word is: a location is a function of
     * its (break index: not libc's index for a local named index) */
    if (i == n || isdigit((unsigned char)w[i]) ||
        con_names_has(&cc->prog, w + i, n - i,
                      cc->loc ? NM_FUNC | NM_LABEL | NM_TYPE : 0))
        return 0;
    /* a name reserved to the implementation (the C library's, the
     * compiler's: __vdso_time) that the program does not declare; GDB's
     * convenience variables ($_exitcode) are */
    if (w[i] == '_' && (i == 0 || w[i - 1] != '$'))
        return 1;
    if (!con_names_has(&cc->foreign, w + i, n - i, 0))
        return 0;
    /* one of theirs, unless a command of GDB's */
    char norm[1024];
    size_t len = 0;
    for (const char *p = cand; *p && len + 1 < sizeof norm; p++)
        if (!isspace((unsigned char)*p))
            norm[len++] = *p;
        else if (len && p[1] && !isspace((unsigned char)p[1]))
            norm[len++] = ' ';
    return !gdb_command(cc, k, norm, len);
}

/* At most this many candidates from GDB: above, its list is cut short
 * and every candidate cost (about 10 us each, GDB's, MI's and the
 * filter's: 200 ms for the 13,000 names of a program of 8,000 and its
 * libraries); the program's names are then taken from its ELF file. */
#define GDB_MAX_COMPLETIONS "1000"

/* GDB's completions of LINE (a GDB command line, TEXT its last word) on
 * K's GDB, as the words that replace TEXT: the program's only, when its
 * names could be read. 1 when GDB's list was cut short, else 0. */
static int gdb_words(struct con_compl *cc, struct con_rank *k,
                     const char *line, const char *text, struct words *out)
{
    struct mi_cmd mc;
    struct mi_reply rep;
    size_t off = strlen(line) - strlen(text);
    int filter = program_names(cc) == 0;
    if (filter)
        foreign_names(cc, k);
    /* Not GDB's first 200 (its max-completions): the program's may come
     * after libc's and the stub's ("break r") */
    mi_cmd_init(&mc);
    mi_cmd_op(&mc, "-gdb-set");
    mi_cmd_arg(&mc, "max-completions");
    mi_cmd_arg(&mc, GDB_MAX_COMPLETIONS);
    if (ask(k, &mc, &rep) == 0)
        mi_reply_release(&rep);
    mi_cmd_init(&mc);
    mi_cmd_op(&mc, "-complete");
    mi_cmd_arg_quoted(&mc, line);
    if (ask(k, &mc, &rep) < 0)
        return 0;
    const struct mi_value *list = mi_get(rep.record, "matches");
    const char *cut = mi_get_str(rep.record, "max_completions_reached");
    int cut_short = cut && strcmp(cut, "1") == 0;
    for (const struct mi_value *v = list ? list->first : NULL; v; v = v->next)
        if (v->str && v->len >= off && strncmp(v->str, line, off) == 0 &&
            !(filter && not_the_programs(cc, k, v->str, v->str + off)))
            words_adds(out, v->str + off);
    mi_reply_release(&rep);
    return cut_short;
}

/* ---- the program's names, without GDB ----------------------------------- */

#define LOC (NM_FUNC | NM_FILE)
#define EXPR (NM_FUNC | NM_VAR)

/* What the argument of GDB command line LINE names, to complete it from
 * the program's names: a location (break, list), an expression (print),
 * or 0 when not known. */
static unsigned arg_kinds(const char *line)
{
    static const char *const loc[] = {
        "advance", "b",    "br",        "break",      "clear", "dprintf",
        "edit",    "jump", "info line", "info scope", "l",     "list",
        "tbreak",  "u",    "until",     NULL};
    static const char *const expr[] = {
        "awatch",  "call",   "display", "info address",
        "inspect", "output", "p",       "print",
        "ptype",   "rwatch", "set var", "set variable",
        "watch",   "whatis", "x",       NULL};
    while (isspace((unsigned char)*line))
        line++;
    for (int e = 0; e < 2; e++)
        for (const char *const *c = e ? expr : loc; *c; c++) {
            size_t n = strlen(*c);
            if (strncmp(line, *c, n) == 0 &&
                (isspace((unsigned char)line[n]) || line[n] == '/'))
                return e ? EXPR : LOC;
        }
    return 0;
}

static void words_add2(struct words *out, const char *head, size_t hlen,
                       const char *tail)
{
    size_t tlen = strlen(tail);
    char *s = malloc(hlen + tlen + 1);
    if (!s)
        return;
    memcpy(s, head, hlen);
    memcpy(s + hlen, tail, tlen + 1);
    words_add(out, s, hlen + tlen);
    free(s);
}

static int all_ident(const char *s)
{
    if (!con_names_ident_start((unsigned char)*s))
        return 0;
    while (con_names_ident((unsigned char)*s))
        s++;
    return !*s;
}

/* The program's names of KINDS that complete the name TEXT ends with (a
 * file's name too, for NM_FILE), as the words that replace TEXT. */
static void local_words(struct con_compl *cc, const char *text, unsigned kinds,
                        struct words *out)
{
    if (!kinds || program_names(cc) < 0)
        return;
    size_t n = strlen(text), i = n, f = n;
    while (i && con_names_ident((unsigned char)text[i - 1]))
        i--;
    while (f && (con_names_ident((unsigned char)text[f - 1]) ||
                 strchr("./+-", text[f - 1])))
        f--;
    int path = memchr(text + f, '/', n - f) != NULL;
    for (size_t j = 0; j < cc->prog.n; j++) {
        const char *nm = cc->prog.name[j];
        unsigned kd = cc->prog.kinds[j];
        if ((kd & kinds & ~NM_FILE) && strncmp(nm, text + i, n - i) == 0 &&
            all_ident(nm))
            words_add2(out, text, i, nm);
        else if ((kd & kinds & NM_FILE) && strncmp(nm, text + f, n - f) == 0 &&
                 (path || !strchr(nm, '/')))
            words_add2(out, text, f, nm);
    }
}

/* ---- drdb's own words --------------------------------------------------- */

static void prefixed(struct words *out, const char *const *list, size_t n,
                     const char *text)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(list[i], text, strlen(text)) == 0)
            words_adds(out, list[i]);
}

/* The commands' names: drdb's, the user's (define) and GDB's (every
 * other command is GDB's). */
static void command_words(struct con *c, const char *text, struct words *out)
{
    size_t len = strlen(text);
    const char *u;
    for (const struct con_cmd *k = con_cmd_next(NULL); k; k = con_cmd_next(k))
        if (strncmp(k->name, text, len) == 0)
            words_adds(out, k->name);
    for (size_t i = 0; (u = con_flow_user_name(c, i)); i++)
        if (strncmp(u, text, len) == 0)
            words_adds(out, u);
    for (int i = 0; (u = con_gdb_name(c, i)); i++)
        if (strncmp(u, text, len) == 0 && !con_cmd_lookup(u, strlen(u)))
            words_adds(out, u);
}

/* The rank sets' names, "@" first (TEXT without it). */
static void set_words(struct con *c, const char *text, struct words *out)
{
    static const char *const builtin[] = {"all",    "stopped",  "running",
                                          "exited", "diverged", "lost"};
    size_t nb = sizeof builtin / sizeof builtin[0];
    for (size_t i = 0; i < nb + (size_t)c->nsets; i++) {
        const char *w = i < nb ? builtin[i] : c->sets[i - nb].name;
        if (strncmp(w, text, strlen(text)) == 0)
            words_add2(out, "@", 1, w);
    }
}

struct opt_words {
    const char *text;
    struct words *out;
    int any;
};

static void opt_word(struct opt_words *ow, const char *name, size_t len)
{
    char buf[128];
    ow->any = 1;
    snprintf(buf, sizeof buf, "--%.*s", (int)len, name);
    if (strncmp(buf, ow->text, strlen(ow->text)) == 0)
        words_adds(ow->out, buf);
}

static int opt_each(const struct fe_opt *o, size_t off, void *ud)
{
    (void)off;
    if (o->name)
        opt_word(ud, o->name, strlen(o->name));
    return 0;
}

/* The options of drdb command K that complete TEXT ("--co": --count):
 * those of its table, its argument template and its usage line. 1 when
 * K takes options, else 0. */
static int option_words(const struct con_cmd *k, const char *text,
                        struct words *out)
{
    struct opt_words ow = {text, out, 0};
    const char *from[] = {k->args, k->usage};
    if (k->opts)
        fe_opts_each(k->opts, opt_each, &ow);
    for (size_t i = 0; i < 2; i++)
        for (const char *p = from[i] ? strstr(from[i], "--") : NULL; p;
             p = strstr(p + 2, "--")) {
            size_t n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
            if (n && (p == from[i] || !isalnum((unsigned char)p[-1])))
                opt_word(&ow, p + 2, n);
        }
    return ow.any;
}

/* LINE[FROM..TO) without its "@SET" words after HEAD, into BUF: 0, or -1
 * when it does not fit. */
static int gdb_line(char *buf, size_t len, const char *head, const char *line,
                    size_t from, size_t to)
{
    size_t n = (size_t)snprintf(buf, len, "%s", head);
    for (size_t i = from; i < to && n + 1 < len;) {
        if (line[i] == '@' &&
            (i == from || isspace((unsigned char)line[i - 1]))) {
            i += con_word_len(line + i);
            while (i < to && isspace((unsigned char)line[i]))
                i++;
            continue;
        }
        buf[n++] = line[i++];
    }
    if (n + 1 >= len)
        return -1;
    buf[n] = '\0';
    return 0;
}

/* The arguments LINE[FROM..TO) of GDB command HEAD ("" when the line's
 * first word is GDB's), TEXT the last word: GDB's completions, or the
 * program's names when no rank's GDB can answer. */
static void gdb_args(struct con_compl *cc, const char *head, const char *line,
                     size_t from, size_t to, const char *text,
                     struct words *out)
{
    char gl[4096];
    size_t tl = strlen(text);
    if (gdb_line(gl, sizeof gl, head, line, from, to) < 0 || strlen(gl) < tl ||
        strcmp(gl + strlen(gl) - tl, text) != 0)
        return;
    struct con_rank *k = answering_rank(cc->c);
    unsigned kinds = arg_kinds(gl);
    size_t had = out->n;
    cc->loc = kinds == LOC;
    if (k) {
        cc->last.rank = k->rank;
        size_t i = strlen(text);
        while (i && con_names_ident((unsigned char)text[i - 1]))
            i--;
        /* ($_..., $pc: GDB's own names, never the program's) */
        if (!gdb_words(cc, k, gl, text, out) || !kinds ||
            program_names(cc) < 0 || (i && text[i - 1] == '$'))
            return;
        /* cut short: the program's names, all of them, instead */
        while (out->n > had)
            free(out->v[--out->n]);
        cc->last.rank = -1;
    }
    cc->last.elf = kinds != 0;
    local_words(cc, text, kinds, out);
}

/* The K-th word (from 0) of LINE[FROM..TO) that is not a "@SET", into
 * *W (*LEN bytes): 0, or -1 when there are fewer. */
static int nth_word(const char *line, size_t from, size_t to, int k,
                    const char **w, size_t *len)
{
    for (size_t i = from; i < to;) {
        if (isspace((unsigned char)line[i])) {
            i++;
            continue;
        }
        size_t n = con_word_len(line + i);
        if (i + n > to)
            n = to - i;
        if (line[i] != '@' && k-- == 0) {
            *w = line + i;
            *len = n;
            return 0;
        }
        i += n ? n : 1;
    }
    return -1;
}

static int word_is(const char *w, size_t len, const char *s)
{
    return strlen(s) == len && strncmp(w, s, len) == 0;
}

/* drdb commands whose arguments are a GDB command's (after SKIP words of
 * their own: condition N EXPRESSION). */
static const struct {
    const char *drdb, *gdb;
    int skip;
} as_gdb[] = {
    {"advance", "advance", 0},  {"assert", "print", 0},
    {"bisect", "print", 0},     {"break", "break", 0},
    {"condition", "print ", 1}, {"display", "display", 0},
    {"frame", "frame", 0},      {"if", "print", 0},
    {"list", "list", 0},        {"print", "print", 0},
    {"ptype", "ptype", 0},      {"tbreak", "tbreak", 0},
    {"watch", "watch", 0},      {"whatis", "whatis", 0},
    {"while", "print", 0},      {"x", "x", 0},
};

static void complete_line(struct con_compl *cc, const char *line, size_t start,
                          size_t end, const char *text, struct words *out)
{
    static const char *const set_opts[] = {
        "checkpoint-every", "checkpoint-interval",
        "groups",           "merge",
        "output-color",     "prefix",
        "timeout",          "timing",
        "var",              "variable",
        "width"};
    static const char *const on_off[] = {"off", "on"};
    static const char *const subjects[] = {"breakpoints", "display",
                                           "findings", "sets"};
    struct con *c = cc->c;
    if (text[0] == '@') {
        set_words(c, text + 1, out);
        return;
    }
    /* the command's name: the first word, or the second after "@SET" */
    size_t i = 0;
    while (i < start && isspace((unsigned char)line[i]))
        i++;
    if (i < start && line[i] == '@') {
        i += con_word_len(line + i);
        while (i < start && isspace((unsigned char)line[i]))
            i++;
    }
    if (i >= start) {
        command_words(c, text, out);
        return;
    }
    /* it ends at a space or, as in GDB, at a '/' (x/4xw, p/x) */
    size_t e = i;
    while (e < end && !isspace((unsigned char)line[e]) &&
           (line[e] != '/' || e == i))
        e++;
    for (size_t u = 0; con_flow_user_name(c, u); u++)
        if (word_is(line + i, e - i, con_flow_user_name(c, u)))
            return; /* a user command's arguments: its own */
    int means;
    const char *canon, *why;
    const struct con_cmd *k = con_cmd_meaning(c, line + i, e - i, &means,
                                              &canon, &why);
    if (means != CON_MEANS_CONSOLE || !k) {
        gdb_args(cc, "", line, i, end, text, out);
        return;
    }
    if (text[0] == '-' && option_words(k, text, out))
        return;
    const char *w0 = NULL;
    size_t l0 = 0;
    int first = nth_word(line, e, start, 0, &w0, &l0) < 0; /* TEXT is */
    if (strcmp(k->name, "help") == 0) {
        if (first)
            command_words(c, text, out);
    } else if (strcmp(k->name, "gdb") == 0) {
        gdb_args(cc, "", line, e, end, text, out);
    } else if (strcmp(k->name, "until-call") == 0) {
        cc->last.elf = 1;
        if (first && program_names(cc) == 0)
            for (size_t j = 0; j < cc->prog.n; j++)
                if (strncmp(cc->prog.name[j], "MPI_", 4) == 0 &&
                    (cc->prog.kinds[j] & NM_FUNC) &&
                    strncmp(cc->prog.name[j], text, strlen(text)) == 0)
                    words_adds(out, cc->prog.name[j]);
    } else if (strcmp(k->name, "set") == 0) {
        const char *w1;
        size_t l1;
        int second = !first && nth_word(line, e, start, 1, &w1, &l1) < 0;
        if (first)
            prefixed(out, set_opts, sizeof set_opts / sizeof set_opts[0],
                     text);
        if (second && (word_is(w0, l0, "merge") || word_is(w0, l0, "prefix") ||
                       word_is(w0, l0, "timing") ||
                       word_is(w0, l0, "output-color")))
            prefixed(out, on_off, 2, text);
        else if (second && (word_is(w0, l0, "checkpoint-interval") ||
                            word_is(w0, l0, "checkpoint-every")))
            prefixed(out, on_off, 1, text);
        else if (first ||
                 !(word_is(w0, l0, "groups") || word_is(w0, l0, "timeout")))
            gdb_args(cc, "set", line, e, end, text, out);
    } else if (strcmp(k->name, "info") == 0) {
        if (first)
            prefixed(out, subjects, sizeof subjects / sizeof subjects[0],
                     text);
        gdb_args(cc, "info", line, e, end, text, out);
    } else {
        for (size_t g = 0; g < sizeof as_gdb / sizeof as_gdb[0]; g++) {
            if (strcmp(k->name, as_gdb[g].drdb) != 0)
                continue;
            size_t from = e;
            if (as_gdb[g].skip) {
                if (first)
                    return;
                from = (size_t)(w0 + l0 - line);
                while (from < end && isspace((unsigned char)line[from]))
                    from++;
            }
            gdb_args(cc, as_gdb[g].gdb, line, from, end, text, out);
            break;
        }
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

char **con_compl_words(struct con_compl *cc, const char *line, int start,
                       int end, int *nospace)
{
    double t0 = now_ms();
    struct words out = {0};
    char *text = strndup(line + start, (size_t)(end - start));
    *nospace = 0;
    cc->last.rank = -1;
    cc->last.elf = 0;
    cc->loc = 0;
    if (text)
        complete_line(cc, line, (size_t)start, (size_t)end, text, &out);
    free(text);
    char **list = words_finish(&out);
    size_t n = 0;
    while (list && list[n])
        n++;
    if (n == 1) { /* "complete.c:", "dir/": not a whole word yet */
        size_t len = strlen(list[0]), f = len;
        while (f && (con_names_ident((unsigned char)list[0][f - 1]) ||
                     strchr("./+-", list[0][f - 1])))
            f--;
        char *colon;
        /* a location's one source file: its functions follow, as GDB's
         * own completion of a file alone has it */
        if (cc->loc && memchr(list[0] + f, '.', len - f) &&
            con_names_has(&cc->prog, list[0] + f, len - f, NM_FILE) &&
            (colon = realloc(list[0], len + 2))) {
            memcpy(colon + len, ":", 2);
            list[0] = colon;
            len++;
        }
        *nospace = len && (list[0][len - 1] == ':' || list[0][len - 1] == '/');
    }
    cc->last.n = (int)n;
    cc->last.ms = now_ms() - t0;
    return list;
}
