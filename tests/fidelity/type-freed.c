/* MPI_Type_get_contents returns the handles of the types a type was built
 * from even after the program freed them (MPI keeps them while a type
 * built from them lives): a vector of a freed contiguous type, a struct
 * of a freed vector and a freed resized type. The returned handles are
 * used as receive types, then freed. Each rank sends to itself. */
#include <mpi.h>
#include <stdio.h>

static void recv_into(int me, const char *what, MPI_Datatype t, int count)
{
    int src[16], back[24];
    MPI_Status st;
    for (int i = 0; i < 16; i++)
        src[i] = me * 100 + i;
    for (int i = 0; i < 24; i++)
        back[i] = -1;
    int size;
    MPI_Type_commit(&t);
    MPI_Type_size(t, &size);
    MPI_Sendrecv(src, count * size / 4, MPI_INT, 0, 1, back, count, t, 0, 1, MPI_COMM_SELF,
                 &st);
    int n;
    MPI_Get_elements(&st, MPI_INT, &n);
    printf("rank %d: %s (%d ints):", me, what, n);
    for (int i = 0; i < 24; i++)
        printf(" %d", back[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    int me, ints[8];
    MPI_Aint addrs[4];
    MPI_Datatype pair, vec, rs, st, got[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_vector(2, 1, 3, pair, &vec);
    MPI_Type_create_resized(MPI_INT, 0, 12, &rs);
    int bl[2] = {1, 2};
    MPI_Aint d[2] = {0, 64};
    MPI_Datatype ty[2] = {vec, rs};
    MPI_Type_create_struct(2, bl, d, ty, &st);
    MPI_Type_commit(&st);
    MPI_Type_free(&pair);
    MPI_Type_free(&vec);
    MPI_Type_free(&rs);

    MPI_Type_get_contents(st, 8, 4, 2, ints, addrs, got);
    printf("rank %d: struct of %d: %d %d at %ld %ld\n", me, ints[0], ints[1],
           ints[2], (long)addrs[0], (long)addrs[1]);
    recv_into(me, "member 0, the vector", got[0], 1);
    recv_into(me, "member 1, the resized int", got[1], 3);
    MPI_Type_get_contents(got[0], 8, 4, 2, ints, addrs, &got[2]);
    printf("rank %d: vector %d %d %d\n", me, ints[0], ints[1], ints[2]);
    recv_into(me, "its pair", got[2], 2);
    recv_into(me, "the struct", st, 1);
    for (int i = 0; i < 3; i++)
        MPI_Type_free(&got[i]);
    MPI_Type_free(&st);
    MPI_Finalize();
    printf("rank %d: done\n", me);
    return 0;
}
