/*
 * Nondeterminism outside MPI (issue 16, class 8): random bytes from the
 * kernel (getrandom, getentropy) and glibc's arc4random family choose how
 * much each rank sends; every rank prints the bytes it drew.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

static void show(int rank, const char *what, const unsigned char *b, int n)
{
    printf("rank %d: %s", rank, what);
    for (int i = 0; i < n; i++)
        printf(" %02x", b[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    int rank, size;
    unsigned char early[8], r1[16], r2[32], r3[8];
    ssize_t got = getrandom(early, sizeof early, 0);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    show(rank, "getrandom before MPI_Init:", early, (int)got);
    got = getrandom(r1, sizeof r1, GRND_NONBLOCK);
    show(rank, "getrandom:", r1, (int)got);
    printf("rank %d: getentropy %d\n", rank, getentropy(r2, sizeof r2));
    show(rank, "getentropy:", r2, (int)sizeof r2);
    arc4random_buf(r3, sizeof r3);
    show(rank, "arc4random_buf:", r3, (int)sizeof r3);
    unsigned a = arc4random(), u = arc4random_uniform(1000);
    printf("rank %d: arc4random %u, uniform %u\n", rank, a, u);

    /* The random bytes decide how much goes to the right neighbour. */
    int n = 1 + r1[0] % 64, m;
    int *out = calloc((size_t)n, sizeof *out), in[64];
    for (int i = 0; i < n; i++)
        out[i] = r2[i % 32] + (int)u;
    MPI_Status st;
    MPI_Sendrecv(out, n, MPI_INT, (rank + 1) % size, 0, in, 64, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &m);
    printf("rank %d: sent %d, received %d, first %d\n", rank, n, m, in[0]);
    free(out);
    MPI_Finalize();
    return 0;
}
