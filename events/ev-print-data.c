/*
 * Printing values as an event holds them (ev-int.h: ev__print_*): bytes in
 * hex, strings escaped, DATA decoded element by element by its datatype (a
 * builtin one; a derived one followed to its builtin leaf through the
 * constructors in the rank's log, or laid out as a struct from its logged
 * arrays), RAW outputs by their argument's C type. Used by ev-print-event.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ev-int.h"
#include "log-abi.h"
#include "term-escape.h"

void ev__print_hex(FILE *out, const uint8_t *p, uint64_t len, uint64_t max)
{
    for (uint64_t i = 0; i < len && i < max; i++)
        fprintf(out, "%s%02x", i && i % 4 == 0 ? " " : "", p[i]);
    if (len > max)
        fprintf(out, " ...");
}

void ev__print_cstring(FILE *out, const uint8_t *p, uint64_t len,
                       uint64_t max)
{
    fputc('"', out);
    for (uint64_t i = 0; i < len && i < max; i++) {
        uint8_t c = p[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c == 0)
            fputs("\\0", out);
        else if (c < 32 || c >= 127)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
    if (len > max)
        fputs("...", out);
}

void ev__json_str(FILE *out, const char *s)
{
    size_t len = strlen(s);
    char *j = malloc(TERM_JSON_MAX(len));
    if (j)
        fwrite(j, 1, term_json(s, len, j, NULL), out);
    else
        fputs("\"\"", out);
    free(j);
}

/* One element of type T at P. */
static void print_elem(FILE *out, const struct log_mpi_type *t,
                       const uint8_t *p)
{
    union {
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
        float f;
        double d;
        long double ld;
        uint8_t b[16];
    } u;
    memset(&u, 0, sizeof u);
    switch (t->kind) {
    case 'i':
        memcpy(u.b, p, (size_t)t->size);
        fprintf(out, "%" PRId64, t->size == 1 ? u.i8 : t->size == 2 ? u.i16
                                 : t->size == 4 ? u.i32 : u.i64);
        break;
    case 'u':
    case 'l':
        memcpy(u.b, p, (size_t)t->size);
        fprintf(out, "%" PRIu64, t->size == 1 ? u.u8 : t->size == 2 ? u.u16
                                 : t->size == 4 ? u.u32 : u.u64);
        break;
    case 'f':
        memcpy(u.b, p, (size_t)t->size);
        if (t->size == 4)
            fprintf(out, "%.9g", (double)u.f);
        else if (t->size == 8)
            fprintf(out, "%.17g", u.d);
        else
            fprintf(out, "%.21Lg", u.ld);
        break;
    case 'z':   /* a complex: two floats */
    case 'p': { /* a pair: two ints */
        const struct log_mpi_type half = {0, "", t->kind == 'z' ? 'f' : 'i',
                                          t->size / 2};
        fputc('(', out);
        print_elem(out, &half, p);
        fputc(',', out);
        print_elem(out, &half, p + t->size / 2);
        fputc(')', out);
        break;
    }
    default:
        fprintf(out, "0x%02x", p[0]);
        break;
    }
}

/* DATA of LEN bytes decoded as elements of TYPE (hex when RAW or not a
 * builtin type). */
static void print_data(FILE *out, const uint8_t *p, uint64_t len,
                       uint32_t type, int raw)
{
    const struct log_mpi_type *t = raw ? NULL : log_mpi_type_of(type);
    fprintf(out, "%" PRIu64 " bytes", len);
    if (!len)
        return;
    if (!t || len % (uint64_t)t->size) {
        fprintf(out, ": ");
        ev__print_hex(out, p, len, 1024);
        return;
    }
    uint64_t n = len / (uint64_t)t->size;
    fprintf(out, " = %" PRIu64 " x %s: ", n, t->name);
    if (t->kind == 'c') {
        ev__print_cstring(out, p, len, 32);
        return;
    }
    for (uint64_t i = 0; i < n && i < 32; i++) {
        if (i)
            fputc(' ', out);
        print_elem(out, t, p + i * (uint64_t)t->size);
    }
    if (n > 32)
        fprintf(out, " ...");
}

/* Whether EV is the datatype constructor that returned H (its new type,
 * not the in-out handle of MPI_Type_commit or MPI_Type_free). */
static int built_type(const struct log_event *ev, uint32_t h)
{
    struct log_field f;
    uint32_t v;
    int newtype = ev->desc ? ev->desc->slot[LOG_S_NEWTYPE] : -1;
    return ev->desc && ev->desc->kind == LOG_K_TYPE_CTOR && newtype >= 0 &&
           log_event_find(ev, (unsigned)newtype, LOG_F_HANDLE, &f) &&
           log_field_handle(&f, &v) == 0 && v == h;
}

/*
 * The builtin type a derived datatype H is made of, for printing its packed
 * data element by element: the constructor that returned H (the latest
 * before event N whose HANDLE output is H) names its old type by value
 * (contiguous, vector, hvector, indexed, hindexed, indexed_block, subarray,
 * darray, resized, dup...); followed down to a builtin. 0 when unknown (a
 * struct's types are an input array, not in the log). *CTOR gets the
 * outermost constructor's name.
 */
static uint32_t leaf_type(struct ev_run *x, int rank, uint64_t n, uint32_t h,
                          const char **ctor, int depth)
{
    if (log_mpi_type_of(h) || depth > 16)
        return log_mpi_type_of(h) ? h : 0;
    for (uint64_t e = n; e-- > 0;) {
        struct log_event ev;
        char err[128];
        if (ev_event(x, rank, e, &ev, err, sizeof err) < 0 ||
            !built_type(&ev, h))
            continue;
        if (depth == 0)
            *ctor = ev.desc->name;
        int old = ev.desc->slot[LOG_S_OLDTYPE];
        return old < 0 ? 0
                       : leaf_type(x, rank, e, (uint32_t)log_event_arg(&ev, old),
                                   ctor, depth + 1);
    }
    return 0;
}

/* A struct datatype's layout, from its constructor's logged arrays
 * (MPI_Type_create_struct logs its block lengths and member types): up to
 * MAX blocks of CNT[i] elements of builtin type TY[i]. Returns how many
 * blocks, 0 when unknown (not a struct, a derived member). */
static int struct_layout(struct ev_run *x, int rank, uint64_t n, uint32_t h,
                         int64_t *cnt, uint32_t *ty, int max, int depth)
{
    for (uint64_t e = n; depth < 16 && e-- > 0;) {
        struct log_event ev;
        char err[128];
        if (ev_event(x, rank, e, &ev, err, sizeof err) < 0 ||
            !built_type(&ev, h))
            continue;
        if (ev.desc->slot[LOG_S_OLDTYPE] >= 0) {
            /* Built on a struct (resized, dup, contiguous, vector...):
             * its packed data is that struct's elements in a row. */
            int old = ev.desc->slot[LOG_S_OLDTYPE];
            return struct_layout(x, rank, e,
                                 (uint32_t)log_event_arg(&ev, old), cnt, ty,
                                 max, depth + 1);
        }
        /* The constructor whose layout the log holds: its logged input
         * arrays, the block lengths and the member types. */
        int64_t *c, *disp;
        uint32_t *t;
        int64_t count = ev__struct_arrays(&ev, &c, &disp, &t);
        int ok = count > 0 && count <= max;
        for (int64_t i = 0; ok && i < count; i++) {
            ty[i] = t[i];
            cnt[i] = c[i];
            ok = log_mpi_type_of(ty[i]) && c[i] >= 0;
        }
        free(c);
        free(disp);
        free(t);
        return ok ? (int)count : 0;
    }
    return 0;
}

/* Packed data of a struct type: each element's blocks in order, in braces
 * ("{1 2.5 abc} {2 3.5 def} ..."), at most 8 elements. */
static void print_struct_data(FILE *out, const uint8_t *p, uint64_t len,
                              const int64_t *cnt, const uint32_t *ty, int nb)
{
    uint64_t off = 0;
    int shown = 0;
    fprintf(out, "%" PRIu64 " bytes:", len);
    while (off < len && shown < 8) {
        fputs(" {", out);
        for (int b = 0; b < nb && off < len; b++) {
            const struct log_mpi_type *t = log_mpi_type_of(ty[b]);
            for (int64_t k = 0; k < cnt[b] && off + (uint64_t)t->size <= len;
                 k++) {
                if (b || k)
                    fputc(' ', out);
                print_elem(out, t, p + off);
                off += (uint64_t)t->size;
            }
        }
        fputc('}', out);
        shown++;
    }
    if (off < len)
        fputs(" ...", out);
}

void ev__print_data(struct ev_run *x, FILE *out, int rank, uint64_t n,
                    const struct log_field *f, uint32_t type, int raw)
{
    if (type && !raw && !log_mpi_type_of(type)) {
        /* A derived type: its elements, when they are all of one builtin
         * type. */
        const char *ctor = NULL;
        uint32_t leaf = leaf_type(x, rank, n, type, &ctor, 0);
        int64_t cnt[64];
        uint32_t ty[64];
        int nb = leaf ? 0 : struct_layout(x, rank, n, type, cnt, ty, 64, 0);
        fprintf(out, "(datatype 0x%08x%s%s%s) ", type,
                ctor ? ", made by " : "", ctor ? ctor : "",
                leaf || nb ? "" : ", elements unknown");
        if (nb) {
            print_struct_data(out, f->data, f->len, cnt, ty, nb);
            return;
        }
        type = leaf;
    }
    print_data(out, f->data, f->len, type, raw);
}

void ev__data_args(const struct log_func_desc *d, unsigned arg, int *type,
                   int *count)
{
    *type = *count = -1;
    const char *len = d && arg < (unsigned)d->nargs ? d->args[arg].length
                                                    : NULL;
    const char *x = len ? strstr(len, " x ") : NULL;
    if (!x)
        return;
    size_t tl = strcspn(x + 3, " @[");
    for (int i = 0; i < d->nargs; i++) {
        size_t l = strlen(d->args[i].name);
        if (d->args[i].vpos < 0)
            continue;
        if (l == tl && !strncmp(x + 3, d->args[i].name, l))
            *type = i;
        if ((size_t)(x - len) == l && !strncmp(len, d->args[i].name, l))
            *count = i;
    }
}

uint32_t ev__data_type(const struct log_event *ev, unsigned arg)
{
    int t, c;
    ev__data_args(ev->desc, arg, &t, &c);
    return t >= 0 ? (uint32_t)log_event_arg(ev, t) : 0;
}

int ev__data_count(const struct log_event *ev, unsigned arg, int64_t *n)
{
    int t, c;
    ev__data_args(ev->desc, arg, &t, &c);
    if (c < 0)
        return 0;
    *n = log_event_arg(ev, c);
    return 1;
}

void ev__print_raw(FILE *out, const struct log_func_desc *d,
                   const struct log_field *f, int raw)
{
    const char *ct = f->arg < (unsigned)d->nargs ? d->args[f->arg].ctype
                                                 : NULL;
    char kind = 'x';
    int size = 1;
    if (ct && strncmp(ct, "const ", 6) == 0)
        ct += 6;
    if (raw)
        ;
    else if (!ct && strcmp(d->ret, "double") == 0)
        kind = 'f', size = 8; /* MPI_Wtime's value */
    else if (!ct && d->kind == LOG_K_RMA)
        kind = 'p', size = 8; /* a shared window's segment: address, length */
    else if (!ct)
        kind = 'i', size = 4; /* the Wait/Test families' index, flag, ... */
    else if (strncmp(ct, "double", 6) == 0)
        kind = 'f', size = 8;
    else if (strncmp(ct, "MPI_Aint", 8) == 0 ||
             strncmp(ct, "MPI_Count", 9) == 0 ||
             strncmp(ct, "MPI_Offset", 10) == 0)
        kind = 'i', size = 8;
    else if (strncmp(ct, "int", 3) == 0 ||
             strncmp(ct, "MPI_Fint", 8) == 0)
        kind = 'i', size = 4;
    else if (strncmp(ct, "MPI_", 4) == 0 && strncmp(ct, "MPI_Status", 10) &&
             strncmp(ct, "MPI_File", 8) && strncmp(ct, "MPI_T_", 6))
        kind = 'h', size = 4;
    if (kind == 'x' || f->len % (uint64_t)size || !f->len) {
        fprintf(out, "%" PRIu64 " bytes: ", f->len);
        ev__print_hex(out, f->data, f->len, raw ? 1024 : 64);
        return;
    }
    uint64_t n = f->len / (uint64_t)size;
    for (uint64_t i = 0; i < n && i < 32; i++) {
        const uint8_t *p = f->data + i * (uint64_t)size;
        if (i)
            fputc(' ', out);
        if (kind == 'h') {
            uint32_t h;
            memcpy(&h, p, 4);
            fprintf(out, "0x%08x", h);
        } else if (kind == 'f') {
            double v;
            memcpy(&v, p, 8);
            fprintf(out, "%.17g", v);
        } else if (kind == 'p') {
            uint64_t v;
            memcpy(&v, p, 8);
            fprintf(out, "%#" PRIx64, v);
        } else if (size == 8) {
            int64_t v;
            memcpy(&v, p, 8);
            fprintf(out, "%" PRId64, v);
        } else {
            int32_t v;
            memcpy(&v, p, 4);
            fprintf(out, "%d", v);
        }
    }
    if (n > 32)
        fputs(" ...", out);
}
