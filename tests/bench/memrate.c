/*
 * memrate - the rates drdb record's logging is measured against
 * (tests/bench/bench-record-set.sh): memcpy's, 1 MiB at a time into a
 * 256 MiB buffer already touched (bigger than any cache); the page
 * cache's, writing SIZE MiB to a new file in DIR with write(2) in 1 MiB
 * blocks (what a log's bytes cost at least: each lands in a fresh page);
 * and the disk's, the same followed by fsync (the file removed after).
 * Prints
 *   memcpy_mb_s <MB/s>
 *   pagecache_mb_s <MB/s>
 *   disk_mb_s <MB/s>
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

    char path[4096];
    snprintf(path, sizeof path, "%s/memrate.%d", argv[1], (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
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
    double cached = now() - t0;
    fsync(fd);
    printf("pagecache_mb_s %.0f\n", (double)size * BLOCK / 1e6 / cached);
    printf("disk_mb_s %.0f\n", (double)size * BLOCK / 1e6 / (now() - t0));
    close(fd);
    unlink(path);
    return 0;
}
