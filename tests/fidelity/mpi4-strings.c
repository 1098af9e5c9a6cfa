/* Calls whose string outputs are shorter than their buffers: object
 * names, info keys, error strings, the processor name, the library
 * version. The replay must return the same strings and lengths. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, len = 0, flag = 0;
    char s[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_name(MPI_COMM_WORLD, rank ? "world-odd" : "world-zero");
    MPI_Comm_get_name(MPI_COMM_WORLD, s, &len);
    printf("rank %d: comm name '%s' %d\n", rank, s, len);
    MPI_Type_get_name(MPI_DOUBLE, s, &len);
    printf("rank %d: type name '%s' %d\n", rank, s, len);
    MPI_Win win;
    int mem[4];
    MPI_Win_create(mem, sizeof mem, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_name(win, "the-window");
    MPI_Win_get_name(win, s, &len);
    printf("rank %d: win name '%s' %d\n", rank, s, len);
    MPI_Win_free(&win);
    MPI_Error_string(MPI_ERR_TRUNCATE, s, &len);
    printf("rank %d: error string len %d '%.12s'\n", rank, len, s);
    MPI_Error_class(MPI_ERR_TRUNCATE, &flag);
    MPI_Get_processor_name(s, &len);
    printf("rank %d: processor name len %d\n", rank, len == (int)strlen(s));
    MPI_Get_library_version(s, &len);
    printf("rank %d: library len %d\n", rank, len == (int)strlen(s));
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alpha", "1");
    MPI_Info_set(info, "beta-key", "two");
    int nk;
    MPI_Info_get_nkeys(info, &nk);
    for (int i = 0; i < nk; i++) {
        char key[MPI_MAX_INFO_KEY + 1], val[8];
        MPI_Info_get_nthkey(info, i, key);
        int vl = 0;
        MPI_Info_get_valuelen(info, key, &vl, &flag);
        MPI_Info_get(info, key, sizeof val - 1, val, &flag);
        int bl = 2;
        MPI_Info_get_string(info, key, &bl, val, &flag);
        printf("rank %d: key %d '%s' valuelen %d truncated to '%s' buflen %d\n",
               rank, i, key, vl, val, bl);
    }
    MPI_Info_free(&info);
    MPI_Finalize();
    return 0;
}
