/*
 * The names of ELF objects for tab completion (con-complete-int.h): a
 * set of names, and an object's symbols, DWARF names and source files
 * read into it with libelf and libdw.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "con-complete-int.h"

/* ---- a set of names, each with what it names ---------------------------- */

static size_t names_hash(const char *s, size_t len)
{
    size_t h = 14695981039346656037u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

/* The index of S[0..LEN) in T, or -1. */
static long names_find(const struct con_names *t, const char *s, size_t len)
{
    if (!t->nslot)
        return -1;
    for (size_t h = names_hash(s, len) & (t->nslot - 1);;
         h = (h + 1) & (t->nslot - 1)) {
        size_t i = t->slot[h];
        if (!i)
            return -1;
        if (strncmp(t->name[i - 1], s, len) == 0 && !t->name[i - 1][len])
            return (long)i - 1;
    }
}

int con_names_has(const struct con_names *t, const char *s, size_t len,
                  unsigned kinds)
{
    long i = names_find(t, s, len);
    return i >= 0 && (!kinds || (t->kinds[i] & kinds));
}

static int names_grow(struct con_names *t)
{
    size_t ns = t->nslot ? t->nslot * 2 : 1024;
    size_t *slot = calloc(ns, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < t->n; i++) {
        size_t h = names_hash(t->name[i], strlen(t->name[i])) & (ns - 1);
        while (slot[h])
            h = (h + 1) & (ns - 1);
        slot[h] = i + 1;
    }
    free(t->slot);
    t->slot = slot;
    t->nslot = ns;
    return 0;
}

int con_names_add(struct con_names *t, const char *s, size_t len,
                  unsigned kind)
{
    long at = names_find(t, s, len);
    if (at >= 0) {
        t->kinds[at] |= kind;
        return 0;
    }
    if ((t->n + 1) * 2 > t->nslot && names_grow(t) < 0)
        return -1;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 512;
        char **nm = realloc(t->name, cap * sizeof *nm);
        if (nm)
            t->name = nm;
        unsigned *k = realloc(t->kinds, cap * sizeof *k);
        if (k)
            t->kinds = k;
        if (!nm || !k)
            return -1;
        t->cap = cap;
    }
    char *copy = strndup(s, len);
    if (!copy)
        return -1;
    size_t h = names_hash(s, len) & (t->nslot - 1);
    while (t->slot[h])
        h = (h + 1) & (t->nslot - 1);
    t->slot[h] = t->n + 1;
    t->name[t->n] = copy;
    t->kinds[t->n++] = kind;
    return 0;
}

void con_names_release(struct con_names *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->name[i]);
    free(t->name);
    free(t->kinds);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/* ---- the names of an ELF object (libelf, libdw) ------------------------- */

void con_names_deps_release(struct con_names_deps *d)
{
    for (int i = 0; i < d->n; i++)
        free(d->needed[i]);
    d->n = 0;
}

/* PATH as a file name GDB may offer: the path and each end of it after a
 * '/' ("../tests/x.c", "tests/x.c", "x.c"). */
static void add_file(struct con_names *t, const char *path)
{
    if (!path || !*path || *path == '<') /* <built-in> */
        return;
    con_names_add(t, path, strlen(path), NM_FILE);
    for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/'))
        if (p[1])
            con_names_add(t, p + 1, strlen(p + 1), NM_FILE);
}

/* The names DIE's children declare, into T (IN_FUNC: inside a
 * function). */
static void dwarf_walk(struct con_names *t, Dwarf_Die *die, int in_func,
                       int depth)
{
    Dwarf_Die child;
    if (depth > 64 || dwarf_child(die, &child) != 0)
        return;
    do {
        int tag = dwarf_tag(&child), func = in_func;
        unsigned kind;
        switch (tag) {
        case DW_TAG_subprogram:
        case DW_TAG_entry_point:
            kind = NM_FUNC;
            func = 1;
            break;
        case DW_TAG_variable:
        case DW_TAG_constant:
            kind = in_func ? NM_LOCAL : NM_VAR;
            break;
        case DW_TAG_enumerator:
            kind = NM_VAR;
            break;
        case DW_TAG_label:
            kind = NM_LABEL;
            break;
        case DW_TAG_typedef:
        case DW_TAG_base_type:
        case DW_TAG_structure_type:
        case DW_TAG_union_type:
        case DW_TAG_class_type:
        case DW_TAG_enumeration_type:
        case DW_TAG_namespace:
        case DW_TAG_module:
        case DW_TAG_interface_type:
            kind = NM_TYPE;
            break;
        default: /* parameters, fields, common blocks */
            kind = NM_LOCAL;
        }
        const char *nm = dwarf_diename(&child);
        if (nm && *nm)
            con_names_add(t, nm, strlen(nm), kind);
        if (dwarf_haschildren(&child))
            dwarf_walk(t, &child, func, depth + 1);
    } while (dwarf_siblingof(&child, &child) == 0);
}

/* Every name and source file of ELF's DWARF into T. */
static void read_dwarf(struct con_names *t, Elf *elf)
{
    Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
    if (!dw)
        return;
    Dwarf_CU *cu = NULL;
    Dwarf_Die cudie;
    uint8_t unit_type;
    while (dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &cudie, NULL) == 0) {
        if (unit_type != DW_UT_compile && unit_type != DW_UT_partial &&
            unit_type != DW_UT_skeleton)
            continue;
        add_file(t, dwarf_diename(&cudie));
        Dwarf_Files *files;
        size_t nfiles;
        if (dwarf_getsrcfiles(&cudie, &files, &nfiles) == 0)
            for (size_t i = 0; i < nfiles; i++)
                add_file(t, dwarf_filesrc(files, i, NULL, NULL));
        dwarf_walk(t, &cudie, 0, 0);
    }
    dwarf_end(dw);
}

/* The symbol NAME (its "@VERSION" cut) into OWN, the program's names,
 * when one of them, else into OTHER (NULL: OWN is another object's).
 * The program's are the names its code could use: not the reserved ones
 * ('_' first: the C runtime's, the compiler's, C++'s mangled names, which
 * its DWARF names plainly), nor the compiler's copies ("f.part.0",
 * "completed.0"); those are named as another object's. Another object's
 * are there with the parts GDB also shows of them as Ada names:
 * log__map_file is offered as "log.map_file" and as "map_file". */
static void add_symbol(struct con_names *own, struct con_names *other,
                       const char *name, unsigned kind)
{
    size_t len = strcspn(name, "@");
    if (!len)
        return;
    if (other && kind && name[0] != '_' && !memchr(name, '.', len)) {
        con_names_add(own, name, len, kind);
        return;
    }
    struct con_names *t = other ? other : own;
    con_names_add(t, name, len, kind ? kind : NM_LOCAL);
    /* "completed.0", "f.cold": GDB shows "completed", "f" */
    const char *dot = memchr(name, '.', len);
    if (dot && dot > name)
        con_names_add(t, name, (size_t)(dot - name), kind ? kind : NM_LOCAL);
    for (const char *p = strstr(name, "__"); p && p < name + len;
         p = strstr(p + 2, "__"))
        if (con_names_ident_start((unsigned char)p[2]))
            con_names_add(t, p + 2, len - (size_t)(p + 2 - name),
                          kind ? kind : NM_LOCAL);
}

/* The symbols of ELF's symbol table SCN into T, the program's names when
 * OTHER is not NULL (the names that are not the program's into OTHER),
 * else another object's. The local symbols of the C runtime's start
 * files (crtstuff.c's frame_dummy, deregister_tm_clones) are not the
 * program's. */
static void read_symtab(struct con_names *t, struct con_names *other, Elf *elf,
                        Elf_Scn *scn, GElf_Shdr *sh)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data || !sh->sh_entsize)
        return;
    size_t n = sh->sh_size / sh->sh_entsize;
    int crt = 0;
    for (size_t i = 1; i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym))
            continue;
        const char *name = elf_strptr(elf, sh->sh_link, sym.st_name);
        int type = GELF_ST_TYPE(sym.st_info);
        if (type == STT_FILE) {
            crt = name && (strncmp(name, "crt", 3) == 0 ||
                           strstr(name, "/crt") != NULL);
            continue;
        }
        if (GELF_ST_BIND(sym.st_info) != STB_LOCAL)
            crt = 0;
        if (!name || !*name || type == STT_SECTION)
            continue;
        unsigned kind =
            type == STT_FUNC || type == STT_GNU_IFUNC ? NM_FUNC
            : type == STT_OBJECT || type == STT_TLS || type == STT_COMMON
                ? NM_VAR
            : type == STT_NOTYPE && sym.st_shndx == SHN_UNDEF
                ? NM_FUNC /* a function it calls */
                : 0;
        add_symbol(other && crt ? other : t, other && crt ? NULL : other, name,
                   kind);
    }
}

/* The object at PATH: its symbols, DWARF names and files into T, the
 * program's when OTHER is not NULL (the names in it that are not the
 * program's into OTHER), else another object's; its libraries and run
 * paths into DEPS (NULL: not wanted). 0, or -1 when it cannot be read as
 * ELF. */
int con_names_read(struct con_names *t, struct con_names *other,
                   const char *path, struct con_names_deps *deps)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        if (elf)
            elf_end(elf);
        close(fd);
        return -1;
    }
    Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
    GElf_Shdr sh, symtab_sh, dynsym_sh;
    while ((scn = elf_nextscn(elf, scn)))
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
            symtab = scn;
            symtab_sh = sh;
        } else if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM) {
            dynsym = scn;
            dynsym_sh = sh;
        } else if (deps && gelf_getshdr(scn, &sh) &&
                   sh.sh_type == SHT_DYNAMIC) {
            Elf_Data *data = elf_getdata(scn, NULL);
            size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
            for (size_t i = 0; data && i < n; i++) {
                GElf_Dyn dyn;
                if (!gelf_getdyn(data, (int)i, &dyn))
                    continue;
                const char *s =
                    dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_RPATH ||
                            dyn.d_tag == DT_RUNPATH
                        ? elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)
                        : NULL;
                if (!s)
                    continue;
                if (dyn.d_tag == DT_NEEDED && deps->n < CON_NAMES_NEEDED)
                    deps->needed[deps->n] = strdup(s),
                    deps->n += deps->needed[deps->n] != NULL;
                else if (dyn.d_tag == DT_RPATH)
                    snprintf(deps->rpath, sizeof deps->rpath, "%s", s);
                else if (dyn.d_tag == DT_RUNPATH)
                    snprintf(deps->runpath, sizeof deps->runpath, "%s", s);
            }
        }
    /* .dynsym's names are in .symtab too, when there is one */
    if (symtab)
        read_symtab(t, other, elf, symtab, &symtab_sh);
    else if (dynsym)
        read_symtab(t, other, elf, dynsym, &dynsym_sh);
    read_dwarf(t, elf);
    elf_end(elf);
    close(fd);
    return 0;
}

/* NAME (a DT_NEEDED) in the directories of LIST (':'-separated, $ORIGIN
 * the directory of the object, ORIGIN) into OUT: 0, or -1 when in none. */
int con_names_find_lib(const char *list, const char *origin, const char *name,
                       char *out, size_t len)
{
    while (list && *list) {
        size_t n = strcspn(list, ":");
        char dir[4096];
        if (n >= 7 && strncmp(list, "$ORIGIN", 7) == 0)
            snprintf(dir, sizeof dir, "%s%.*s", origin, (int)(n - 7),
                     list + 7);
        else if (n >= 9 && strncmp(list, "${ORIGIN}", 9) == 0)
            snprintf(dir, sizeof dir, "%s%.*s", origin, (int)(n - 9),
                     list + 9);
        else
            snprintf(dir, sizeof dir, "%.*s", (int)n, list);
        if (*dir && snprintf(out, len, "%s/%s", dir, name) < (int)len &&
            access(out, R_OK) == 0)
            return 0;
        list += n + (list[n] == ':');
    }
    return -1;
}

/* The kernel's vDSO (linux-vdso.so.1, which GDB reads from the process:
 * clock_gettime, LINUX_2.6): drdb's own, the same kernel's, copied out
 * of its mapping (libelf may write where it reads). */
void con_names_read_vdso(struct con_names *t)
{
    const unsigned char *base =
        (const unsigned char *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
    Elf64_Ehdr eh;
    if (!base)
        return;
    memcpy(&eh, base, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64)
        return;
    size_t size = eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize;
    char *copy = size < (1u << 20) ? malloc(size) : NULL;
    if (!copy)
        return;
    memcpy(copy, base, size);
    elf_version(EV_CURRENT);
    Elf *elf = elf_memory(copy, size);
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    while (elf && (scn = elf_nextscn(elf, scn)))
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM)
            read_symtab(t, NULL, elf, scn, &sh);
    if (elf)
        elf_end(elf);
    free(copy);
}
