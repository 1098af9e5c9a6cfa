/*
 * Source lines of call sites (ev-srcline.h), with elfutils' libdwfl: each
 * object is reported at load bias 0, so a recorded offset (the ELF
 * virtual address of the return address) is an address in its module.
 * The line is that of the call instruction: the address before the return
 * address. The function is the innermost DWARF scope's (an inlined
 * function's, a Fortran procedure's own name), else the ELF symbol's.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* <elf.h>'s EV_NONE (an ELF version) is not events.h's (no event). */
#undef EV_NONE
#include "ev-dwvar.h"
#include "ev-srcline.h"
#include "log-reader.h"
#include "term-escape.h"
#include "util.h"

/* One object of one rank's call sites: its record, and its module once
 * loaded (or why it is not). */
struct obj {
    int rank;
    uint32_t id;
    int found;             /* a record names it */
    struct log_object o;
    Dwfl *dwfl;             /* NULL when shared (another rank's) */
    Dwfl_Module *mod;
    char why[1200];        /* no module: why */
};

struct ev_srcline_cache {
    struct obj *objs;
    size_t n, cap;
};

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

/* The run description's `exe` when it names a file of the same name as
 * PATH (the program, moved since): else NULL. */
static const char *run_exe(struct ev_run *x, const char *path, char *buf,
                           size_t len)
{
    struct log_run run;
    if (log_run_open(&run, x->dir, NULL, 0) < 0)
        return NULL;
    const char *exe = log_run_get(&run, "exe", buf, len);
    log_run_release(&run);
    if (!exe || strcmp(exe, path) == 0)
        return NULL;
    const char *a = strrchr(exe, '/'), *b = strrchr(path, '/');
    return strcmp(a ? a + 1 : exe, b ? b + 1 : path) == 0 ? exe : NULL;
}

/* Loads O's module from PATH: 0, or -1 with the reason in O->why. */
static int load_from(struct obj *o, const char *path)
{
    if (access(path, R_OK) != 0) {
        snprintf(o->why, sizeof o->why, "'%s' is missing", path);
        return -1;
    }
    o->dwfl = dwfl_begin(&callbacks);
    if (!o->dwfl) {
        snprintf(o->why, sizeof o->why, "libdw: %s", dwfl_errmsg(-1));
        return -1;
    }
    dwfl_report_begin(o->dwfl);
    o->mod = dwfl_report_elf(o->dwfl, path, path, -1, 0, false);
    dwfl_report_end(o->dwfl, NULL, NULL);
    if (!o->mod) {
        snprintf(o->why, sizeof o->why, "cannot read '%s': %s", path,
                 dwfl_errmsg(-1));
        return -1;
    }
    const unsigned char *bits;
    GElf_Addr vaddr;
    int n = dwfl_module_build_id(o->mod, &bits, &vaddr);
    if (o->o.build_id_len &&
        (n != (int)o->o.build_id_len ||
         memcmp(bits, o->o.build_id, o->o.build_id_len) != 0)) {
        snprintf(o->why, sizeof o->why, "'%s' was rebuilt since the run "
                 "(its build id differs)", path);
        o->mod = NULL;
        return -1;
    }
    return 0;
}

static void obj_load(struct ev_run *x, struct obj *o)
{
    if (load_from(o, o->o.path) == 0)
        return;
    char buf[4096];
    const char *exe = run_exe(x, o->o.path, buf, sizeof buf);
    if (!exe)
        return;
    char first[sizeof o->why], second[sizeof o->why];
    memcpy(first, o->why, sizeof first);
    if (o->dwfl) {
        dwfl_end(o->dwfl);
        o->dwfl = NULL;
    }
    if (load_from(o, exe) < 0) {
        memcpy(second, o->why, sizeof second);
        snprintf(o->why, sizeof o->why, "%.500s; %.600s", first, second);
    }
}

/* O's module from another rank's object of the same file and build id
 * (every rank runs the same program): 1, or 0 when none was read. */
static int obj_share(struct ev_srcline_cache *c, struct obj *o)
{
    for (size_t i = 0; i + 1 < c->n; i++) {
        struct obj *p = &c->objs[i];
        if (p->found && p->mod && strcmp(p->o.path, o->o.path) == 0 &&
            p->o.build_id_len == o->o.build_id_len &&
            memcmp(p->o.build_id, o->o.build_id, o->o.build_id_len) == 0) {
            o->mod = p->mod;
            return 1;
        }
    }
    return 0;
}

/* Object ID of RANK, read once: NULL out of memory. */
static struct obj *obj_get(struct ev_run *x, int rank, uint32_t id)
{
    struct ev_srcline_cache *c = x->srcline;
    if (!c && !(c = x->srcline = calloc(1, sizeof *c)))
        return NULL;
    for (size_t i = 0; i < c->n; i++)
        if (c->objs[i].rank == rank && c->objs[i].id == id)
            return &c->objs[i];
    if (util_grow(&c->objs, &c->cap, c->n + 1, sizeof *c->objs) < 0)
        return NULL;
    struct obj *o = &c->objs[c->n++];
    memset(o, 0, sizeof *o);
    o->rank = rank;
    o->id = id;
    int rc = log_rank_object(&x->ranks[rank].log, id, &o->o);
    o->found = rc == 1;
    if (rc < 0)
        snprintf(o->why, sizeof o->why, "the record naming object %u is "
                 "malformed", id);
    else if (rc == 0)
        snprintf(o->why, sizeof o->why, "no record names object %u (a log "
                 "cut short?)", id);
    else if (!obj_share(c, o))
        obj_load(x, o);
    return o;
}

int ev__cu_at(Dwfl_Module *mod, uint64_t addr, Dwarf_Die *cu)
{
    Dwarf_Addr bias;
    Dwarf_Die *d = dwfl_module_addrdie(mod, addr, &bias);
    if (d) {
        *cu = *d;
        return 1;
    }
    /* No .debug_aranges (Clang emits none): each unit's own ranges. */
    Dwarf *dw = dwfl_module_getdwarf(mod, &bias);
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, addr) == 1)
            return 1;
        off = next;
    }
    return 0;
}

/* A subprogram under DIE whose code holds ADDR, searched depth first:
 * gfortran nests a contained procedure in its host's DIE, whose code
 * does not hold the procedure's (dwarf_getscopes stops at the host). */
static const char *nested_name(Dwarf_Die *die, Dwarf_Addr addr, int depth)
{
    Dwarf_Die child;
    if (depth > 8 || dwarf_child(die, &child) != 0)
        return NULL;
    do {
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_subprogram && dwarf_haspc(&child, addr) == 1)
            return dwarf_diename(&child);
        if (tag == DW_TAG_subprogram || tag == DW_TAG_module ||
            tag == DW_TAG_namespace) {
            const char *name = nested_name(&child, addr, depth + 1);
            if (name)
                return name;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return NULL;
}

/* The innermost named scope at ADDR from DWARF, or NULL. */
static const char *scope_name(Dwfl_Module *mod, GElf_Addr addr)
{
    Dwarf_Die cud, *cu = &cud;
    if (!ev__cu_at(mod, addr, cu))
        return NULL;
    Dwarf_Die *scopes;
    int n = dwarf_getscopes(cu, addr, &scopes);
    const char *name = NULL;
    for (int i = 0; i < n && !name; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
            tag == DW_TAG_entry_point)
            name = dwarf_diename(&scopes[i]);
    }
    if (n > 0)
        free(scopes);
    return name ? name : nested_name(cu, addr, 0);
}

/* A relative FILE (LEN bytes) made absolute with the compile directory
 * of ADDR's compilation unit, when DWARF names one. */
static void join_comp_dir(Dwfl_Module *mod, GElf_Addr addr, char *file,
                          size_t len)
{
    Dwarf_Attribute at;
    Dwarf_Die cud, *cu = file[0] != '/' && ev__cu_at(mod, addr, &cud)
                             ? &cud : NULL;
    const char *dir = cu ? dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir,
                                                       &at))
                         : NULL;
    if (!dir || dir[0] != '/')
        return;
    char abs[4096];
    /* "../src/x.c" of a build directory: folded by the text */
    if (util_path_abs(dir, file, abs, sizeof abs) == 0 && strlen(abs) < len)
        memcpy(file, abs, strlen(abs) + 1);
}

/* SRC (NULL: "") into DST of LEN bytes, cut to fit. */
static void copy(char *dst, size_t len, const char *src)
{
    size_t n = src ? strnlen(src, len - 1) : 0;
    memcpy(dst, src ? src : "", n);
    dst[n] = '\0';
}

int ev_srcline_why(struct ev_run *x, int rank, uint64_t n,
                   struct ev_srcloc *loc, char *why, size_t whylen,
                   char *err, size_t errlen)
{
    struct log_event ev;
    uint32_t id;
    uint64_t off;
    memset(loc, 0, sizeof *loc);
    if (why && whylen)
        why[0] = '\0';
    if (ev_event(x, rank, n, &ev, err, errlen) < 0)
        return -1;
    if (!log_event_site(&ev, &id, &off)) {
        if (why)
            snprintf(why, whylen, "%s", ev.rank->hdr.version < 5
                     ? "recorded before drdb logged call sites"
                     : "not logged for this call");
        return 0;
    }
    loc->offset = off;
    struct obj *o = obj_get(x, rank, id);
    if (!o) {
        log_errf(err, errlen, "out of memory");
        return -1;
    }
    if (!o->found) {
        snprintf(loc->object, sizeof loc->object, "object #%u", id);
        if (why)
            snprintf(why, whylen, "%s", o->why);
        return 1;
    }
    copy(loc->object, sizeof loc->object, o->o.path);
    if (!o->mod) {
        if (why)
            snprintf(why, whylen, "%s", o->why);
        return 1;
    }
    /* The call instruction ends at the return address. */
    GElf_Addr addr = off ? off - 1 : 0;
    Dwfl_Line *l = dwfl_module_getsrc(o->mod, addr);
    int line = 0;
    const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL)
                         : NULL;
    Dwarf_Die cu;
    Dwarf_Line *dl;
    if (!l && ev__cu_at(o->mod, addr, &cu) &&
        (dl = dwarf_getsrc_die(&cu, addr)) != NULL &&
        dwarf_lineno(dl, &line) == 0)
        file = dwarf_linesrc(dl, NULL, NULL);
    if (file && line > 0) {
        copy(loc->file, sizeof loc->file, file);
        join_comp_dir(o->mod, addr, loc->file, sizeof loc->file);
        loc->line = line;
    } else if (why) {
        snprintf(why, whylen, "no line information at %s+%#" PRIx64
                 " (built without -g?)", o->o.path, off);
    }
    const char *fn = scope_name(o->mod, addr);
    if (!fn)
        fn = dwfl_module_addrname(o->mod, addr);
    copy(loc->function, sizeof loc->function, fn);
    return 1;
}

Dwfl_Module *ev__srcline_module(struct ev_run *x, int rank, uint32_t id,
                                uint64_t *bias)
{
    struct obj *o = obj_get(x, rank, id);
    if (!o || !o->found || !o->mod)
        return NULL;
    *bias = o->o.bias;
    return o->mod;
}

int ev_srcline(struct ev_run *x, int rank, uint64_t n,
               struct ev_srcloc *loc, char *err, size_t errlen)
{
    return ev_srcline_why(x, rank, n, loc, NULL, 0, err, errlen);
}

void ev_srcloc_format(const struct ev_srcloc *loc, char *buf, size_t len)
{
    /* names from the program's DWARF, shown never obeyed (term-escape.h) */
    char *where = term_escape(loc->line ? loc->file : loc->object, 0),
         *fn = term_escape(loc->function, 0);
    if (loc->line)
        snprintf(buf, len, "%s:%d%s%s%s", where ? where : "?", loc->line,
                 loc->function[0] ? " (" : "", fn ? fn : "?",
                 loc->function[0] ? ")" : "");
    else
        snprintf(buf, len, "%s+%#" PRIx64 "%s%s%s", where ? where : "?",
                 loc->offset, loc->function[0] ? " (" : "", fn ? fn : "?",
                 loc->function[0] ? ")" : "");
    free(where);
    free(fn);
}

void ev__srcline_free(struct ev_run *x)
{
    struct ev_srcline_cache *c = x->srcline;
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        if (c->objs[i].dwfl)
            dwfl_end(c->objs[i].dwfl);
    free(c->objs);
    free(c);
    x->srcline = NULL;
}
