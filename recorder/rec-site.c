/*
 * Call sites (rec.h: rec_site, whose common case is inline): the loaded
 * object a return address lies in, as an object number and an offset in it (log-format.h,
 * LOG_REC_SITE), so that drdb maps it to a source line after the run
 * whatever address the object was loaded at.
 *
 * The objects seen so far are kept with their address ranges; the last
 * one of the program's hit is tried first, inline (rec_site_last), so
 * the common case (the program's calls, from one object) is one
 * subtraction and one compare. A miss walks the loaded
 * objects once (dl_iterate_phdr) and adds the one found, with its path
 * and build id, which the next record written carries (LOG_F_OBJECT).
 *
 * A Fortran program calls MPI through MPICH's bindings (libmpifort's
 * mpi_send_ calls MPI_Send): the return address is in MPI's library, not
 * the program. Then the stack is unwound (libgcc's _Unwind_Backtrace,
 * over the objects' .eh_frame) to the first frame outside MPI's libraries
 * and the recorder, for such calls only: about 15,600 instructions a call
 * (callgrind, a Fortran MPI_Sendrecv loop: 1,970 instructions a call
 * without sites, 17,540 with). Not cheap: caching, per binding return
 * address, where the program's return address lies above the wrapper's
 * frame (__builtin_dwarf_cfa) would make it a load.
 *
 * Runs under the recorder's lock (rec_begin) or on the one thread that
 * makes MPI calls: no lock of its own.
 */
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <string.h>
#include <unistd.h>
#include <unwind.h>

#include "rec.h"

#define OBJ_MAX 64

struct rec_obj {
    uintptr_t lo, hi;   /* its PT_LOAD segments' span, at run time */
    uintptr_t bias;     /* load bias: run-time address - ELF address */
    uint32_t id;        /* its number in the log; UINT32_MAX: none yet */
    int skip;           /* MPI's library or the recorder: not a call site
                         * of the program's */
    int announced;      /* a record carries its LOG_F_OBJECT field */
    uint8_t build_id[64];
    size_t build_id_len;
    char path[PATH_MAX];
};

static struct rec_obj objs[OBJ_MAX];
static int nobjs, last;
static uint32_t next_id;

/* The GNU build id among INFO's notes. */
static void build_id(const struct dl_phdr_info *info, struct rec_obj *o)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
        const uint8_t *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
            const uint8_t *name = p + sizeof *nh;
            const uint8_t *desc = name + ((nh->n_namesz + 3) & ~3u);
            if (desc + nh->n_descsz > end)
                break;
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
                memcmp(name, "GNU", 4) == 0 &&
                nh->n_descsz <= sizeof o->build_id) {
                memcpy(o->build_id, desc, nh->n_descsz);
                o->build_id_len = nh->n_descsz;
                return;
            }
            p = desc + ((nh->n_descsz + 3) & ~3u);
        }
    }
}

/* MPI's libraries (libmpi.so, libmpich.so, libmpifort.so, libmpichfort,
 * libmpicxx, ...) and the recorder itself. */
static int is_mpi(const char *path, uintptr_t lo, uintptr_t hi)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    uintptr_t self = (uintptr_t)&is_mpi;
    return strncmp(base, "libmpi", 6) == 0 || (self >= lo && self < hi);
}

struct find {
    uintptr_t addr;
    struct rec_obj *o;
};

static int find_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct find *f = data;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    int in = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t s = info->dlpi_addr + ph->p_vaddr, e = s + ph->p_memsz;
        if (s < lo)
            lo = s;
        if (e > hi)
            hi = e;
        if (f->addr >= s && f->addr < e)
            in = 1;
    }
    if (!in)
        return 0;
    struct rec_obj *o = &objs[nobjs];
    memset(o, 0, offsetof(struct rec_obj, path));
    o->lo = lo;
    o->hi = hi;
    o->bias = info->dlpi_addr;
    o->id = UINT32_MAX;
    o->path[0] = '\0';
    if (info->dlpi_name && info->dlpi_name[0]) {
        size_t n = strnlen(info->dlpi_name, sizeof o->path - 1);
        memcpy(o->path, info->dlpi_name, n);
        o->path[n] = '\0';
    } else {
        /* The program itself: the loader gives it no name. */
        ssize_t n = readlink("/proc/self/exe", o->path, sizeof o->path - 1);
        o->path[n > 0 ? n : 0] = '\0';
    }
    o->skip = is_mpi(o->path, lo, hi);
    build_id(info, o);
    f->o = o;
    return 1;
}

/* The object ADDR lies in, or NULL (not in any, or too many objects). */
static struct rec_obj *find(uintptr_t addr)
{
    struct rec_obj *o = &objs[last];
    if (__builtin_expect(addr - o->lo < o->hi - o->lo, 1))
        return o;
    for (int i = 0; i < nobjs; i++)
        if (addr - objs[i].lo < objs[i].hi - objs[i].lo) {
            last = i;
            return &objs[i];
        }
    if (nobjs == OBJ_MAX)
        return NULL;
    struct find f = {addr, NULL};
    dl_iterate_phdr(find_cb, &f);
    if (!f.o)
        return NULL;
    last = nobjs++;
    return f.o;
}

struct unwind {
    uintptr_t ra;
};

static _Unwind_Reason_Code unwind_cb(struct _Unwind_Context *ctx, void *data)
{
    struct unwind *u = data;
    uintptr_t ip = _Unwind_GetIP(ctx);
    if (!ip)
        return _URC_END_OF_STACK;
    struct rec_obj *o = find(ip);
    if (o && !o->skip) {
        u->ra = ip;
        return _URC_END_OF_STACK;
    }
    return _URC_NO_REASON;
}

struct rec_site_last rec_site_last;

/* O is the object of the last site: rec_site's inline test takes it. */
static void set_last(const struct rec_obj *o)
{
    rec_site_last = (struct rec_site_last){o->lo, o->hi - o->lo, o->bias,
                                           o->id};
}

int rec__site(const void *ra, struct rec_site *s)
{
    struct rec_obj *o = find((uintptr_t)ra);
    if (__builtin_expect(o && o->skip, 0)) {
        /* Called from MPI's Fortran bindings: the program's frame is
         * further up. Not found: the binding's own site. */
        struct unwind u = {0};
        _Unwind_Backtrace(unwind_cb, &u);
        if (u.ra) {
            ra = (const void *)u.ra;
            o = find(u.ra);
        }
    }
    if (!o)
        return 0;
    if (o->id == UINT32_MAX)
        o->id = next_id++;
    s->obj = o->id;
    s->off = (uint64_t)((uintptr_t)ra - o->bias);
    s->announce = o->announced ? NULL : o;
    if (o->announced && !o->skip)
        set_last(o);
    return 1;
}

size_t rec_site_room(const struct rec_obj *o)
{
    return LOG_FIELD_HEAD + 2 * LOG_ARG_ROOM64 + o->build_id_len +
           strlen(o->path);
}

void rec_site_put_object(struct log_rec *rec, struct rec_obj *o)
{
    uint8_t head[2 * LOG_ARG_ROOM64];
    struct log_rec h = {head, head};
    log_put_varint(&h, o->bias);
    log_put_varint(&h, o->build_id_len);
    size_t plen = strlen(o->path), hlen = (size_t)(h.p - head);
    log_put_field(rec, LOG_ARG_NONE, LOG_F_OBJECT, o->id,
                  hlen + o->build_id_len + plen);
    log_put_bytes(rec, head, hlen);
    log_put_bytes(rec, o->build_id, o->build_id_len);
    log_put_bytes(rec, o->path, plen);
    o->announced = 1;
    if (!o->skip)
        set_last(o);
}

void rec__put_bufaddr(struct log_rec *rec, const void *buf, int64_t n,
                      MPI_Datatype type)
{
    MPI_Count lb, extent, tlb, textent;
    /* Only a derived datatype's handle is asked about (MPICH: kind direct
     * or indirect, object datatype): an error here would go to the
     * program's error handler, fatal by default. */
    uint32_t h = (uint32_t)type;
    int derived = (h >> 30) >= 2 && ((h >> 26) & 0xf) == 0x3;
    if (n < 0 || !derived ||
        PMPI_Type_get_extent_x(type, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent_x(type, &tlb, &textent) != MPI_SUCCESS) {
        log_put_bufaddr(rec, (uintptr_t)buf, 0, 0, 0);
        return;
    }
    uint64_t span = n > 0 ? (uint64_t)((n - 1) * extent + textent) : 0;
    log_put_bufaddr(rec, (uintptr_t)buf, (int64_t)tlb, 1, span);
}
