/* The MPI function table: ids unique, sorted and permanent; lookups work. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "log.h"

/*
 * The permanent assignment of ids 1..PINNED_MAX_ID, pinned by a 64-bit
 * FNV-1a hash of the lines "ID NAME\n" in id order. Appending functions to
 * the spec leaves it unchanged; renumbering, renaming or removing any pinned
 * function changes it. When (and only when) new functions are appended,
 * raise PINNED_MAX_ID/PINNED_HASH together in a reviewed commit.
 */
#define PINNED_MAX_ID 634
#define PINNED_HASH UINT64_C(0x5674703b61bedac8)

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

TEST(ids_unique_and_increasing)
{
    REQUIRE(log_funcs_count == DRDB_MPI_FUNC_COUNT);
    for (int i = 1; i < log_funcs_count; i++)
        CHECK_MSG(log_funcs[i].id > log_funcs[i - 1].id, "%s after %s",
                  log_funcs[i].name, log_funcs[i - 1].name);
    CHECK(log_funcs[0].id >= 1);
}

TEST(names_unique)
{
    for (int i = 0; i < log_funcs_count; i++)
        CHECK_MSG(log_func_by_name(log_funcs[i].name) == &log_funcs[i], "%s",
                  log_funcs[i].name);
}

TEST(pinned_ids_never_change)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    char line[128];
    int n = 0;

    for (int i = 0; i < log_funcs_count && log_funcs[i].id <= PINNED_MAX_ID;
         i++, n++) {
        snprintf(line, sizeof line, "%d %s\n", log_funcs[i].id,
                 log_funcs[i].name);
        h = fnv1a(h, line);
    }
    CHECK_INT_EQ(n, PINNED_MAX_ID);
    CHECK_MSG(h == PINNED_HASH,
              "ids 1..%d changed (hash %#llx): ids are permanent, append new "
              "functions at the end of log/mpi-functions.spec",
              PINNED_MAX_ID, (unsigned long long)h);
}

TEST(well_known_ids)
{
    /* A few ids spelled out, so a reader sees what the pin protects. */
    CHECK_INT_EQ(LOG_FN_MPI_Send, 272);
    CHECK_INT_EQ(LOG_FN_MPI_Recv, 268);
    CHECK_INT_EQ(LOG_FN_MPI_Wtime, 348);
    CHECK_INT_EQ(LOG_FN_MPI_Allreduce, 30);
}

TEST(lookup_by_id_and_name)
{
    const struct log_func_desc *fn = log_func_by_id(LOG_FN_MPI_Send);
    REQUIRE(fn != NULL);
    CHECK_STR_EQ(fn->name, "MPI_Send");
    CHECK(log_func_by_name("PMPI_Send") == fn);
    CHECK(log_func_by_name("mpi_send") == fn);
    CHECK(log_func_by_name("MPI_Sendx") == NULL);
    CHECK(log_func_by_id(0) == NULL);
    CHECK(log_func_by_id(DRDB_MPI_FUNC_MAX_ID + 1) == NULL);
    CHECK_STR_EQ(log_func_name(-5), "?");
    CHECK_STR_EQ(log_func_name(LOG_FN_MPI_Wtime), "MPI_Wtime");
}

TEST(argument_annotations)
{
    const struct log_func_desc *fn = log_func_by_name("MPI_Recv");
    REQUIRE(fn && fn->nargs == 7);
    CHECK_STR_EQ(fn->args[0].name, "buf");
    CHECK_INT_EQ(fn->args[0].dir, LOG_DIR_OUT);
    CHECK_STR_EQ(fn->args[0].length, "count x datatype");
    CHECK_INT_EQ(fn->args[1].dir, LOG_DIR_VALUE);
    CHECK_INT_EQ(fn->args[6].dir, LOG_DIR_OUT); /* status */

    fn = log_func_by_name("MPI_Irecv");
    REQUIRE(fn);
    CHECK_INT_EQ(fn->args[0].dir, LOG_DIR_ASYNC);

    fn = log_func_by_name("MPI_Wait");
    REQUIRE(fn && fn->nargs == 2);
    CHECK_INT_EQ(fn->args[0].dir, LOG_DIR_INOUT);
    CHECK_INT_EQ(fn->cls, LOG_CLASS_MANUAL);
}

TEST(every_pointer_has_a_direction)
{
    for (int i = 0; i < log_funcs_count; i++)
        for (int j = 0; j < log_funcs[i].nargs; j++) {
            const struct log_arg_desc *a = &log_funcs[i].args[j];
            int pointer = strchr(a->ctype, '*') || strchr(a->ctype, '[');
            CHECK_MSG(pointer == (a->dir != LOG_DIR_VALUE), "%s: %s",
                      log_funcs[i].name, a->name);
        }
}

int main(void)
{
    RUN(ids_unique_and_increasing);
    RUN(names_unique);
    RUN(pinned_ids_never_change);
    RUN(well_known_ids);
    RUN(lookup_by_id_and_name);
    RUN(argument_annotations);
    RUN(every_pointer_has_a_direction);
    return check_done();
}
