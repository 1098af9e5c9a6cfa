/* MPI-4: calls legal before MPI_Init (info objects, version queries,
 * Initialized/Finalized) and after MPI_Finalize (the same, on an info
 * object made before it and on new ones). The replay must answer them as
 * the recorded run did. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int flag = -1, ver = 0, sub = 0, len = 0, buflen = 0;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], val[64];
    MPI_Info info, env;

    MPI_Initialized(&flag);
    printf("pre: initialized %d\n", flag);
    MPI_Finalized(&flag);
    printf("pre: finalized %d\n", flag);
    MPI_Get_version(&ver, &sub);
    printf("pre: version %d.%d\n", ver, sub);
    MPI_Get_library_version(lib, &len);
    printf("pre: library %.20s (%d)\n", lib, len > 0);
    MPI_Info_create(&info);
    MPI_Info_set(info, "color", "blue-green");
    MPI_Info_get_string(info, "color", &buflen, val, &flag);
    printf("pre: info size query %d flag %d\n", buflen, flag);
    buflen = sizeof val;
    MPI_Info_get_string(info, "color", &buflen, val, &flag);
    printf("pre: info '%s' buflen %d flag %d\n", val, buflen, flag);
    MPI_Info_create_env(argc, argv, &env);
    int nkeys = 0;
    MPI_Info_get_nkeys(env, &nkeys);
    printf("pre: env info has keys %d\n", nkeys > 0);
    buflen = sizeof val;
    MPI_Info_get_string(env, "maxprocs", &buflen, val, &flag);
    printf("pre: maxprocs flag %d '%s'\n", flag, flag ? val : "");

    MPI_Init(&argc, &argv);
    int rank, size, prov;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Initialized(&flag);
    MPI_Query_thread(&prov);
    printf("rank %d of %d: initialized %d thread %d\n", rank, size, flag, prov);
    int sum = 0, me = rank + 1;
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: sum %d\n", rank, sum);
    MPI_Info kept, dup, fresh;
    MPI_Info_create(&kept);
    MPI_Info_set(kept, "shape", "torus");
    MPI_Info_free(&info);
    MPI_Info_free(&env);
    MPI_Finalize();
    MPI_Info_dup(kept, &dup);
    MPI_Info_set(dup, "size", "42");
    MPI_Info_get_nkeys(dup, &nkeys);
    buflen = sizeof val;
    MPI_Info_get_string(dup, "shape", &buflen, val, &flag);
    printf("post: dup has %d keys, shape '%s' flag %d\n", nkeys,
           flag ? val : "", flag);
    MPI_Info_create(&fresh);
    MPI_Info_set(fresh, "k", "v");
    char key[MPI_MAX_INFO_KEY];
    MPI_Info_get_nthkey(fresh, 0, key);
    MPI_Info_delete(dup, "size");
    MPI_Info_get_nkeys(dup, &nkeys);
    printf("post: fresh key '%s', dup keys after delete %d\n", key, nkeys);
    MPI_Info_free(&dup);
    MPI_Info_free(&fresh);
    MPI_Info_free(&kept);
    printf("post: freed %d\n", kept == MPI_INFO_NULL);
    MPI_Finalized(&flag);
    printf("post: finalized %d\n", flag);
    MPI_Initialized(&flag);
    printf("post: initialized %d\n", flag);
    return 0;
}
