/* corpus: class=type expect=ok np=2 */
/* Legal unusual usage: ranks 0 and 1 swap buffers of less common C types,
 * each with its matching predefined datatype (MPI 4.0 sec. 3.2.2, 3.3.1):
 * bool/MPI_C_BOOL, signed char/MPI_SIGNED_CHAR, unsigned char/
 * MPI_UNSIGNED_CHAR, unsigned long/MPI_UNSIGNED_LONG, long long/
 * MPI_LONG_LONG, MPI_Aint/MPI_AINT, then an MPI_MINLOC over a struct
 * {int v; int i;} as MPI_2INT (sec. 6.9.4). */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>

struct ipair { int v; int i; };

int main(int argc, char **argv)
{
    int rank, peer, bad = 0;
    bool f[2], g[2];
    signed char sc[3] = {-1, -2, -3}, sc2[3];
    unsigned char uc[3] = {200, 201, 202}, uc2[3];
    unsigned long ul = 4000000000UL, ul2 = 0;
    long long ll = -(1LL << 40), ll2 = 0;
    MPI_Aint a, a2 = 0;
    struct ipair in, out;
    MPI_Comm c = MPI_COMM_WORLD;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(c, &rank);
    peer = 1 - rank;
    f[0] = rank == 0; f[1] = true;
    MPI_Get_address(&ul, &a);
    MPI_Sendrecv(f, 2, MPI_C_BOOL, peer, 0,
                 g, 2, MPI_C_BOOL, peer, 0, c, MPI_STATUS_IGNORE);
    MPI_Sendrecv(sc, 3, MPI_SIGNED_CHAR, peer, 1,
                 sc2, 3, MPI_SIGNED_CHAR, peer, 1, c, MPI_STATUS_IGNORE);
    MPI_Sendrecv(uc, 3, MPI_UNSIGNED_CHAR, peer, 2,
                 uc2, 3, MPI_UNSIGNED_CHAR, peer, 2, c, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&ul, 1, MPI_UNSIGNED_LONG, peer, 3,
                 &ul2, 1, MPI_UNSIGNED_LONG, peer, 3, c, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&ll, 1, MPI_LONG_LONG, peer, 4,
                 &ll2, 1, MPI_LONG_LONG, peer, 4, c, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&a, 1, MPI_AINT, peer, 5,
                 &a2, 1, MPI_AINT, peer, 5, c, MPI_STATUS_IGNORE);
    in.v = 10 - rank; in.i = rank;
    MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MINLOC, c);
    bad |= g[0] != (peer == 0) || !g[1] || sc2[2] != -3 || uc2[2] != 202;
    bad |= ul2 != 4000000000UL || ll2 != -(1LL << 40) || a2 == 0;
    bad |= out.v != 9 || out.i != 1;
    if (bad)
        printf("rank %d: wrong data\n", rank);
    MPI_Finalize();
    return 0;
}
