/*
 * parity.c - the C program of the GDB parity suite
 * (tests/console/test-gdb-parity.sh): plain GDB on a native one-rank run
 * and the console on its replay answer the same script, command by
 * command. It has something for every kind of command: a struct with an
 * array, a union, an enum, a pointer and a string; globals of each base
 * type; a recursive function; functions returning a value (finish); a
 * loop on lines of its own (until, advance, watchpoints); a loop whose
 * length a debugger sets (Ctrl-C: spin_limit is 0 unless set); a few MPI
 * calls to replay. Lines the scripts name carry "mark:NAME". The output
 * is deterministic and every line of it starts with "out: ".
 *
 *   ./parity    or    mpiexec -n 1 ./parity
 */
#include <mpi.h>
#include <stdio.h>

enum color { RED, GREEN = 5, BLUE };

struct point {
    int x;
    int y;
};

union word {
    int i;
    float f;
    unsigned char b[4];
};

struct shape {
    char name[12];
    enum color color;
    struct point corner[2];
    union word tag;
    double scale;
    const char *label;
    struct shape *next;
};

typedef struct shape shape_t;

int counter = 0;
unsigned char bytes[8] = {1, 2, 3, 4, 250, 251, 252, 253};
short shorts[3] = {-1, 300, 7};
double ratios[4] = {0.5, 1.25, -2.0, 3.0};
const char *greeting = "hello, parity";
char letter = 'Q';
float third = 1.0f / 3.0f;
long long big = 1234567890123LL;
enum color favourite = BLUE;
shape_t inner = {"inner", GREEN, {{1, 2}, {3, 4}}, {0x41424344}, 0.5,
                 "the inner one", 0};
shape_t box = {"box", RED, {{-5, 10}, {20, -30}}, {65}, 2.75, "a box",
               &inner};
volatile long spin_limit = 0;

/* Not static: the scripts call them. */
int factorial(int n);
int square(int v);
long sum_to(int n);
void spin(void);

int factorial(int n)
{
    if (n <= 1)
        return 1; /* mark:base */
    return n * factorial(n - 1);
}

int square(int v)
{
    int sq = v * v; /* mark:square */
    return sq;
}

long sum_to(int n)
{
    long total = 0;
    for (int i = 1; i <= n; i++) /* mark:loop */
        total += i;              /* mark:body */
    counter = (int)total;        /* mark:sumdone */
    return total;
}

void spin(void)
{
    for (volatile long i = 0; i < spin_limit; i++) { } /* mark:spin */
}

int main(int argc, char **argv)
{
    int rank = -1, size = 0, local = 0, global = 0; /* mark:main */
    long total = 0;
    struct point origin = {7, -7};
    shape_t *cursor = &box;

    MPI_Init(&argc, &argv);         /* mark:init */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    local = square(rank + 7);       /* mark:call */
    local += factorial(5);          /* mark:fact */
    total = sum_to(10);             /* mark:sum */
    MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* mark:mpi */
    counter += global;              /* mark:after */
    origin.x += (int)total;
    cursor = cursor->next;
    spin();                         /* mark:spinning */
    printf("out: rank %d of %d: global %d total %ld counter %d\n", rank,
           size, global, total, counter);
    printf("out: %s at (%d,%d) %s\n", cursor->name, origin.x, origin.y,
           greeting);
    fflush(stdout);
    MPI_Finalize();
    return 0;                       /* mark:end */
}
