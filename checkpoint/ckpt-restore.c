/*
 * ckpt-restore.c - a rollback (or roll-forward) to a checkpoint of the
 * store or to a checkpoint file, up to the point where it starts changing
 * the memory: it builds the chain of images to restore (the target, then
 * its parents up to a full checkpoint; files are mapped into the library's
 * region and checked whole, pages included) and checks that this process
 * can take it (one thread, the code mapped where the checkpoint's was, the
 * same XSAVE layout). Any refusal here leaves the process as it was, with
 * the reason in ckpt_error(). Then it moves to the private stack and hands
 * over to the restorer (ckpt-restorer.c), which calls no libc: this side
 * may (messages, strcmp), because nothing has changed yet.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "ckpt-int.h"
#include "ckpt-sys.h"
#include "ckpt.h"

/* Defined by the replay stub; this one serves programs without it. */
__attribute__((weak, noinline)) void drdb_restored_hook(void)
{
    __asm__ volatile("" ::: "memory");
}

/* Maps a checkpoint file into the library's region and checks it. */
static const struct ck_hdr *map_file(const char *path, uint64_t *len)
{
    int fd = (int)ck_sys(SYS_open, path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) {
        ckpt__fail("cannot open checkpoint file %s: %s", path, strerror(-fd));
        return NULL;
    }
    struct stat st;
    ck_sys(SYS_fstat, fd, &st, 0);
    *len = (uint64_t)st.st_size;
    void *p = ckpt__alloc_flags(*len ? *len : 1, 0); /* the file goes there */
    if (!p) {
        ck_sys(SYS_close, fd, 0, 0);
        ckpt__fail("out of address space for %s", path);
        return NULL;
    }
    if (*len && ck_mmap_failed(ck_mmap(p, *len, PROT_READ,
                                       MAP_PRIVATE | MAP_FIXED, fd, 0))) {
        ck_sys(SYS_close, fd, 0, 0);
        ckpt__free(p, *len, 0);
        ckpt__fail("cannot map %s", path);
        return NULL;
    }
    ck_sys(SYS_close, fd, 0, 0);
    char err[512];
    if (ckpt__check_image(p, *len, 1, err, sizeof err, path) < 0) {
        ckpt__free(p, *len, 0);
        ckpt__fail("%s", err);
        return NULL;
    }
    return p;
}

/* Builds S->chain for in-memory checkpoint ID, or the file PATH. */
static int build_chain(long id, const char *path)
{
    S->nchain = 0;
    S->chain_mapped = 0;
    if (path) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        else
            strcpy(dir, ".");
        S->chain_mapped = 1;
        char p[4200];
        snprintf(p, sizeof p, "%s", path);
        for (;;) {
            if (S->nchain == MAXENT)
                return ckpt__fail("checkpoint chain too long"),
                       ckpt__unmap_chain(), -1;
            const struct ck_hdr *h = map_file(p, &S->chain_len[S->nchain]);
            if (!h)
                return ckpt__unmap_chain(), -1;
            S->chain[S->nchain++] = h;
            if (!h->parent) {
                if (!(h->flags & CKF_FULL))
                    return ckpt__fail("checkpoint file %s: the first of its "
                                      "chain is not a full checkpoint "
                                      "(corrupt)", p),
                           ckpt__unmap_chain(), -1;
                break;
            }
            ckpt__file_name(p, sizeof p, dir, (long)h->parent);
        }
        return 0;
    }
    for (long cur = id; cur;) {
        struct ck_entry *e = ckpt__entry(cur);
        if (!e)
            return ckpt__fail(cur == id ? "no checkpoint %ld"
                                        : "checkpoint %ld is gone", cur);
        if (!e->blob)
            return ckpt__fail("checkpoint %ld is in a file: restore the file",
                              cur);
        if (S->nchain == MAXENT)
            return ckpt__fail("checkpoint chain too long");
        S->chain[S->nchain++] = e->blob;
        cur = e->parent;
    }
    return 0;
}

/* The code of the checkpoint's process must be where this one's is (a
 * shadow runs with the foreground's layout; another process, with ASLR on,
 * would have its libraries elsewhere). */
static int same_code(void)
{
    const struct ck_hdr *t = S->chain[0];
    const struct ck_reg *tr = ck_regs(t);
    const char *tstr = (const char *)t + t->str_off;
    if (ckpt__read_maps() < 0)
        return ckpt__fail_why(&S->why);
    for (uint64_t i = 0; i < t->nregs; i++) {
        if (!(tr[i].prot & PROT_EXEC) || !(tr[i].kind & RK_FILE))
            continue;
        int found = 0;
        for (uint64_t j = 0; j < S->ncur && !found; j++)
            found = S->cur[j].start == tr[i].start &&
                    S->cur[j].end == tr[i].end &&
                    (S->cur[j].kind & RK_FILE) &&
                    !strcmp(S->str + S->cur[j].path, tstr + tr[i].path);
        if (!found)
            return ckpt__fail("the checkpoint comes from a process whose code was "
                              "mapped elsewhere (%s at %#llx): another program, or "
                              "address space randomization on", tstr + tr[i].path,
                              (unsigned long long)tr[i].start);
    }
    return 0;
}

/* A debugger's checkpoint holds its XSAVE area: this processor's must be
 * alike. */
static int same_xsave(void)
{
    const struct ck_hdr *t = S->chain[0];
    if ((t->flags & CKF_EXTERNAL) &&
        t->xctx_len != sizeof(struct ckpt_xframe) + S->xsize)
        return ckpt__fail("the checkpoint's register state is of another "
                          "processor (XSAVE area of %llu bytes, here %u)",
                          (unsigned long long)(t->xctx_len -
                                         sizeof(struct ckpt_xframe)),
                          S->xsize);
    return 0;
}

/* Everything checked while the process is intact: a refusal changes
 * nothing. */
static int prepare(long id, const char *path)
{
    if (!S)
        return -1;
    int n = ckpt__count_threads();
    if (n > 1)
        return ckpt__fail("the process has %d threads: cannot roll back", n);
    if (build_chain(id, path) < 0)
        return -1;
    if (same_code() < 0 || same_xsave() < 0) {
        ckpt__unmap_chain();
        return -1;
    }
    return 0;
}

int ckpt_restore(long id)
{
    if (prepare(id, NULL) < 0)
        return -1;
    ckpt__call_on(ckpt__tramp_stack, ckpt__restore_on_stack, NULL);
}

int ckpt_restore_file(const char *path)
{
    if (prepare(0, path) < 0)
        return -1;
    ckpt__call_on(ckpt__tramp_stack, ckpt__restore_on_stack, NULL);
}

/* The debugger's rollback (see ckpt.h): on the private stack, the
 * program's state saved; returning resumes it (the rollback refused, the
 * reason in drdb_ckpt_msg). */
void ckpt__restore_external(const struct ckpt_xframe *f)
{
    long id = drdb_ckpt_target;
    (void)f;
    if (!S)
        return;
    if ((id > 0 ? prepare(id, NULL) : prepare(0, S->target_path)) == 0)
        ckpt__restore_on_stack(NULL);
}

