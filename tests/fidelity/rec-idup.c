/* MPI_Comm_idup (MPI 4.0, 7.4.2): the new communicator may be used only
 * once the request completed; until then MPI may not have made it yet.
 * One rank starts each idup late, so the other's is still pending when its
 * call returns: of MPI_COMM_WORLD, of a reordered split (with info, while
 * a second idup runs) and of an intercommunicator, after communicators
 * were freed (MPI reuses their objects). Then each new communicator
 * carries traffic. Run with 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

static int me;

static void use(MPI_Comm c, const char *what)
{
    int size, r, inter, sum = 0, v = -1;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &r);
    MPI_Comm_test_inter(c, &inter);
    MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, c);
    if (inter)
        MPI_Sendrecv(&r, 1, MPI_INT, 0, 7, &v, 1, MPI_INT, 0, 7, c,
                     MPI_STATUS_IGNORE);
    else if (r == 0)
        MPI_Send(&sum, 1, MPI_INT, 1, 7, c);
    else if (r == 1)
        MPI_Recv(&v, 1, MPI_INT, 0, 7, c, MPI_STATUS_IGNORE);
    printf("rank %d: %s size %d rank %d sum %d got %d\n", me, what, size, r,
           sum, v);
}

/* Rank LATE starts its idup of C 0.2 s after the others. */
static MPI_Request idup(MPI_Comm c, MPI_Comm *d, int late)
{
    MPI_Request req;
    int flag = 0;
    if (me == late)
        usleep(200000);
    MPI_Comm_idup(c, d, &req);
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    return req;
}

int main(int argc, char **argv)
{
    MPI_Comm d, split, d2, d3, half, inter, d4, x;
    MPI_Request req[2];
    MPI_Status st[2];
    MPI_Info info;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    req[0] = idup(MPI_COMM_WORLD, &d, 1);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    use(d, "idup(world)");

    MPI_Comm_split(MPI_COMM_WORLD, 0, -me, &split);
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    if (me == 0)
        usleep(200000);
    MPI_Comm_idup_with_info(split, info, &d2, &req[0]);
    MPI_Info_free(&info);
    req[1] = idup(d, &d3, -1);
    MPI_Waitall(2, req, st);
    use(d2, "idup_with_info(split)");
    use(d3, "idup(idup)");

    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - me % 2, 5, &inter);
    MPI_Comm_dup(MPI_COMM_WORLD, &x);
    MPI_Comm_free(&x);
    req[0] = idup(inter, &d4, 1);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    use(d4, "idup(intercomm)");

    MPI_Comm_free(&d4);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Comm_free(&d);
    MPI_Comm_free(&d2);
    MPI_Comm_free(&d3);
    MPI_Comm_free(&split);
    MPI_Finalize();
    return 0;
}
