/*
 * memrate - the rates drdb record's logging is measured against
 * (tests/bench/bench-record-set.sh): memcpy's, 1 MiB at a time into a
 * 256 MiB buffer already touched (bigger than any cache); the page
 * cache's, writing SIZE MiB to a new file in DIR with write(2) in 1 MiB
 * blocks (what a log's bytes cost at least: each lands in a fresh page);
 * and the disk's, the same followed by fsync (the file removed after).
 * Prints
 *   memcpy_mb_s <MB/s>
 *   pagecache_mb_s <MB/s>          (the faster of two passes)
 *   pagecache_first_mb_s <MB/s>    (the first pass)
 *   disk_mb_s <MB/s>               (the second pass, fsync included)
 *
 *   memrate DIR [SIZE]       (default 1024)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { BLOCK = 1 << 20, SPAN = 256 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: memrate DIR [SIZE_MIB]\n");
        return 2;
    }
    long size = argc > 2 ? atol(argv[2]) : 1024;
    char *src = malloc(BLOCK), *dst = malloc((size_t)SPAN * BLOCK);
    if (!src || !dst || size < 1)
        return 1;
    memset(src, 7, BLOCK);
    memset(dst, 1, (size_t)SPAN * BLOCK);
    double best = 0;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now();
        for (int i = 0; i < 4 * SPAN; i++)
            memcpy(dst + (size_t)(i % SPAN) * BLOCK, src, BLOCK);
        double rate = 4.0 * SPAN * BLOCK / 1e6 / (now() - t0);
        best = rate > best ? rate : best;
    }
    printf("memcpy_mb_s %.0f\n", best);

    /* Twice: the first writes into memory the system may never have
     * touched (in a virtual machine, each page costs the host a fault),
     * the second into pages just freed by the first; the faster is
     * printed, the first said apart. */
    char path[4096];
    snprintf(path, sizeof path, "%s/memrate.%d", argv[1], (int)getpid());
    double cached[2], total = 0;
    int fd = -1;
    for (int pass = 0; pass < 2; pass++) {
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0) {
            perror(path);
            return 1;
        }
        double t0 = now();
        for (long i = 0; i < size; i++)
            if (write(fd, src, BLOCK) != BLOCK) {
                perror(path);
                unlink(path);
                return 1;
            }
        cached[pass] = now() - t0;
        fsync(fd);
        total = now() - t0;
    }
    double mb = (double)size * BLOCK / 1e6;
    printf("pagecache_mb_s %.0f\n",
           mb / (cached[1] < cached[0] ? cached[1] : cached[0]));
    printf("pagecache_first_mb_s %.0f\n", mb / cached[0]);
    printf("disk_mb_s %.0f\n", mb / total);
    close(fd);
    unlink(path);
    return 0;
}
