/*
 * mpit-events - a tool probing MPI_T's events and event sources (MPI 4.0
 * 15.3.8): their numbers, the first event's description, an event by
 * name, a registration for event 0. Debian's MPICH 4.0.2 has no events,
 * so every call after the counts fails; the replay must give the same
 * answers (the recording cannot size a successful call's outputs, but a
 * failed call has none to reproduce).
 *
 *   mpiexec -n 1..4 ./mpit-events
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int prov, rank, nev = -1, nsrc = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &prov);
    MPI_T_event_get_num(&nev);
    MPI_T_source_get_num(&nsrc);
    char name[64], desc[64];
    int nl = sizeof name, dl = sizeof desc, verb, ne = 4, bind, idx = -1;
    MPI_Datatype dt[4];
    MPI_Aint disp[4];
    MPI_T_enum et;
    MPI_Info info;
    int info_rc = MPI_T_event_get_info(0, name, &nl, &verb, dt, disp, &ne,
                                       &et, &info, desc, &dl, &bind);
    int index_rc = MPI_T_event_get_index("drdb_no_such_event", &idx);
    MPI_T_event_registration reg;
    int alloc_rc = MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &reg);
    printf("rank %d: %d events, %d sources; event 0's info %s, an event by "
           "name %s, a registration %s\n", rank, nev, nsrc,
           info_rc == MPI_SUCCESS ? "read" : "refused",
           index_rc == MPI_SUCCESS ? "found" : "not found",
           alloc_rc == MPI_SUCCESS ? "made" : "refused");
    if (alloc_rc == MPI_SUCCESS)
        MPI_T_event_handle_free(reg, NULL, NULL);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
