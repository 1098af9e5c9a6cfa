/*
 * Variables of logged buffer addresses, from DWARF (ev-dwvar.h), with
 * elfutils' libdw. The scopes that hold the call's address are searched
 * first, innermost out (dwarf_getscopes: the locals and parameters of the
 * calling function, its blocks' statics, the unit's globals); then the
 * variables of every unit with a fixed address (another unit's global),
 * read once per object into a table sorted by address.
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef EV_NONE /* <elf.h>'s, not events.h's */
#include "ev-dwvar.h"
#include "util.h"

/* One global or static of an object. */
struct gvar {
    uint64_t addr, size; /* ELF address */
    Dwarf_Off die;
};

struct gtab {
    Dwfl_Module *mod;
    struct gvar *v;
    size_t n, cap;
    int oom;
};

struct ev_dwvar_cache {
    struct gtab *t;
    size_t n, cap;
};

void ev_dwvar_cache_free(struct ev_dwvar_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        free(c->t[i].v);
    free(c->t);
    free(c);
}

/* T without typedefs and qualifiers: 0, or -1 when it has no type (void). */
static int strip(Dwarf_Die *t)
{
    for (int depth = 0; depth < 32; depth++) {
        int tag = dwarf_tag(t);
        if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
            tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
            tag != DW_TAG_atomic_type)
            return 0;
        Dwarf_Attribute a;
        if (!dwarf_attr_integrate(t, DW_AT_type, &a) ||
            !dwarf_formref_die(&a, t))
            return -1;
    }
    return -1;
}

static int type_of(Dwarf_Die *die, Dwarf_Die *t)
{
    Dwarf_Attribute a;
    return dwarf_attr_integrate(die, DW_AT_type, &a) &&
                   dwarf_formref_die(&a, t)
               ? 0
               : -1;
}

/* An array type's dimensions, as written: each one's lower bound and
 * length (0: not known), the order its elements are stored in. */
struct dims {
    int n;
    int64_t lower[8];
    uint64_t len[8];
    int fortran;   /* written (l:u, ...), the first varying fastest */
};

static int fortran_die(Dwarf_Die *die)
{
    Dwarf_Die cu;
    if (!dwarf_diecu(die, &cu, NULL, NULL))
        return 0;
    int l = dwarf_srclang(&cu);
    return l == DW_LANG_Fortran77 || l == DW_LANG_Fortran90 ||
           l == DW_LANG_Fortran95 || l == DW_LANG_Fortran03 ||
           l == DW_LANG_Fortran08;
}

/* An upper bound at least LO into *UP: 1, or 0. libdw reads a 1-byte
 * form as signed (191, C's `x[192]`, as -65), a Fortran bound may be
 * negative: the unsigned reading first, the signed one when it is
 * below LO. */
static int bound(Dwarf_Attribute *a, Dwarf_Sword lo, Dwarf_Sword *up)
{
    Dwarf_Word u;
    if (dwarf_formudata(a, &u) == 0 && (Dwarf_Sword)u >= lo) {
        *up = (Dwarf_Sword)u;
        return 1;
    }
    return dwarf_formsdata(a, up) == 0 && *up >= lo;
}

static void array_dims(Dwarf_Die *t, struct dims *d)
{
    Dwarf_Die sub;
    Dwarf_Attribute a;
    Dwarf_Word ord;
    memset(d, 0, sizeof *d);
    d->fortran = fortran_die(t);
    int colmajor = dwarf_attr_integrate(t, DW_AT_ordering, &a)
                       ? dwarf_formudata(&a, &ord) == 0 &&
                             ord == DW_ORD_col_major
                       : d->fortran;
    if (colmajor != d->fortran || dwarf_child(t, &sub) != 0) {
        d->n = 0;
        return;
    }
    do {
        Dwarf_Sword lo = d->fortran, up;
        Dwarf_Word cnt;
        if (dwarf_tag(&sub) != DW_TAG_subrange_type)
            continue;
        if (d->n == 8) {
            d->n = 0;
            return;
        }
        if (dwarf_attr_integrate(&sub, DW_AT_lower_bound, &a) &&
            dwarf_formsdata(&a, &lo) != 0)
            lo = d->fortran;
        d->lower[d->n] = lo;
        if (dwarf_attr_integrate(&sub, DW_AT_count, &a) &&
            dwarf_formudata(&a, &cnt) == 0)
            d->len[d->n] = cnt;
        else if (dwarf_attr_integrate(&sub, DW_AT_upper_bound, &a) &&
                 bound(&a, lo, &up))
            d->len[d->n] = (uint64_t)(up - lo + 1);
        d->n++;
    } while (dwarf_siblingof(&sub, &sub) == 0);
}

static void cat(char *buf, size_t len, const char *s)
{
    size_t n = strlen(buf);
    if (n + 1 < len)
        snprintf(buf + n, len - n, "%s", s);
}

/* T's name as C writes it, short: "long", "struct pt", "double[16]". */
static void type_name(Dwarf_Die *t, char *buf, size_t len, int depth)
{
    Dwarf_Die u = *t, e;
    const char *name = dwarf_diename(&u);
    int tag = dwarf_tag(&u);
    if (depth > 8) {
        cat(buf, len, "...");
        return;
    }
    switch (tag) {
    case DW_TAG_base_type:
    case DW_TAG_typedef:
        cat(buf, len, name ? name : "?");
        return;
    case DW_TAG_structure_type:
        if (fortran_die(&u)) { /* a derived type */
            cat(buf, len, "type(");
            cat(buf, len, name ? name : "?");
            cat(buf, len, ")");
            return;
        }
        /* fall through */
    case DW_TAG_class_type:
    case DW_TAG_union_type:
    case DW_TAG_enumeration_type:
        cat(buf, len, tag == DW_TAG_union_type ? "union "
                      : tag == DW_TAG_enumeration_type ? "enum "
                                                       : "struct ");
        cat(buf, len, name ? name : "{...}");
        return;
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
        cat(buf, len, tag == DW_TAG_const_type ? "const " : "volatile ");
        if (type_of(&u, &e) == 0)
            type_name(&e, buf, len, depth + 1);
        else
            cat(buf, len, "void");
        return;
    case DW_TAG_pointer_type:
        if (type_of(&u, &e) == 0)
            type_name(&e, buf, len, depth + 1);
        else
            cat(buf, len, "void");
        cat(buf, len, " *");
        return;
    case DW_TAG_array_type: {
        if (type_of(&u, &e) == 0)
            type_name(&e, buf, len, depth + 1);
        struct dims d;
        char dim[48];
        array_dims(&u, &d);
        for (int k = 0; k < d.n; k++) {
            if (d.fortran && d.lower[k] == 1)
                snprintf(dim, sizeof dim, "%s%" PRIu64 "%s", k ? "," : "(",
                         d.len[k], k == d.n - 1 ? ")" : "");
            else if (d.fortran)
                snprintf(dim, sizeof dim, "%s%" PRId64 ":%" PRId64 "%s",
                         k ? "," : "(", d.lower[k],
                         d.lower[k] + (int64_t)d.len[k] - 1,
                         k == d.n - 1 ? ")" : "");
            else
                snprintf(dim, sizeof dim, "[%" PRIu64 "]", d.len[k]);
            cat(buf, len, dim);
        }
        return;
    }
    default:
        cat(buf, len, name ? name : "?");
    }
}

/* Fills V from variable DIE at ADDR: 0, or -1 when its size is unknown. */
static int fill(Dwarf_Die *die, uint64_t addr, struct ev_dwvar *v)
{
    Dwarf_Die t;
    Dwarf_Word size;
    if (type_of(die, &t) < 0 || dwarf_aggregate_size(&t, &size) != 0 ||
        size == 0)
        return -1;
    memset(v, 0, sizeof *v);
    const char *name = dwarf_diename(die);
    snprintf(v->name, sizeof v->name, "%s", name ? name : "?");
    type_name(&t, v->type, sizeof v->type, 0);
    v->addr = addr;
    v->size = size;
    v->type_die = t;
    const char *file = dwarf_decl_file(die);
    int line = 0;
    if (file && dwarf_decl_line(die, &line) == 0 && line > 0) {
        const char *base = strrchr(file, '/');
        snprintf(v->decl, sizeof v->decl, "%s:%d", base ? base + 1 : file,
                 line);
    }
    return 0;
}

/* A location expression that is a fixed address: 1 with it in *A. */
static int fixed_addr(Dwarf_Die *die, uint64_t *a)
{
    Dwarf_Attribute at;
    Dwarf_Op *op;
    size_t n;
    if (!dwarf_attr_integrate(die, DW_AT_location, &at) ||
        dwarf_getlocation(&at, &op, &n) != 0 || n != 1 ||
        op[0].atom != DW_OP_addr)
        return 0;
    *a = op[0].number;
    return 1;
}

/* Subprogram SUB's frame base at PC, whose frame's CFA was CFA, into
 * *BASE: 1, or 0 when not known. GCC's is the CFA
 * (DW_OP_call_frame_cfa); Clang's at -O0 the frame pointer (DW_OP_reg6,
 * rbp on x86-64), known where the CFI says the CFA is rbp plus an
 * offset (its prologue has set the frame up). */
static int frame_base(Dwfl_Module *mod, Dwarf_Die *sub, uint64_t pc,
                      uint64_t cfa, uint64_t *base)
{
    Dwarf_Attribute at;
    Dwarf_Op *op;
    size_t n;
    if (!cfa || !dwarf_attr_integrate(sub, DW_AT_frame_base, &at) ||
        dwarf_getlocation(&at, &op, &n) != 0 || n != 1)
        return 0;
    if (op[0].atom == DW_OP_call_frame_cfa) {
        *base = cfa;
        return 1;
    }
    if (op[0].atom != DW_OP_reg6)
        return 0;
    Dwarf_Addr b;
    Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &b);
    Dwarf_Frame *fr = NULL;
    Dwarf_Op *rule;
    size_t nrule;
    int ok = cfi && dwarf_cfi_addrframe(cfi, pc, &fr) == 0 &&
             dwarf_frame_cfa(fr, &rule, &nrule) == 0 && nrule == 1 &&
             (rule[0].atom == DW_OP_breg6 ||
              (rule[0].atom == DW_OP_bregx && rule[0].number == 6));
    if (ok)
        *base = cfa - (uint64_t)(int64_t)(rule[0].atom == DW_OP_bregx
                                              ? rule[0].number2
                                              : rule[0].number);
    free(fr);
    return ok;
}

/* Variable DIE's address at PC: 1 with it in *A (in the recorded
 * process), 0 when not known. FRAME: its subprogram's frame base is
 * known, BASE. */
static int var_addr(Dwarf_Die *die, uint64_t pc, uint64_t bias, int frame,
                    uint64_t base, uint64_t *a)
{
    if (fixed_addr(die, a)) {
        *a += bias;
        return 1;
    }
    Dwarf_Attribute at;
    Dwarf_Op *op;
    size_t n;
    if (!frame || !dwarf_attr_integrate(die, DW_AT_location, &at) ||
        dwarf_getlocation_addr(&at, pc, &op, &n, 1) != 1 || n != 1 ||
        op[0].atom != DW_OP_fbreg)
        return 0;
    *a = base + (uint64_t)(int64_t)op[0].number;
    return 1;
}

static int gvar_cmp(const void *a, const void *b)
{
    const struct gvar *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Every variable with a fixed address under DIE into T. */
static void collect(struct gtab *t, Dwarf_Die *die, int depth)
{
    Dwarf_Die c;
    if (depth > 64 || dwarf_child(die, &c) != 0)
        return;
    do {
        int tag = dwarf_tag(&c);
        uint64_t a;
        Dwarf_Die ty;
        Dwarf_Word size;
        if (tag == DW_TAG_variable && fixed_addr(&c, &a) &&
            type_of(&c, &ty) == 0 && dwarf_aggregate_size(&ty, &size) == 0 &&
            size > 0) {
            if (util_grow(&t->v, &t->cap, t->n + 1, sizeof *t->v) < 0) {
                t->oom = 1;
                return;
            }
            t->v[t->n++] = (struct gvar){a, size, dwarf_dieoffset(&c)};
        } else if (tag == DW_TAG_subprogram ||
                   tag == DW_TAG_lexical_block ||
                   tag == DW_TAG_namespace || tag == DW_TAG_module ||
                   tag == DW_TAG_common_block) {
            collect(t, &c, depth + 1);
        }
    } while (dwarf_siblingof(&c, &c) == 0);
}

static struct gtab *globals(struct ev_dwvar_cache **cp, Dwfl_Module *mod)
{
    struct ev_dwvar_cache *c = *cp;
    if (!c && !(c = *cp = calloc(1, sizeof *c)))
        return NULL;
    for (size_t i = 0; i < c->n; i++)
        if (c->t[i].mod == mod)
            return &c->t[i];
    if (util_grow(&c->t, &c->cap, c->n + 1, sizeof *c->t) < 0)
        return NULL;
    struct gtab *t = &c->t[c->n++];
    memset(t, 0, sizeof *t);
    t->mod = mod;
    Dwarf_Addr b;
    Dwarf *dw = dwfl_module_getdwarf(mod, &b);
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dw && !t->oom &&
           dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        if (dwarf_offdie(dw, off + hsize, &cu))
            collect(t, &cu, 0);
        off = next;
    }
    if (t->oom)
        return NULL;
    qsort(t->v, t->n, sizeof *t->v, gvar_cmp);
    return t;
}

/* The scopes under DIE that hold PC, outermost first, appended to S[N..]
 * (at most MAX): the subprograms and blocks, and a subprogram nested in
 * another that does not hold PC (gfortran puts a contained procedure in
 * its host's DIE, where dwarf_getscopes does not look). How many in all. */
static int scopes_at(Dwarf_Die *die, uint64_t pc, Dwarf_Die *s, int n,
                     int max, int depth)
{
    Dwarf_Die c;
    if (n >= max || depth > 16 || dwarf_child(die, &c) != 0)
        return n;
    do {
        int tag = dwarf_tag(&c);
        if (tag != DW_TAG_subprogram && tag != DW_TAG_lexical_block)
            continue;
        if (dwarf_haspc(&c, pc) == 1) {
            s[n] = c;
            return scopes_at(&c, pc, s, n + 1, max, depth + 1);
        }
        if (tag == DW_TAG_subprogram) {
            int m = scopes_at(&c, pc, s, n, max, depth + 1);
            if (m > n)
                return m;
        }
    } while (dwarf_siblingof(&c, &c) == 0);
    return n;
}

/* The variable of SCOPE's children that holds ADDR: 1 with *V. FRAME:
 * SCOPE belongs to the calling frame's subprogram, whose frame base is
 * BASE (its locals are found from it; another's only when static). */
static int in_scope(Dwarf_Die *scope, uint64_t pc, uint64_t bias,
                    int frame, uint64_t base, uint64_t addr,
                    struct ev_dwvar *v)
{
    Dwarf_Die d;
    if (dwarf_child(scope, &d) != 0)
        return 0;
    do {
        int tag = dwarf_tag(&d);
        uint64_t a;
        if ((tag == DW_TAG_variable || tag == DW_TAG_formal_parameter) &&
            var_addr(&d, pc, bias, frame, base, &a) && addr >= a &&
            fill(&d, a, v) == 0 && addr - a < v->size)
            return 1;
    } while (dwarf_siblingof(&d, &d) == 0);
    return 0;
}

int ev_dwvar_at(struct ev_dwvar_cache **c, Dwfl_Module *mod, uint64_t bias,
                uint64_t pc, uint64_t cfa, uint64_t addr, struct ev_dwvar *v)
{
    Dwarf_Addr b;
    Dwarf_Die cud, *cu = ev__cu_at(mod, pc, &cud) ? &cud : NULL;
    Dwarf_Die scopes[32];
    int n = cu ? scopes_at(cu, pc, scopes, 0, 32, 0) : 0;
    /* The innermost subprogram is the calling frame's. */
    int sub = -1;
    for (int i = n; i-- > 0;)
        if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
            sub = i;
            break;
        }
    uint64_t base = 0;
    int frame = sub >= 0 && frame_base(mod, &scopes[sub], pc, cfa, &base);
    for (int i = n; i-- > 0;)
        if (in_scope(&scopes[i], pc, bias, frame && i >= sub, base, addr, v))
            return 1;
    if (cu && in_scope(cu, pc, bias, 0, 0, addr, v))
        return 1;
    struct gtab *t = globals(c, mod);
    if (!t)
        return -1;
    uint64_t elf = addr - bias;
    size_t lo = 0, hi = t->n;
    while (lo < hi) { /* the first variable after ELF */
        size_t mid = (lo + hi) / 2;
        if (t->v[mid].addr <= elf)
            lo = mid + 1;
        else
            hi = mid;
    }
    Dwarf *dw = dwfl_module_getdwarf(mod, &b);
    for (size_t i = lo; i-- > 0 && i + 8 >= lo;) {
        Dwarf_Die d;
        if (elf - t->v[i].addr < t->v[i].size && dw &&
            dwarf_offdie(dw, t->v[i].die, &d) &&
            fill(&d, t->v[i].addr + bias, v) == 0)
            return 1;
    }
    return 0;
}

static void scalar(Dwarf_Die *t, uint64_t off, struct ev_dwscalar *s,
                   int depth)
{
    Dwarf_Word size;
    if (depth > 32 || strip(t) < 0) {
        s->kind = EV_DW_UNKNOWN;
        return;
    }
    int tag = dwarf_tag(t);
    if (tag == DW_TAG_base_type || tag == DW_TAG_enumeration_type ||
        tag == DW_TAG_pointer_type) {
        Dwarf_Attribute a;
        Dwarf_Word enc = DW_ATE_signed;
        if (dwarf_aggregate_size(t, &size) != 0) {
            s->kind = EV_DW_UNKNOWN;
            return;
        }
        if (tag == DW_TAG_base_type &&
            (!dwarf_attr_integrate(t, DW_AT_encoding, &a) ||
             dwarf_formudata(&a, &enc) != 0)) {
            s->kind = EV_DW_UNKNOWN;
            return;
        }
        s->size = size;
        s->into = off;
        s->name[0] = '\0';
        type_name(t, s->name, sizeof s->name, 0);
        if (tag == DW_TAG_pointer_type) {
            s->kind = EV_DW_POINTER;
            return;
        }
        switch (enc) {
        case DW_ATE_signed:
            s->kind = EV_DW_SIGNED;
            break;
        case DW_ATE_unsigned:
            s->kind = EV_DW_UNSIGNED;
            break;
        case DW_ATE_float:
            s->kind = EV_DW_FLOAT;
            break;
        case DW_ATE_complex_float:
            s->kind = EV_DW_COMPLEX;
            break;
        case DW_ATE_boolean:
            s->kind = EV_DW_BOOL;
            break;
        case DW_ATE_unsigned_char:
            s->kind = size == 1 ? EV_DW_BYTES : EV_DW_UNSIGNED;
            break;
        case DW_ATE_signed_char:
        case DW_ATE_UTF:
            s->kind = size == 1 ? EV_DW_CHAR : EV_DW_UNSIGNED;
            break;
        default:
            s->kind = EV_DW_UNKNOWN;
        }
        return;
    }
    if (tag == DW_TAG_array_type) {
        Dwarf_Die e;
        Dwarf_Word esize;
        if (type_of(t, &e) < 0 || dwarf_aggregate_size(&e, &esize) != 0 ||
            esize == 0) {
            s->kind = EV_DW_UNKNOWN;
            return;
        }
        /* The index in each dimension: C's last varies fastest,
         * Fortran's first; flat when a length is not known. */
        struct dims d;
        uint64_t flat = off / esize, idx[8];
        array_dims(t, &d);
        int multi = d.n > 0;
        for (int k = 0; k < d.n; k++)
            multi = multi && (d.len[k] || k == (d.fortran ? d.n - 1 : 0));
        for (int k = 0; multi && k < d.n; k++) {
            int j = d.fortran ? k : d.n - 1 - k;
            if (k == d.n - 1) {
                idx[j] = flat;
                break;
            }
            idx[j] = flat % d.len[j];
            flat /= d.len[j];
        }
        char b[32];
        if (!multi) {
            snprintf(b, sizeof b, d.fortran ? "(%" PRIu64 ")" : "[%" PRIu64
                     "]", off / esize + (d.fortran ? 1 : 0));
            cat(s->path, sizeof s->path, b);
        }
        for (int k = 0; multi && k < d.n; k++) {
            if (d.fortran)
                snprintf(b, sizeof b, "%s%" PRId64 "%s", k ? "," : "(",
                         (int64_t)idx[k] + d.lower[k],
                         k == d.n - 1 ? ")" : "");
            else
                snprintf(b, sizeof b, "[%" PRIu64 "]", idx[k]);
            cat(s->path, sizeof s->path, b);
        }
        scalar(&e, off % esize, s, depth + 1);
        return;
    }
    if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type) {
        Dwarf_Die m;
        uint64_t end_before = 0; /* the end of the member before OFF */
        const char *before = NULL;
        if (dwarf_child(t, &m) == 0) {
            do {
                Dwarf_Attribute a;
                Dwarf_Word mo;
                Dwarf_Die mt;
                Dwarf_Word ms;
                if (dwarf_tag(&m) != DW_TAG_member)
                    continue;
                if (dwarf_attr_integrate(&m, DW_AT_bit_size, &a) ||
                    !dwarf_attr_integrate(&m, DW_AT_data_member_location,
                                          &a) ||
                    dwarf_formudata(&a, &mo) != 0 || type_of(&m, &mt) < 0 ||
                    dwarf_aggregate_size(&mt, &ms) != 0) {
                    if (dwarf_attr_integrate(&m, DW_AT_bit_size, &a)) {
                        s->kind = EV_DW_UNKNOWN; /* bit-fields: not
                                                  * modelled */
                        return;
                    }
                    continue;
                }
                if (off >= mo && off - mo < ms) {
                    const char *mn = dwarf_diename(&m);
                    cat(s->path, sizeof s->path, fortran_die(t) ? "%" : ".");
                    cat(s->path, sizeof s->path, mn ? mn : "?");
                    scalar(&mt, off - mo, s, depth + 1);
                    return;
                }
                if (mo + ms <= off && mo + ms >= end_before) {
                    end_before = mo + ms;
                    before = dwarf_diename(&m);
                }
            } while (dwarf_siblingof(&m, &m) == 0);
        }
        s->kind = EV_DW_PAD;
        s->size = 0;
        s->into = 0;
        snprintf(s->name, sizeof s->name, "padding");
        if (before) { /* the member the padding follows */
            cat(s->path, sizeof s->path, fortran_die(t) ? "%" : ".");
            cat(s->path, sizeof s->path, before);
            s->into = 1;
        }
        return;
    }
    s->kind = EV_DW_UNKNOWN; /* a union, a function, ... */
}

void ev_dwvar_scalar(const struct ev_dwvar *v, uint64_t off,
                     struct ev_dwscalar *s)
{
    memset(s, 0, sizeof *s);
    if (off >= v->size) {
        s->kind = EV_DW_OUTSIDE;
        return;
    }
    Dwarf_Die t = v->type_die;
    scalar(&t, off, s, 0);
}

uint64_t ev_dwvar_struct_elem(const struct ev_dwvar *v, uint64_t off,
                              char *name, size_t len)
{
    Dwarf_Die t = v->type_die;
    uint64_t found = 0;
    for (int depth = 0; depth < 32 && off < v->size; depth++) {
        if (strip(&t) < 0)
            break;
        int tag = dwarf_tag(&t);
        Dwarf_Die e;
        Dwarf_Word esize;
        if (tag == DW_TAG_array_type) {
            if (type_of(&t, &e) < 0 || dwarf_aggregate_size(&e, &esize) != 0 ||
                esize == 0)
                break;
            Dwarf_Die s = e;
            if (strip(&s) == 0 && (dwarf_tag(&s) == DW_TAG_structure_type ||
                                   dwarf_tag(&s) == DW_TAG_class_type)) {
                found = esize;
                name[0] = '\0';
                type_name(&s, name, len, 0);
            }
            t = e;
            off %= esize;
            continue;
        }
        if (tag != DW_TAG_structure_type && tag != DW_TAG_class_type)
            break;
        /* Into the member that holds OFF. */
        Dwarf_Die m;
        int in = 0;
        if (dwarf_child(&t, &m) == 0) {
            do {
                Dwarf_Attribute a;
                Dwarf_Word mo, ms;
                Dwarf_Die mt;
                if (dwarf_tag(&m) == DW_TAG_member &&
                    dwarf_attr_integrate(&m, DW_AT_data_member_location,
                                         &a) &&
                    dwarf_formudata(&a, &mo) == 0 && type_of(&m, &mt) == 0 &&
                    dwarf_aggregate_size(&mt, &ms) == 0 && off >= mo &&
                    off - mo < ms) {
                    t = mt;
                    off -= mo;
                    in = 1;
                    break;
                }
            } while (dwarf_siblingof(&m, &m) == 0);
        }
        if (!in)
            break;
    }
    return found;
}
