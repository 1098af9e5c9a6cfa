/*
 * complete - an MPI program for the console's tab completion
 * (tests/console/test-console-complete.sh). Its names begin as the replay
 * stub's internals and libc's do, so that a completion offering those is
 * seen: rank_open_x (the stub's log__rank_open_visit, which GDB offers as
 * "rank_open_visit"), map_file_x and make_room_x (log__map_file,
 * ckpt__make_room; libc's makecontext, malloc), read_board (libc's read,
 * readdir64, realloc); board and bonus (print bo), factorial (break fac;
 * libc's faccessat).
 *
 *   mpiexec -n 2 ./complete      (prints "rank R: 120 ...")
 */
#include <mpi.h>
#include <stdio.h>

/* global functions, as a library's would be (declared first: -Werror's
 * missing-prototypes) */
int rank_open_x(int r);
int map_file_x(int r);
int make_room_x(int r);
int read_board(int i);

int board[4] = {1, 2, 3, 4};
double bonus = 0.5;

static long factorial(int n)
{
    return n <= 1 ? 1 : n * factorial(n - 1);
}

int rank_open_x(int r)
{
    return r + board[r % 4];
}

int map_file_x(int r)
{
    return r * 2;
}

int make_room_x(int r)
{
    return r * 3;
}

int read_board(int i)
{
    return board[i % 4];
}

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int mine = rank_open_x(rank) + map_file_x(rank) + make_room_x(rank);
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: %ld %d %d %g\n", rank, factorial(5), sum,
           read_board(rank), bonus);
    MPI_Finalize();
    return 0;
}
