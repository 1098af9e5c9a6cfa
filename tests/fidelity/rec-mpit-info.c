/* The tool information interface's get_info calls (MPI 4.0, 15.3): an
 * output argument may be NULL, and the implementation then ignores it;
 * a string whose length argument is NULL or 0 is not returned (15.3.3).
 * Every control variable is asked about with NULL for every optional
 * output, with buffers but no lengths, with a buffer too short and with
 * real buffers; the performance variables and the categories with NULL
 * outputs and with buffers; the enumerations the variables use. Run with
 * 1 rank. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static unsigned long sum; /* of every answer: what the replay must give */

static void add(const char *s, int n)
{
    for (int i = 0; i < n && s[i]; i++)
        sum = sum * 31 + (unsigned char)s[i];
}

static void enum_items(MPI_T_enum e)
{
    int num = 0, len = 0, value = 0;
    char name[256];
    if (e == MPI_T_ENUM_NULL)
        return;
    MPI_T_enum_get_info(e, &num, NULL, &len);
    len = sizeof name;
    MPI_T_enum_get_info(e, &num, name, &len);
    add(name, len);
    for (int i = 0; i < num; i++) {
        len = sizeof name;
        MPI_T_enum_get_item(e, i, &value, name, &len);
        sum += (unsigned)value;
        add(name, len);
    }
}

static int cvars(void)
{
    int num = 0, bad = 0;
    MPI_T_cvar_get_num(&num);
    for (int i = 0; i < num; i++) {
        char name[256], desc[1024], shortname[8];
        int nlen = 0, dlen = 0, verb = 0, bind = 0, scope = 0;
        MPI_Datatype type;
        MPI_T_enum e;
        /* Every optional output NULL: nothing written. */
        if (MPI_T_cvar_get_info(i, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                NULL, NULL) != MPI_SUCCESS)
            bad++;
        /* Buffers without their lengths: ignored, left as they were. */
        strcpy(name, "untouched");
        strcpy(desc, "untouched");
        MPI_T_cvar_get_info(i, name, NULL, &verb, NULL, NULL, desc, NULL,
                            NULL, NULL);
        if (strcmp(name, "untouched") || strcmp(desc, "untouched"))
            bad++;
        /* The lengths only. */
        MPI_T_cvar_get_info(i, NULL, &nlen, NULL, NULL, NULL, NULL, &dlen,
                            NULL, NULL);
        sum += (unsigned)(nlen + dlen);
        /* A buffer too short: the name cut to 7 characters, the length it
         * needs returned. */
        nlen = sizeof shortname;
        MPI_T_cvar_get_info(i, shortname, &nlen, NULL, NULL, NULL, NULL,
                            NULL, NULL, NULL);
        add(shortname, sizeof shortname);
        sum += (unsigned)nlen;
        nlen = sizeof name;
        dlen = sizeof desc;
        MPI_T_cvar_get_info(i, name, &nlen, &verb, &type, &e, desc, &dlen,
                            &bind, &scope);
        add(name, nlen);
        add(desc, dlen);
        sum += (unsigned)(verb + bind + scope);
        enum_items(e);
    }
    printf("%d control variables, %d answered wrong with NULL outputs\n",
           num, bad);
    return num;
}

static void pvars(void)
{
    int num = 0;
    MPI_T_pvar_get_num(&num);
    for (int i = 0; i < num; i++) {
        char name[256];
        int nlen = sizeof name, dlen = 0, verb, cls, bind, ro, cont, at;
        MPI_Datatype type;
        MPI_T_enum e;
        MPI_T_pvar_get_info(i, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                            NULL, NULL, NULL, NULL, NULL);
        MPI_T_pvar_get_info(i, name, &nlen, &verb, &cls, &type, &e, NULL,
                            &dlen, &bind, &ro, &cont, &at);
        add(name, nlen);
        sum += (unsigned)(dlen + verb + cls + bind + ro + cont + at);
    }
    printf("%d performance variables\n", num);
}

static void categories(void)
{
    int num = 0;
    MPI_T_category_get_num(&num);
    for (int i = 0; i < num; i++) {
        char name[256];
        int nlen = sizeof name, dlen = 0, nc = 0, np = 0, ncat = 0;
        MPI_T_category_get_info(i, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
        MPI_T_category_get_info(i, name, &nlen, NULL, &dlen, &nc, &np,
                                &ncat);
        add(name, nlen);
        sum += (unsigned)(dlen + nc + np + ncat);
    }
    printf("%d categories\n", num);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Init(&argc, &argv);
    cvars();
    pvars();
    categories();
    printf("checksum %lu\n", sum);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
