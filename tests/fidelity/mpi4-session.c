/* MPI-4 Sessions without MPI_Init: process sets, a group from a pset, a
 * communicator from the group, messages on it, MPI_Session_finalize. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    MPI_Session s;
    MPI_Info info;
    int n = 0, len = 0, flag = 0;

    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_SINGLE");
    MPI_Session_init(info, MPI_ERRORS_RETURN, &s);
    MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
    printf("psets: %d\n", n);
    for (int i = 0; i < n; i++) {
        len = 0;
        MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL);
        char *name = malloc((size_t)len);
        MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name);
        MPI_Info pi;
        char sz[32] = "";
        int bl = sizeof sz;
        MPI_Session_get_pset_info(s, name, &pi);
        MPI_Info_get_string(pi, "mpi_size", &bl, sz, &flag);
        printf("pset %d: '%s' (len %d) mpi_size %s\n", i, name, len, sz);
        MPI_Info_free(&pi);
        free(name);
    }
    MPI_Group g;
    MPI_Comm comm;
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm_create_from_group(g, "org.drdb.test", MPI_INFO_NULL,
                               MPI_ERRORS_RETURN, &comm);
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    printf("rank %d of %d\n", rank, size);
    int v = rank * 10 + 1, got = -1;
    MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 5, &got, 1, MPI_INT,
                 (rank + size - 1) % size, 5, comm, MPI_STATUS_IGNORE);
    printf("rank %d: got %d\n", rank, got);
    int sum = 0;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm);
    printf("rank %d: sum %d\n", rank, sum);
    MPI_Group self;
    MPI_Comm scomm;
    MPI_Group_from_session_pset(s, "mpi://SELF", &self);
    MPI_Comm_create_from_group(self, "org.drdb.self", MPI_INFO_NULL,
                               MPI_ERRORS_RETURN, &scomm);
    MPI_Comm_size(scomm, &size);
    printf("rank %d: self size %d\n", rank, size);
    MPI_Comm_free(&scomm);
    MPI_Group_free(&self);
    MPI_Comm_free(&comm);
    MPI_Group_free(&g);
    MPI_Info_free(&info);
    MPI_Session_finalize(&s);
    MPI_Initialized(&flag);
    printf("rank %d: initialized %d after the session\n", rank, flag);
    return 0;
}
