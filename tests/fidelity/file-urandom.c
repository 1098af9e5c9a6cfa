/* Issue 16, classes 8 and 9: each rank reads random bytes from
 * /dev/urandom through open/read and through fopen/fread (and one from
 * /dev/random), prints them, and sends its right neighbour as many ints
 * as they say: a replay that read the device live would print other bytes
 * and call MPI_Send with another count. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size;
    unsigned char a[8] = {0}, b[8] = {0}, c[2] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int fd = open("/dev/urandom", O_RDONLY);
    ssize_t got = fd >= 0 ? read(fd, a, sizeof a) : -1;
    if (fd >= 0)
        close(fd);
    FILE *f = fopen("/dev/urandom", "rb");
    size_t items = f ? fread(b, 4, 2, f) : 0;
    if (f)
        fclose(f);
    fd = open("/dev/random", O_RDONLY);
    ssize_t got2 = fd >= 0 ? read(fd, c, sizeof c) : -1;
    if (fd >= 0)
        close(fd);
    printf("rank %d: read %zd, fread %zu, random %zd:", rank, got, items,
           got2);
    for (int i = 0; i < 8; i++)
        printf(" %02x", a[i]);
    for (int i = 0; i < 8; i++)
        printf(" %02x", b[i]);
    printf(" %02x%02x\n", c[0], c[1]);
    int n = a[0] % 16 + 1, m = 0;
    int *buf = calloc(32, sizeof *buf);
    for (int i = 0; i < n; i++)
        buf[i] = b[i % 8] + rank;
    MPI_Status st;
    MPI_Sendrecv(buf, n, MPI_INT, (rank + 1) % size, 0, buf + 16, 16, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &m);
    printf("rank %d: sent %d ints, received %d, first %d\n", rank, n, m,
           buf[16]);
    free(buf);
    MPI_Finalize();
    return 0;
}
