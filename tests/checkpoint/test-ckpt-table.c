/*
 * test-ckpt-table - the checkpoint table's line (ckpt-file.h), which the
 * library writes into drdb_ckpt_table and the console reads back
 * (frontend/con-ckpt.c): a line as the library has always written it reads
 * as its fields and is written again to the byte; every field survives
 * the round trip, the edges included (no event, a file's, a debugger's
 * pc, the largest ids and sizes); what is not a line is refused.
 * (tests/checkpoint/zdtm.c reads the live library's table this way.)
 */
#include <limits.h>
#include <stdint.h>

#include "check.h"
#include "ckpt-file.h"

static int same(const struct ckpt_info *a, const struct ckpt_info *b)
{
    return a->id == b->id && a->parent == b->parent &&
           a->event == b->event && a->time == b->time &&
           a->pages == b->pages && a->bytes == b->bytes &&
           a->external == b->external && a->in_file == b->in_file &&
           a->pc == b->pc;
}

/* The format as the console has read it since the table was made: a
 * debugger's checkpoint (no event, a pc) and one of the stub's. */
TEST(pinned_lines)
{
    static const struct {
        const char *line;
        struct ckpt_info ck;
    } t[] = {
        {"3 2 -1 0.250000 17 69632 1 0 0x401136\n",
         {3, 2, UINT64_MAX, 0.25, 17, 69632, 1, 0, 0x401136}},
        {"1 0 12 1.500000 4096 16850944 0 1 0\n",
         {1, 0, 12, 1.5, 4096, 16850944, 0, 1, 0}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        struct ckpt_info got;
        char buf[CKPT_TABLE_LINE_MAX];
        REQUIRE(ckpt_table_parse(t[i].line, &got) == 0);
        CHECK_MSG(same(&got, &t[i].ck), "line %zu read differently", i);
        int n = ckpt_table_line(buf, sizeof buf, &t[i].ck);
        CHECK_STR_EQ(buf, t[i].line);
        CHECK_INT_EQ(n, strlen(t[i].line));
    }
}

TEST(round_trip)
{
    static const struct ckpt_info t[] = {
        {1, -1, 0, 0.0, 0, 0, 0, 0, 0},
        {LONG_MAX, LONG_MAX - 1, UINT64_MAX - 1, 123456.000001, UINT64_MAX,
         UINT64_MAX, 1, 1, UINT64_MAX},
        {7, 6, UINT64_MAX, 3.141593, 1, 4096 + 312, 1, 0, 0x7ffff7fc1000},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char buf[CKPT_TABLE_LINE_MAX];
        struct ckpt_info got;
        int n = ckpt_table_line(buf, sizeof buf, &t[i]);
        CHECK_MSG(n > 0 && n < (int)sizeof buf && buf[n - 1] == '\n',
                  "line %zu: %d bytes", i, n);
        REQUIRE(ckpt_table_parse(buf, &got) == 0);
        CHECK_MSG(same(&got, &t[i]), "line %zu: %s", i, buf);
    }
}

/* A table is read line by line: each line stops at its newline. */
TEST(table_of_lines)
{
    const char *table = "1 0 5 0.100000 10 40960 0 0 0\n"
                        "2 1 9 0.200000 3 12288 0 0 0\n";
    struct ckpt_info a, b;
    REQUIRE(ckpt_table_parse(table, &a) == 0);
    REQUIRE(ckpt_table_parse(strchr(table, '\n') + 1, &b) == 0);
    CHECK_INT_EQ(a.id, 1);
    CHECK_INT_EQ(a.event, 5);
    CHECK_INT_EQ(b.id, 2);
    CHECK_INT_EQ(b.parent, 1);
    CHECK_INT_EQ(b.pages, 3);
}

TEST(not_a_line)
{
    static const char *const bad[] = {
        "", "\n", "1 0 5 0.100000 10 40960 0 0\n", /* 8 fields */
        "checkpoint 1\n", "1 0 x 0.1 10 40960 0 0 0\n",
    };
    struct ckpt_info ck = {.id = 42};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_MSG(ckpt_table_parse(bad[i], &ck) < 0, "'%s' read", bad[i]);
        CHECK_INT_EQ(ck.id, 42);
    }
}

int main(void)
{
    RUN(pinned_lines);
    RUN(round_trip);
    RUN(table_of_lines);
    RUN(not_a_line);
    return check_done();
}
