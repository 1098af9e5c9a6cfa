/*
 * ckpt-region.c - the checkpoint library's region and its allocator (part
 * of the restorer: no libc, see ckpt-int.h).
 *
 * Everything the library keeps is in its own region: a reserve of address
 * space at a fixed address (so that it never moves the program's own
 * mappings, and a shadow replay and the foreground lay out memory alike;
 * ckpt_init reserves it), whose first part holds the state (struct
 * ck_state), then the private stack, the page list, the base layout, and
 * the rest checkpoint data. That region is never saved nor restored;
 * nothing else of the library is in the program's memory but the words
 * defined here, which a rollback does not change (the pointers never
 * change once set; the debugger's variables are set again by the console).
 *
 * The allocator is here, not in the store, because a rollback frees the
 * checkpoint files it mapped once the pages are written, after the swap.
 */
#include <sys/mman.h>

#include "ckpt-int.h"
#include "ckpt-sys.h"
#include "ckpt.h"

struct ck_state *ckpt__S;
uintptr_t ckpt__reserve;
uintptr_t ckpt__tramp_stack;
void *ckpt__xarea;

volatile long drdb_ckpt_target;
volatile uint64_t drdb_ckpt_pc;
/* the same variable, bound locally (ckpt-asm.S addresses it pc-relative) */
extern volatile uint64_t ckpt__pc
    __attribute__((alias("drdb_ckpt_pc"), visibility("hidden")));
volatile uint64_t drdb_ckpt_event_tag = UINT64_MAX;
volatile long drdb_ckpt_last;
char *drdb_ckpt_target_path;
char *drdb_ckpt_msg;
char *drdb_ckpt_table;

/*
 * Checkpoint memory. Freed blocks stay populated for the next checkpoint
 * (first-touch page faults cost 3-4 times the copy itself, on a VM more);
 * beyond KEEP_FREE bytes of them, or for a file's mapping, the pages go
 * back to the kernel and the address range to the reserve.
 */
#define KEEP_FREE (256UL << 20)

/* A block's size: whole pages. */
static uint64_t blk(uint64_t len)
{
    return (len + PG - 1) & ~(PG - 1);
}

void *ckpt__alloc_flags(uint64_t len, int populate)
{
    len = blk(len);
    for (int i = 0; i < S->nfree; i++) {
        if (S->freel[i].len < len)
            continue;
        uint64_t a = S->freel[i].a;
        int hot = S->freel[i].hot;
        S->freel[i].a += len;
        S->freel[i].len -= len;
        if (hot)
            S->free_hot -= len;
        if (!S->freel[i].len)
            S->freel[i] = S->freel[--S->nfree];
        if (hot)
            return (void *)a;
        void *p = ck_mmap((void *)a, len, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
                              MAP_NORESERVE | populate, -1, 0);
        return ck_mmap_failed(p) ? NULL : p;
    }
    /* (Transparent huge pages would populate faster, but their direct
     * compaction stalls for 100 ms and more once memory is fragmented.) */
    if (S->bump + len > ckpt__reserve + RESERVE_LEN)
        return NULL;
    void *p = ck_mmap((void *)S->bump, len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE,
                      -1, 0);
    if (ck_mmap_failed(p))
        return NULL;
    if (populate)
        ck_sys(SYS_madvise, p, len, MADV_POPULATE_WRITE);
    S->bump += len;
    return p;
}

void *ckpt__alloc(uint64_t len)
{
    return ckpt__alloc_flags(len, MAP_POPULATE);
}

void ckpt__free(void *p, uint64_t len, int keep)
{
    len = blk(len);
    keep = keep && S->free_hot + len <= KEEP_FREE;
    if (!keep)
        ck_mmap(p, len, PROT_NONE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1,
                0);
    else
        S->free_hot += len;
    if (S->nfree < MAXFREE)
        S->freel[S->nfree++] =
            (typeof(S->freel[0])){(uint64_t)p, len, keep};
}
