/*
 * util.h - drdb's generic containers: a growing array, a hash table of
 * fixed-size entries keyed by an int, CRC-32C, SHA-256; normal paths
 * (path.c); and the safe creation of files and directories (file.c).
 * Every part of drdb may use them, the code that runs inside the recorded or replayed process
 * included, so they keep to what that code may do: libc only, no locks, no
 * stdio; memory comes from malloc/realloc/free and only when a container
 * grows or is released; no global state but CRC-32C's table, built on
 * first use. Not thread-safe: the caller serializes.
 */
#ifndef DRDB_UTIL_H
#define DRDB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* ---- growing arrays ----------------------------------------------------- */

/* Grows the array *PP (of *CAP elements of SIZE) to hold NEED, doubling:
 * 0, or -1 out of memory (the array unchanged). */
static inline int util_grow(void *pp, size_t *cap, size_t need, size_t size)
{
    void **p = pp;
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * size);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

/* ---- hash table --------------------------------------------------------- */

/*
 * A hash table of fixed-size entries keyed by an int inside each entry (an
 * MPI handle): the recorder's and the replay stub's request-to-buffer
 * tables, the stub's datatype registry, the event index's handle maps.
 * Open addressing with linear probing and backward-shift deletion; grows by
 * doubling. One key value (NULL_KEY) marks a free slot and is never stored.
 */
struct util_htab {
    char *v;
    size_t cap, used;   /* cap: 0 or a power of two */
    size_t esize, koff; /* entry size, offset of the int key in it */
    int null;           /* the key of a free slot */
};

/* An empty table of TYPE entries keyed by TYPE.MEMBER (no allocation). */
#define UTIL_HTAB_INIT(type, member, nullkey)                              \
    { NULL, 0, 0, sizeof(type), offsetof(type, member), (nullkey) }

/* The entry with KEY, or NULL. */
void *util_htab_find(const struct util_htab *t, int key);
/* Copies entry E in (over the entry with its key, if any): 0, or -1 out of
 * memory (the table unchanged). An entry with the null key is not stored. */
int util_htab_put(struct util_htab *t, const void *e);
/* Removes entry E (a pointer util_htab_find returned). */
void util_htab_remove(struct util_htab *t, void *e);
/* Removes every entry; keeps the memory for reuse. */
void util_htab_clear(struct util_htab *t);
/* Frees the memory; the table is empty and usable again. */
void util_htab_release(struct util_htab *t);

/* A 32-bit integer hash with good mixing in every bit (the finalizer of
 * "lowbias32", https://nullprogram.com/blog/2018/07/31/). */
static inline uint32_t util_hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* ---- files, created safely (file.c) ------------------------------------ */

/*
 * Every file and directory drdb creates is made by these, relative to a
 * directory file descriptor, so that a symbolic link or a file planted
 * under the name beforehand (in a directory another user can write) is
 * never followed nor reused: files O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC,
 * mode 0600; directories mode 0700; replacement by renameat() within the
 * directory. They run inside the recorded and the replayed process too: no
 * stdio, no allocation, and errno as the caller left it. Each returns a
 * file descriptor or 0, or -errno.
 */

/* Opens directory PATH (relative to DIRFD, AT_FDCWD for the working
 * directory) to create files in; a symbolic link as its last component is
 * refused (-ELOOP) when NOFOLLOW. */
int util_dir_open(int dirfd, const char *path, int nofollow);
/* Creates NAME in DIRFD, new (-EEXIST if anything, a link included, has
 * the name), mode 0600, opened O_RDWR or O_WRONLY (FLAGS: extra open
 * flags such as O_WRONLY). */
int util_file_create(int dirfd, const char *name, int flags);
/* Creates a new temporary file beside NAME in DIRFD, named
 * ".NAME.tmp-PID-N" (a name already taken, by anything, is skipped), its
 * name into TMP (LEN bytes). */
int util_file_create_tmp(int dirfd, const char *name, char *tmp, size_t len,
                         int flags);
/* Renames TMP over NAME within DIRFD (a link at NAME is replaced, never
 * followed). */
int util_file_replace(int dirfd, const char *tmp, const char *name);
/* Opens the existing regular file NAME in DIRFD to append to it
 * (O_WRONLY|O_APPEND|O_NOFOLLOW): a link is refused (-ELOOP). */
int util_file_append(int dirfd, const char *name);
/* Writes LEN bytes at P to FD, whole (EINTR and short writes retried). */
int util_write_all(int fd, const void *p, size_t len);
/* Creates directory NAME in DIRFD, mode 0700. An existing one is accepted
 * only when EXISTING_OK, and only a real directory (a link: -ELOOP; another
 * file: -ENOTDIR) owned by this user and writable by no one else
 * (-EPERM). */
int util_dir_create(int dirfd, const char *name, int existing_ok);

/* ---- checksums ---------------------------------------------------------- */

/* CRC-32C (Castagnoli) of LEN bytes at BUF, continuing from CRC (0 to
 * start): SSE4.2's crc32 instruction when the CPU has it, on three streams
 * at once from 64 KiB on (about three times as fast). */
uint32_t util_crc32c(uint32_t crc, const void *buf, size_t len);
/* The CRC-32C of A followed by B from CRC_A (A's), CRC_B (B's, from 0) and
 * B's length: a checksum of bytes that were summed elsewhere (a payload
 * summed as it was written) without reading them again. */
uint32_t util_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);

/* ---- paths (path.c) ------------------------------------------------------ */

/* PATH made absolute (relative to CWD, itself absolute) and normal by its
 * text alone: no "." or ".." component, no repeated or final slash; a
 * symbolic link is not resolved. 0, or -1 when LEN bytes are too few. */
int util_path_abs(const char *cwd, const char *path, char *out, size_t len);
/* When the normal absolute PATH is DIR or inside it: the rest of PATH
 * after DIR and its slash ("" for DIR itself); else NULL. */
const char *util_path_under(const char *path, const char *dir);

/* ---- SHA-256 (sha256.c) --------------------------------------------------- */

struct util_sha256 {
    uint32_t h[8];
    uint64_t len;
    uint8_t buf[64];
};
void util_sha256_init(struct util_sha256 *s);
void util_sha256_update(struct util_sha256 *s, const void *data, size_t len);
/* The digest as 64 lowercase hex digits and a NUL. */
void util_sha256_hex(struct util_sha256 *s, char out[65]);

#endif
