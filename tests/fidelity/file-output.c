/* Issue 16, class 9: each rank writes its results, reads them back,
 * appends to them and to a log that existed before the run, changes a
 * file in place, makes a directory, renames and removes files. The replay
 * must do all of it in its own directory, leaving the recorded run's
 * files as they are. Prints what it read back at each step. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void cat(int rank, const char *what, const char *path)
{
    char buf[512];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    for (char *p = buf; *p; p++)
        if (*p == '\n')
            *p = '|';
    printf("rank %d: %s %s: %s\n", rank, what, path, f ? buf : "(none)");
}

int main(int argc, char **argv)
{
    int rank, size;
    char out[64], moved[96], tmp[64];
    double mine, sum;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = 1.5 * (rank + 1);
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    snprintf(out, sizeof out, "result-%d.txt", rank);
    FILE *f = fopen(out, "w");
    fprintf(f, "rank %d of %d: sum %.2f\n", rank, size, sum);
    fclose(f);
    cat(rank, "wrote", out);
    f = fopen(out, "a");
    fprintf(f, "appended by %d\n", rank);
    fclose(f);
    cat(rank, "appended", out);

    /* a file changed in place (r+): its old content is kept */
    snprintf(tmp, sizeof tmp, "state-%d.txt", rank);
    f = fopen(tmp, "r+");
    if (f) {
        fseek(f, 0, SEEK_SET);
        fputs("XY", f);
        fclose(f);
    }
    cat(rank, "changed", tmp);

    /* the log from before the run, appended to through open(2): rank 0
     * first, which reads it back before the others append (a replayed
     * rank sees its own writes to a file, not another rank's:
     * docs/recording.md, "Input files") */
    if (rank != 0)
        MPI_Barrier(MPI_COMM_WORLD);
    int fd = open("history.log", O_WRONLY | O_APPEND);
    char line[64];
    int n = snprintf(line, sizeof line, "run by rank %d\n", rank);
    if (fd >= 0 && write(fd, line, (size_t)n) != n)
        printf("rank %d: short write\n", rank);
    if (fd >= 0)
        close(fd);
    if (rank == 0) {
        cat(rank, "history", "history.log");
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* a directory of results, a renamed file, a removed one */
    char dir[64], inner[96];
    snprintf(dir, sizeof dir, "results-%d", rank);
    printf("rank %d: mkdir %d\n", rank, mkdir(dir, 0755) == 0);
    snprintf(inner, sizeof inner, "%s/final.txt", dir);
    snprintf(moved, sizeof moved, "%s/moved.txt", dir);
    f = fopen(inner, "w");
    fprintf(f, "final %d %.2f\n", rank, sum);
    fclose(f);
    printf("rank %d: rename %d\n", rank, rename(inner, moved) == 0);
    printf("rank %d: old name exists %d\n", rank, access(inner, F_OK) == 0);
    cat(rank, "moved", moved);
    snprintf(tmp, sizeof tmp, "scratch-%d.tmp", rank);
    f = fopen(tmp, "w");
    fputs("scratch\n", f);
    fclose(f);
    int removed = unlink(tmp) == 0;
    printf("rank %d: unlink %d, exists after %d\n", rank, removed,
           access(tmp, F_OK) == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
