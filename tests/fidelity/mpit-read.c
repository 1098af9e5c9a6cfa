/*
 * The tool information interface (MPI 4.0 15.3): control variables read
 * through handles (scalar ones, bound to nothing or to MPI_COMM_WORLD),
 * and a performance variable session: each value printed. The replay
 * must give every read the recorded value (the recorder logs a read's
 * buffer by its handle's count and its variable's datatype). The control
 * variables are read before MPI_Init and after it, as a tool would.
 * (Debian's MPICH 4.0.2 has no performance variables: the session is
 * made and the count printed, 0.)
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* Reads up to MAX scalar control variables of integer or double type;
 * prints their names and values. */
static void read_cvars(const char *when, int max)
{
    int num = 0, shown = 0;
    MPI_T_cvar_get_num(&num);
    for (int i = 0; i < num && shown < max; i++) {
        char name[256], desc[8];
        int nlen = sizeof name, dlen = sizeof desc, verb, bind, scope;
        MPI_Datatype t;
        MPI_T_enum en;
        if (MPI_T_cvar_get_info(i, name, &nlen, &verb, &t, &en, desc, &dlen,
                                &bind, &scope) != MPI_SUCCESS)
            continue;
        if (bind != MPI_T_BIND_NO_OBJECT && bind != MPI_T_BIND_MPI_COMM)
            continue;
        if (t != MPI_INT && t != MPI_UNSIGNED && t != MPI_UNSIGNED_LONG &&
            t != MPI_UNSIGNED_LONG_LONG && t != MPI_DOUBLE)
            continue;
        MPI_Comm comm = MPI_COMM_WORLD;
        MPI_T_cvar_handle h;
        int count = 0;
        if (MPI_T_cvar_handle_alloc(i, bind == MPI_T_BIND_MPI_COMM ? &comm
                                                                    : NULL,
                                    &h, &count) != MPI_SUCCESS)
            continue;
        if (count == 1) {
            union { int i; unsigned u; unsigned long ul;
                    unsigned long long ull; double d; } v;
            memset(&v, 0x5a, sizeof v);
            MPI_T_cvar_read(h, &v);
            if (t == MPI_INT)
                printf("%s: %s = %d\n", when, name, v.i);
            else if (t == MPI_UNSIGNED)
                printf("%s: %s = %u\n", when, name, v.u);
            else if (t == MPI_DOUBLE)
                printf("%s: %s = %g\n", when, name, v.d);
            else
                printf("%s: %s = %llu\n", when, name,
                       t == MPI_UNSIGNED_LONG ? (unsigned long long)v.ul
                                              : v.ull);
            shown++;
        }
        MPI_T_cvar_handle_free(&h);
    }
    printf("%s: %d control variables, %d read\n", when, num, shown);
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    read_cvars("before MPI_Init", 3);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    read_cvars(rank ? "rank 1" : "rank 0", 12);
    int npvar = 0;
    MPI_T_pvar_get_num(&npvar);
    MPI_T_pvar_session session;
    MPI_T_pvar_session_create(&session);
    int read = 0;
    for (int i = 0; i < npvar && read < 4; i++) {
        char name[256], desc[8];
        int nlen = sizeof name, dlen = sizeof desc, verb, cls, bind, ro,
            cont, atomic, count = 0;
        MPI_Datatype t;
        MPI_T_enum en;
        MPI_T_pvar_handle h;
        if (MPI_T_pvar_get_info(i, name, &nlen, &verb, &cls, &t, &en, desc,
                                &dlen, &bind, &ro, &cont, &atomic) !=
                MPI_SUCCESS || bind != MPI_T_BIND_NO_OBJECT ||
            (t != MPI_UNSIGNED_LONG_LONG && t != MPI_UNSIGNED_LONG) ||
            MPI_T_pvar_handle_alloc(session, i, NULL, &h, &count) !=
                MPI_SUCCESS)
            continue;
        if (count == 1) {
            unsigned long long v = 0x5a5a5a5a5a5a5a5aULL;
            if (!cont)
                MPI_T_pvar_start(session, h);
            MPI_T_pvar_read(session, h, &v);
            printf("rank %d: pvar %s = %llu\n", rank, name, v);
            read++;
        }
        MPI_T_pvar_handle_free(session, &h);
    }
    printf("rank %d: %d performance variables, %d read\n", rank, npvar, read);
    MPI_T_pvar_session_free(&session);
    MPI_Finalize();
    MPI_T_finalize();
    return 0;
}
