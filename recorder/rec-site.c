/*
 * Call sites (rec.h: rec_site, whose common case is inline): the loaded
 * object a return address lies in, as an object number and an offset in it (log-format.h,
 * LOG_REC_SITE), so that drdb maps it to a source line after the run
 * whatever address the object was loaded at.
 *
 * The objects seen so far are kept with their address ranges; the last
 * one hit is tried first. A miss walks the loaded objects once
 * (dl_iterate_phdr) and adds the one found, with its path and build id,
 * which the next record written carries (LOG_F_OBJECT). A program's own
 * call site, once its object is described, is kept encoded in
 * rec_site_enc by return address (rec.h: rec_site, the inline common
 * case); a Fortran call's too, with the binding cache's check (below).
 *
 * A Fortran program calls MPI through MPICH's bindings (libmpifort's
 * mpi_send_ calls MPI_Send): the return address RA is in MPI's library,
 * not the program. The program's return address is then in a stack slot
 * at a fixed distance above rec_begin_at's frame for as long as the calls
 * take the same path: per binding return address, a small cache holds
 * where RA itself was (the wrapper's return address slot), where the
 * program's return address was, and the function the program called (the
 * binding). Its common case is a few loads and compares: the slot of RA
 * still holds RA, and the value above is the one checked last time, or
 * (checked once per new value) lies in the program's code right after a
 * call of that function (e8 to it or to a PLT entry whose GOT slot holds
 * it; ff 15 through a GOT slot holding it: __calls). Anything else (a
 * first call, another path to rec_begin_at, a binding whose frame size
 * varies) unwinds the stack (libgcc's _Unwind_Backtrace, over the
 * objects' .eh_frame, about 15,500 instructions) to the first frame
 * outside MPI's libraries and the recorder, and refills the cache entry
 * when its slots hold what the unwinder found. A wrong site is never
 * logged: a cached guess is used only when checked, and rec_site_enc
 * keeps the site's bytes for the address checked last, with the two
 * slots, checked inline (rec.h: rec_site). Callgrind, Fortran
 * MPI_Bsend + MPI_Recv loop (bench-sites.sh): 16,538 instructions a call
 * with unwinding every call, 1,704 with the cache, 1,600 with the bytes
 * kept, 1,527 without sites.
 * x86-64 only (the return address just below the CFA, the call
 * encodings): elsewhere every such call unwinds.
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

#define SEG_MAX 8

struct rec_obj {
    uintptr_t lo, hi;   /* its PT_LOAD segments' span, at run time */
    /* The segments themselves (the span may have unmapped gaps): code
     * is read only within the executable ones (call_target). */
    uintptr_t seg_lo[SEG_MAX], seg_hi[SEG_MAX];
    int seg_x[SEG_MAX], nsegs;
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

/* dl_iterate_phdr's first object, the executable: its build id as hex. */
static int exe_cb(struct dl_phdr_info *info, size_t size, void *ud)
{
    struct rec_obj *o = ud;
    (void)size;
    build_id(info, o);
    return 1;
}

int rec_exe_build_id(char *hex, size_t len)
{
    static struct rec_obj o; /* large: not on the program's stack */
    o.build_id_len = 0;
    dl_iterate_phdr(exe_cb, &o);
    if (!o.build_id_len || len < 2 * o.build_id_len + 1)
        return -1;
    static const char digit[] = "0123456789abcdef";
    for (size_t k = 0; k < o.build_id_len; k++) {
        hex[2 * k] = digit[o.build_id[k] >> 4];
        hex[2 * k + 1] = digit[o.build_id[k] & 15];
    }
    hex[2 * o.build_id_len] = '\0';
    return 0;
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
    for (int i = 0; i < info->dlpi_phnum && o->nsegs < SEG_MAX; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        o->seg_lo[o->nsegs] = info->dlpi_addr + ph->p_vaddr;
        o->seg_hi[o->nsegs] = o->seg_lo[o->nsegs] + ph->p_memsz;
        o->seg_x[o->nsegs++] = (ph->p_flags & PF_X) != 0;
    }
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

/* Whether [A, A + N) lies in one of O's segments (executable ones only
 * if X): readable. */
static int __in_seg(const struct rec_obj *o, uintptr_t a, size_t n, int x)
{
    for (int i = 0; i < o->nsegs; i++)
        if (a >= o->seg_lo[i] && a + n <= o->seg_hi[i] && a + n > a &&
            (!x || o->seg_x[i]))
            return 1;
    return 0;
}

/* Whether return address RA, in O's code, follows a call of function FN:
 * a direct call (e8 rel32) of FN or of a PLT entry that jumps through a
 * GOT slot holding FN (ff 25, after endbr64 and bnd or not), or a call
 * through a GOT slot (ff 15, -fno-plt). x86-64 only; elsewhere never
 * (the caller unwinds). */
static int __calls(const struct rec_obj *o, uintptr_t ra, uintptr_t fn)
{
#if defined(__x86_64__)
    const uint8_t *p;
    int32_t d;
    uintptr_t got;
    if (!__in_seg(o, ra - 6, 6, 1))
        return 0;
    p = (const uint8_t *)ra;
    if (p[-6] == 0xff && p[-5] == 0x15) {
        memcpy(&d, p - 4, 4);
        got = ra + (uintptr_t)(intptr_t)d;
    } else if (p[-5] == 0xe8) {
        memcpy(&d, p - 4, 4);
        uintptr_t t = ra + (uintptr_t)(intptr_t)d;
        if (t == fn)
            return 1;
        if (!__in_seg(o, t, 11, 1))
            return 0;
        p = (const uint8_t *)t;
        size_t at = 0;
        if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
            at = 4; /* endbr64 */
        if (p[at] == 0xf2)
            at++; /* bnd */
        if (p[at] != 0xff || p[at + 1] != 0x25)
            return 0;
        memcpy(&d, p + at + 2, 4);
        got = t + at + 6 + (uintptr_t)(intptr_t)d;
    } else
        return 0;
    uintptr_t v;
    if (!__in_seg(o, got, sizeof v, 0))
        return 0;
    memcpy(&v, (const void *)got, sizeof v);
    return v == fn;
#else
    (void)o, (void)ra, (void)fn;
    return 0;
#endif
}

/* Where, for a binding's return address, the program's return address
 * lies: read from the stack at CFA + AT, CFA rec_begin_at's frame's (see
 * the header). WRAP: where RA itself lies (the wrapper's return address),
 * checked first; FN: the function the program called. */
struct ra_cache {
    uintptr_t ra, fn;
    ptrdiff_t wrap, at;
    struct rec_obj *o; /* the object of the last return address found */
    uintptr_t ok;      /* that address (__calls is true of it) */
};
#define RA_CACHE 64
static struct ra_cache ra_cache[RA_CACHE];

static struct ra_cache *__ra_slot(uintptr_t ra)
{
    return &ra_cache[(ra ^ ra >> 6) % RA_CACHE];
}

struct unwind {
    uintptr_t ra;      /* the binding's return address */
    uintptr_t cfa;     /* rec_begin_at's frame's */
    uintptr_t prev_fn; /* the previous frame's function */
    ptrdiff_t wrap;    /* RA's slot, from CFA; -1: not seen yet */
    uintptr_t found;   /* the program's return address */
    ptrdiff_t at;      /* its slot, from CFA */
    uintptr_t fn;      /* the function it called */
};

/* libgcc's _Unwind_GetCFA of a frame is its stack pointer at its call,
 * the callee's CFA: on x86-64 the frame's IP, the callee's return
 * address, lies just below it. */
static _Unwind_Reason_Code unwind_cb(struct _Unwind_Context *ctx, void *data)
{
    struct unwind *u = data;
    uintptr_t ip = _Unwind_GetIP(ctx);
    if (!ip)
        return _URC_END_OF_STACK;
    if (ip == u->ra && u->wrap < 0)
        u->wrap = (ptrdiff_t)(_Unwind_GetCFA(ctx) - 8 - u->cfa);
    struct rec_obj *o = find(ip);
    if (o && !o->skip) {
        u->found = ip;
        u->at = (ptrdiff_t)(_Unwind_GetCFA(ctx) - 8 - u->cfa);
        u->fn = u->prev_fn;
        return _URC_END_OF_STACK;
    }
    u->prev_fn = _Unwind_GetRegionStart(ctx);
    return _URC_NO_REASON;
}

/* The program's return address above MPI's binding that returns to RA,
 * from rec_begin_at's frame's CFA: the cached slot when it checks out (RA
 * where it was, and the value a return address after a call of the same
 * function), or unwinding, which fills the cache. 0: none. */
static uintptr_t __caller_above(uintptr_t ra, uintptr_t cfa)
{
    struct ra_cache *c = __ra_slot(ra);
    if (c->ra == ra &&
        *(const uintptr_t *)(cfa + (uintptr_t)c->wrap) == ra) {
        uintptr_t v = *(const uintptr_t *)(cfa + (uintptr_t)c->at);
        if (v == c->ok) /* checked before: the code has not changed */
            return v;
        struct rec_obj *o = find(v);
        if (o && !o->skip && __calls(o, v, c->fn)) {
            c->ok = v;
            c->o = o;
            return v;
        }
    }
    struct unwind u = {ra, cfa, 0, -1, 0, 0, 0};
    _Unwind_Backtrace(unwind_cb, &u);
    if (!u.found)
        return 0;
    /* Cached when the fast path would find the same: slots on the stack
     * above this frame, within reach, holding what the unwinder saw. */
    if (u.wrap > 0 && u.at > u.wrap && u.at < (1 << 20) &&
        *(const uintptr_t *)(cfa + (uintptr_t)u.wrap) == ra &&
        *(const uintptr_t *)(cfa + (uintptr_t)u.at) == u.found) {
        struct rec_obj *o = find(u.found);
        if (o && __calls(o, u.found, u.fn))
            *c = (struct ra_cache){ra, u.fn, u.wrap, u.at, o, u.found};
    }
    return u.found;
}

struct rec_site_enc rec_site_enc[REC_SITE_ENC];
struct rec_obj *rec_site_announce;
uintptr_t rec_site_probe;

/* The program's return addresses probed so far (open addressing; full:
 * no more probes). Reached only from rec__site, a site's first call or
 * a miss of rec_site_enc. */
#define PROBED 4096
static uintptr_t probed[PROBED];
static unsigned nprobed;

/* Whether RA is met for the first time (and now remembered). */
static int first_time(uintptr_t ra)
{
    for (unsigned i = (unsigned)(ra ^ ra >> 9) % PROBED, k = 0; k < PROBED;
         k++, i = (i + 1) % PROBED) {
        if (probed[i] == ra)
            return 0;
        if (!probed[i]) {
            if (nprobed >= PROBED / 2)
                return 0;
            probed[i] = ra;
            nprobed++;
            return 1;
        }
    }
    return 0;
}

struct frame {
    uintptr_t ra, cfa;
    int seen, depth;
};

/* The frame after the one returning to RA: libgcc's CFA of its context is
 * the CFA of the frame that RA returns into (see unwind_cb). */
static _Unwind_Reason_Code frame_cb(struct _Unwind_Context *ctx, void *data)
{
    struct frame *f = data;
    uintptr_t ip = _Unwind_GetIP(ctx);
    if (!ip || ++f->depth > 256)
        return _URC_END_OF_STACK;
    if (f->seen) {
        f->cfa = _Unwind_GetCFA(ctx);
        return _URC_END_OF_STACK;
    }
    f->seen = ip == f->ra;
    return _URC_NO_REASON;
}

uintptr_t rec_site_frame(uintptr_t ra)
{
    struct frame f = {ra, 0, 0, 0};
    _Unwind_Backtrace(frame_cb, &f);
    return f.cfa;
}
/* The site of a call not kept in rec_site_enc (a Fortran program's, an
 * object's first): valid until the next call of rec__site. */
static struct rec_site_enc scratch;

/* CFA: rec_begin_at's frame's, which the binding cache's slots are
 * relative to (rec_site checks them inline). */
const struct rec_site_enc *rec__site(const void *ra, uintptr_t cfa)
{
    const void *from = ra;
    struct rec_obj *o;
    struct ra_cache *c = __ra_slot((uintptr_t)ra);
    int above = 0; /* the site is C's checked program address */
    if (c->ra == (uintptr_t)ra) {
        /* A binding's, found above before: its object is skipped. */
        uintptr_t up = __caller_above((uintptr_t)ra, cfa);
        if (up == c->ok) {
            ra = (const void *)up;
            o = c->o;
            above = 1;
        } else if (up) {
            ra = (const void *)up;
            o = find(up);
        } else
            o = find((uintptr_t)ra);
    } else if ((o = find((uintptr_t)ra)) && o->skip) {
        /* Called from MPI's Fortran bindings: the program's frame is
         * further up. Not found: the binding's own site. */
        uintptr_t up = __caller_above((uintptr_t)ra, cfa);
        if (up) {
            ra = (const void *)up;
            o = find(up);
            above = up == c->ok && c->ra == (uintptr_t)from;
        }
    }
    if (!o)
        return NULL;
    if (o->id == UINT32_MAX)
        o->id = next_id++;
    if (!o->skip && first_time((uintptr_t)ra))
        rec_site_probe = (uintptr_t)ra;
    /* The program's own call, or a binding's whose program call the
     * binding's cache checks, of an object already described: the same
     * bytes every time (checked, for a binding), kept for rec_site's
     * inline lookup. */
    struct rec_site_enc *e = &scratch;
    if (o->announced && !o->skip && (ra == from || above))
        e = rec_site_slot((uintptr_t)from);
    memset(e, 0, sizeof *e);
    struct log_rec r = {e->bytes, e->bytes};
    log_put_site(&r, o->id, (uint64_t)((uintptr_t)ra - o->bias));
    e->len = (uint32_t)(r.p - e->bytes);
    e->room = LOG_SITE_ROOM + LOG_SITE_BUFS * LOG_BUFADDR_ROOM;
    if (!o->announced) {
        e->room += (uint32_t)rec_site_room(o);
        rec_site_announce = o;
    }
    if (e != &scratch) {
        e->ra = (uintptr_t)from;
        if (ra != from) {
            e->ok = c->ok;
            e->wrap = c->wrap;
            e->at = c->at;
        }
    }
    return e;
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
