/* Class 5: MPI_BOTTOM and absolute addresses. Each rank takes the
 * addresses of several separate variables (globals, the stack, the heap)
 * with MPI_Get_address, builds struct types with absolute displacements
 * (MPI_Type_create_struct, the MPI-1 MPI_Type_struct and MPI_Address,
 * MPI_Type_hindexed), and sends and receives them with MPI_BOTTOM
 * as the buffer: blocking, nonblocking and in a collective. Rank r sends
 * to rank r+1. Prints what arrived in each variable. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int gi[3];
static double gd;

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    char sc[5] = "abcd";
    long *hl = malloc(2 * sizeof *hl);

    /* A struct of absolute addresses: gi[0..2], gd, sc[1..3], hl[1]. */
    int bl[4] = {3, 1, 3, 1};
    MPI_Aint d[4];
    MPI_Datatype ty[4] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_LONG}, t;
    MPI_Get_address(gi, &d[0]);
    MPI_Get_address(&gd, &d[1]);
    MPI_Get_address(&sc[1], &d[2]);
    MPI_Get_address(&hl[1], &d[3]);
    MPI_Type_create_struct(4, bl, d, ty, &t);
    MPI_Type_commit(&t);

    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 3; i++)
            gi[i] = 100 * rank + 10 * round + i;
        gd = rank + round / 4.0;
        sc[1] = (char)('A' + rank), sc[2] = (char)('a' + round), sc[3] = '!';
        hl[0] = -1, hl[1] = 1000000L * rank + round;
        MPI_Status st;
        if (round == 0) {
            MPI_Sendrecv_replace(MPI_BOTTOM, 1, t, right, 1, left, 1,
                                 MPI_COMM_WORLD, &st);
        } else if (round == 1) {
            /* send a copy: the receive overwrites the variables */
            int ci[3] = {gi[0], gi[1], gi[2]};
            double cd = gd;
            char cc[3] = {sc[1], sc[2], sc[3]};
            long cl = hl[1];
            MPI_Datatype u;
            MPI_Aint e[4];
            MPI_Get_address(ci, &e[0]);
            MPI_Get_address(&cd, &e[1]);
            MPI_Get_address(cc, &e[2]);
            MPI_Get_address(&cl, &e[3]);
            MPI_Type_create_struct(4, bl, e, ty, &u);
            MPI_Type_commit(&u);
            MPI_Request r[2];
            MPI_Irecv(MPI_BOTTOM, 1, t, left, 2, MPI_COMM_WORLD, &r[0]);
            MPI_Isend(MPI_BOTTOM, 1, u, right, 2, MPI_COMM_WORLD, &r[1]);
            MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
            MPI_Type_free(&u);
        } else {
            /* rank 0's variables to everyone */
            MPI_Bcast(MPI_BOTTOM, 1, t, 0, MPI_COMM_WORLD);
        }
        printf("round %d: gi %d %d %d gd %g sc %s hl %ld %ld\n", round, gi[0],
               gi[1], gi[2], gd, sc, hl[0], hl[1]);
    }

    /* MPI-1: MPI_Address and MPI_Type_struct, MPI_Type_hindexed. */
    int a = 10 + rank, b[2] = {20 + rank, 30 + rank};
    MPI_Aint da[2];
    MPI_Address(&a, &da[0]);
    MPI_Address(&b[1], &da[1]);
    int bl2[2] = {1, 1};
    MPI_Datatype t2[2] = {MPI_INT, MPI_INT}, s, h;
    MPI_Type_struct(2, bl2, da, t2, &s);
    MPI_Type_commit(&s);
    MPI_Sendrecv_replace(MPI_BOTTOM, 1, s, right, 3, left, 3, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    printf("struct: a %d b %d %d\n", a, b[0], b[1]);
    MPI_Type_hindexed(2, bl2, da, MPI_INT, &h);
    MPI_Type_commit(&h);
    MPI_Bcast(MPI_BOTTOM, 1, h, size - 1, MPI_COMM_WORLD);
    printf("hindexed bcast: a %d b %d %d\n", a, b[0], b[1]);
    MPI_Type_free(&s);
    MPI_Type_free(&h);
    MPI_Type_free(&t);
    free(hl);
    MPI_Finalize();
    return 0;
}
