/*
 * test-mi-parse.c - unit tests of the GDB/MI parser, lookup and command
 * builder (no GDB needed).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mi.h"

static struct mi_record *parse(const char *line)
{
    struct mi_record *rec = NULL;
    int r = mi_parse_line(line, strlen(line), NULL, &rec);

    CHECK_MSG(r == 0, "parse of '%s' failed: %s", line, mi_err_name(r));
    if (r != 0 && rec)
        printf("#   at %zu: %s\n", rec->error_offset, rec->error_msg);
    return r == 0 ? rec : (mi_record_free(rec), NULL);
}

static char *dump(const struct mi_record *rec)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    mi_record_dump(rec, f);
    fclose(f);
    return buf;
}

TEST(result_done_with_token)
{
    struct mi_record *rec = parse("12^done,value=\"42\"");
    long long v = 0;

    REQUIRE(rec);
    CHECK_INT_EQ(rec->kind, MI_RECORD_RESULT);
    CHECK(rec->has_token);
    CHECK_INT_EQ(rec->token, 12);
    CHECK_STR_EQ(rec->klass, "done");
    CHECK_INT_EQ(rec->result_class, MI_CLASS_DONE);
    CHECK_STR_EQ(mi_get_str(rec, "value"), "42");
    CHECK_INT_EQ(mi_get_int(rec, "value", &v), 0);
    CHECK_INT_EQ(v, 42);
    CHECK_INT_EQ(mi_get_int(rec, "nothing", &v), MI_ENOTFOUND);
    mi_record_free(rec);
}

TEST(result_classes)
{
    static const struct {
        const char *line;
        enum mi_result_class cls;
    } cases[] = {
        {"^done", MI_CLASS_DONE},
        {"^running", MI_CLASS_RUNNING},
        {"^connected", MI_CLASS_CONNECTED},
        {"^error,msg=\"No symbol \\\"x\\\" in current context.\"", MI_CLASS_ERROR},
        {"^exit", MI_CLASS_EXIT},
        {"^future-class,a=\"1\"", MI_CLASS_OTHER},
    };
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct mi_record *rec = parse(cases[i].line);
        REQUIRE(rec);
        CHECK_INT_EQ(rec->kind, MI_RECORD_RESULT);
        CHECK(!rec->has_token);
        CHECK_INT_EQ(rec->result_class, cases[i].cls);
        if (cases[i].cls == MI_CLASS_ERROR)
            CHECK_STR_EQ(mi_get_str(rec, "msg"), "No symbol \"x\" in current context.");
        mi_record_free(rec);
    }
}

TEST(async_kinds)
{
    struct mi_record *rec;

    rec = parse("*stopped,reason=\"breakpoint-hit\",frame={func=\"main\",line=\"7\"},thread-id=\"1\"");
    REQUIRE(rec);
    CHECK_INT_EQ(rec->kind, MI_RECORD_EXEC);
    CHECK_STR_EQ(rec->klass, "stopped");
    CHECK_INT_EQ(rec->result_class, MI_CLASS_NONE);
    CHECK_STR_EQ(mi_get_str(rec, "frame.line"), "7");
    CHECK_STR_EQ(mi_get_str(rec, "frame.func"), "main");
    mi_record_free(rec);

    rec = parse("5+download,section=\".text\"");
    REQUIRE(rec);
    CHECK_INT_EQ(rec->kind, MI_RECORD_STATUS);
    CHECK_INT_EQ(rec->token, 5);
    mi_record_free(rec);

    rec = parse("=thread-group-added,id=\"i1\"");
    REQUIRE(rec);
    CHECK_INT_EQ(rec->kind, MI_RECORD_NOTIFY);
    CHECK_STR_EQ(rec->klass, "thread-group-added");
    CHECK_STR_EQ(mi_get_str(rec, "id"), "i1");
    mi_record_free(rec);

    rec = parse("*running,thread-id=\"all\"");
    REQUIRE(rec);
    CHECK_INT_EQ(rec->kind, MI_RECORD_EXEC);
    mi_record_free(rec);

    rec = parse("=cmd-param-changed");
    REQUIRE(rec);
    CHECK_INT_EQ(rec->results->count, 0);
    mi_record_free(rec);
}

TEST(stream_records_and_prompt)
{
    struct mi_record *rec;

    rec = parse("~\"Breakpoint 1 at 0x1139: file t.c, line 5.\\n\"");
    REQUIRE(rec);
    CHECK_INT_EQ(rec->kind, MI_RECORD_CONSOLE);
    CHECK_STR_EQ(rec->text, "Breakpoint 1 at 0x1139: file t.c, line 5.\n");
    CHECK_INT_EQ(rec->text_len, strlen(rec->text));
    mi_record_free(rec);

    rec = parse("@\"target says hi\"");
    REQUIRE(rec);
    CHECK_INT_EQ(rec->kind, MI_RECORD_TARGET);
    mi_record_free(rec);

    rec = parse("&\"warning: oops\\n\"");
    REQUIRE(rec);
    CHECK_INT_EQ(rec->kind, MI_RECORD_LOG);
    CHECK_STR_EQ(rec->text, "warning: oops\n");
    mi_record_free(rec);

    rec = parse("(gdb) ");
    REQUIRE(rec);
    CHECK_INT_EQ(rec->kind, MI_RECORD_PROMPT);
    mi_record_free(rec);
    rec = parse("(gdb)");
    REQUIRE(rec);
    CHECK_INT_EQ(rec->kind, MI_RECORD_PROMPT);
    mi_record_free(rec);
}

TEST(escapes)
{
    /* every escape GDB's printchar() emits, plus \x and an unknown one */
    struct mi_record *rec = parse(
        "~\"a\\nb\\tc\\\"d\\\\e\\033f\\ag\\bh\\fi\\vj\\rk\\el\\303\\251m\\0n\\x41\\qo\\177\"");
    static const char want[] = "a\nb\tc\"d\\e\033f\ag\bh\fi\vj\rk\033l\303\251m\0nAqo\177";

    REQUIRE(rec);
    CHECK_INT_EQ(rec->text_len, sizeof want - 1);
    CHECK(memcmp(rec->text, want, sizeof want - 1) == 0);
    CHECK(rec->text[rec->text_len] == '\0');
    mi_record_free(rec);

    /* octal escapes take at most three digits */
    rec = parse("^done,v=\"\\1011\\62x\"");
    REQUIRE(rec);
    CHECK_STR_EQ(mi_get_str(rec, "v"), "A12x");
    mi_record_free(rec);
}

TEST(repeated_keys_and_lookup)
{
    struct mi_record *rec = parse(
        "^done,thread-ids={thread-id=\"1\",thread-id=\"2\",thread-id=\"3\"},"
        "current-thread-id=\"1\",number-of-threads=\"3\"");
    const struct mi_value *v;

    REQUIRE(rec);
    v = mi_get(rec, "thread-ids");
    REQUIRE(v);
    CHECK_INT_EQ(v->kind, MI_VALUE_TUPLE);
    CHECK_INT_EQ(v->count, 3);
    CHECK_STR_EQ(mi_get_str(rec, "thread-ids.thread-id"), "1");
    CHECK_STR_EQ(mi_get_str(rec, "thread-ids[1]"), "2");
    CHECK_STR_EQ(mi_get_str(rec, "thread-ids[2]"), "3");
    CHECK(mi_get(rec, "thread-ids[3]") == NULL);
    v = mi_get(rec, "thread-ids.thread-id");
    v = mi_value_next_named(v, "thread-id");
    REQUIRE(v);
    CHECK_STR_EQ(v->str, "2");
    v = mi_value_next_named(v, "thread-id");
    REQUIRE(v);
    CHECK_STR_EQ(v->str, "3");
    CHECK(mi_value_next_named(v, "thread-id") == NULL);
    mi_record_free(rec);
}

TEST(list_of_results_stack)
{
    struct mi_record *rec = parse(
        "^done,stack=[frame={level=\"0\",func=\"compute\",line=\"37\"},"
        "frame={level=\"1\",func=\"outer\",line=\"44\"},"
        "frame={level=\"2\",func=\"main\",line=\"80\"}]");
    const struct mi_value *v;

    REQUIRE(rec);
    v = mi_get(rec, "stack");
    REQUIRE(v);
    CHECK_INT_EQ(v->kind, MI_VALUE_LIST);
    CHECK_INT_EQ(v->count, 3);
    CHECK_STR_EQ(mi_get_str(rec, "stack[0].func"), "compute");
    CHECK_STR_EQ(mi_get_str(rec, "stack[2].func"), "main");
    CHECK_STR_EQ(mi_get_str(rec, "stack.frame.func"), "compute");
    CHECK_STR_EQ(mi_get(rec, "stack[1]")->name, "frame");
    /* bad paths fail cleanly */
    CHECK(mi_get(rec, "stack[") == NULL);
    CHECK(mi_get(rec, "stack[x]") == NULL);
    CHECK(mi_get(rec, "stack[0]func") == NULL);
    CHECK(mi_get(rec, "stack[0].") == NULL);
    CHECK(mi_get(rec, "stack..x") == NULL);
    CHECK(mi_get(rec, "stack[0].func.more") == NULL);
    CHECK(mi_get(rec, "stack[99999999999999999999]") == NULL);
    CHECK(mi_get(rec, "") == rec->results);
    mi_record_free(rec);
}

TEST(list_of_values_and_empty)
{
    struct mi_record *rec = parse("^done,features=[\"a\",\"b\"],e1=[],e2={},s=\"\"");

    REQUIRE(rec);
    CHECK_STR_EQ(mi_get_str(rec, "features[1]"), "b");
    CHECK(mi_get(rec, "features[0]")->name == NULL);
    CHECK_INT_EQ(mi_get(rec, "e1")->count, 0);
    CHECK_INT_EQ(mi_get(rec, "e1")->kind, MI_VALUE_LIST);
    CHECK_INT_EQ(mi_get(rec, "e2")->kind, MI_VALUE_TUPLE);
    CHECK_STR_EQ(mi_get_str(rec, "s"), "");
    mi_record_free(rec);
}

TEST(mi3_multi_location_breakpoint)
{
    struct mi_record *rec = parse(
        "^done,bkpt={number=\"1\",type=\"breakpoint\",addr=\"<MULTIPLE>\","
        "locations=[{number=\"1.1\",enabled=\"y\",func=\"f<int>\"},"
        "{number=\"1.2\",enabled=\"y\",func=\"f<char>\"}]}");

    REQUIRE(rec);
    CHECK_STR_EQ(mi_get_str(rec, "bkpt.locations[1].number"), "1.2");
    CHECK_INT_EQ(mi_get(rec, "bkpt.locations")->count, 2);
    mi_record_free(rec);
}

TEST(mi2_bkpt_oddity)
{
    /* MI2: the locations follow the breakpoint as nameless tuples */
    struct mi_record *rec = parse(
        "=breakpoint-modified,bkpt={number=\"1\",addr=\"<MULTIPLE>\"},"
        "{number=\"1.1\",func=\"a\"},{number=\"1.2\",func=\"b\"}");
    const struct mi_value *v;

    REQUIRE(rec);
    CHECK_INT_EQ(rec->results->count, 3);
    v = mi_get(rec, "bkpt");
    REQUIRE(v && v->next && v->next->next);
    CHECK(v->next->name == NULL);
    CHECK_STR_EQ(mi_get_str(rec, "[2].func"), "b");
    mi_record_free(rec);

    /* and inside -break-list's body list */
    rec = parse("^done,BreakpointTable={body=[bkpt={number=\"1\"},{number=\"1.1\"}]}");
    REQUIRE(rec);
    CHECK_STR_EQ(mi_get_str(rec, "BreakpointTable.body[1].number"), "1.1");
    mi_record_free(rec);
}

TEST(crlf_and_big_token)
{
    struct mi_record *rec = parse("18446744073709551615^done\r");

    REQUIRE(rec);
    CHECK(rec->token == UINT64_MAX);
    CHECK_INT_EQ(rec->line_len, strlen("18446744073709551615^done"));
    mi_record_free(rec);
}

TEST(malformed_lines)
{
    static const struct {
        const char *line;
        int err;
        size_t off;
    } cases[] = {
        {"", MI_ESYNTAX, 0},
        {"hello world", MI_ESYNTAX, 0},
        {"12", MI_ESYNTAX, 2},
        {"18446744073709551616^done", MI_ESYNTAX, 19},
        {"^", MI_ESYNTAX, 1},
        {"^done,", MI_ESYNTAX, 6},
        {"^done x", MI_ESYNTAX, 5},
        {"^done,a", MI_ESYNTAX, 7},
        {"^done,a=", MI_ESYNTAX, 8},
        {"^done,a=b", MI_ESYNTAX, 8},
        {"^done,a=\"unterminated", MI_ESYNTAX, 21},
        {"^done,a=\"x\\", MI_ESYNTAX, 11},
        {"^done,a={b=\"1\"", MI_ESYNTAX, 14},
        {"^done,a=[\"1\" \"2\"]", MI_ESYNTAX, 12},
        {"^done,a={b=\"1\"]", MI_ESYNTAX, 14},
        {"^done,a=\"1\"junk", MI_ESYNTAX, 11},
        {"~\"text\" junk", MI_ESYNTAX, 7},
        {"~text", MI_ESYNTAX, 1},
        {"3~\"text\"", MI_ESYNTAX, 1},
        {"(gdb) x", MI_ESYNTAX, 0},
        {"^done,{=\"1\"}", MI_ESYNTAX, 7},
    };
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct mi_record *rec = NULL;
        int r = mi_parse_line(cases[i].line, strlen(cases[i].line), NULL, &rec);
        CHECK_MSG(r == cases[i].err, "'%s': %s", cases[i].line, mi_err_name(r));
        REQUIRE(rec);
        CHECK_INT_EQ(rec->kind, MI_RECORD_INVALID);
        CHECK_INT_EQ(rec->error, cases[i].err);
        CHECK_MSG(rec->error_offset == cases[i].off, "'%s': offset %zu, want %zu (%s)",
                  cases[i].line, rec->error_offset, cases[i].off, rec->error_msg);
        CHECK_STR_EQ(rec->line, cases[i].line);
        mi_record_free(rec);
    }
}

TEST(depth_limit)
{
    struct mi_parser_options opt = {0, 10};
    char line[200];
    struct mi_record *rec = NULL;
    int i, r;

    strcpy(line, "^done,a=");
    for (i = 0; i < 10; i++)
        strcat(line, "[");
    for (i = 0; i < 10; i++)
        strcat(line, "]");
    r = mi_parse_line(line, strlen(line), &opt, &rec);
    CHECK_INT_EQ(r, 0);
    mi_record_free(rec);
    strcpy(line, "^done,a=");
    for (i = 0; i < 11; i++)
        strcat(line, "{");
    r = mi_parse_line(line, strlen(line), &opt, &rec);
    CHECK_INT_EQ(r, MI_ETOODEEP);
    REQUIRE(rec);
    CHECK_INT_EQ(rec->error_offset, 18);
    mi_record_free(rec);
}

TEST(deep_nesting_default_no_crash)
{
    /* 100k unclosed brackets: an error, not a stack overflow */
    size_t n = 100000, i;
    char *line = malloc(n + 9);
    struct mi_record *rec = NULL;

    REQUIRE(line);
    memcpy(line, "^done,a=", 8);
    for (i = 0; i < n; i++)
        line[8 + i] = i % 2 ? '[' : '{';
    CHECK_INT_EQ(mi_parse_line(line, n + 8, NULL, &rec), MI_ETOODEEP);
    mi_record_free(rec);
    free(line);
}

TEST(dump_format)
{
    struct mi_record *rec = parse(
        "7^done,bkpt={number=\"1\",e=[],t={}},list=[\"a\\tb\",{x=\"\\303\\251\"}]");
    char *d;

    REQUIRE(rec);
    d = dump(rec);
    CHECK_STR_EQ(d,
        "result token=7 class=done\n"
        "  bkpt = {\n"
        "    number = \"1\"\n"
        "    e = []\n"
        "    t = {}\n"
        "  }\n"
        "  list = [\n"
        "    \"a\\tb\"\n"
        "    {\n"
        "      x = \"\\xc3\\xa9\"\n"
        "    }\n"
        "  ]\n");
    free(d);
    mi_record_free(rec);
}

TEST(dup)
{
    struct mi_record *rec = parse("*stopped,frame={func=\"main\"}"), *d;

    REQUIRE(rec);
    d = mi_record_dup(rec);
    mi_record_free(rec);
    REQUIRE(d);
    CHECK_STR_EQ(mi_get_str(d, "frame.func"), "main");
    mi_record_free(d);
}

/* ---------------------------------------------------------------- stream */

/* Feed `s` cut at the given sizes; return the dumps of all records. */
static char *stream_dump(const char *s, size_t len, const size_t *cuts,
                         size_t ncuts, const struct mi_parser_options *opt)
{
    struct mi_parser p;
    struct mi_record *rec;
    char *buf = NULL;
    size_t blen = 0, off = 0, i;
    FILE *f = open_memstream(&buf, &blen);

    mi_parser_init(&p, opt);
    for (i = 0; i <= ncuts; i++) {
        size_t end = i < ncuts ? cuts[i] : len;
        mi_parser_feed(&p, s + off, end - off);
        off = end;
        while (mi_parser_next(&p, &rec) == 1) {
            mi_record_dump(rec, f);
            mi_record_free(rec);
        }
    }
    while (mi_parser_finish(&p, &rec) == 1) {
        mi_record_dump(rec, f);
        mi_record_free(rec);
    }
    mi_parser_release(&p);
    fclose(f);
    return buf;
}

static const char stream_text[] =
    "=thread-group-added,id=\"i1\"\n"
    "(gdb) \n"
    "1^done,bkpt={number=\"1\",locations=[{number=\"1.1\"}]}\r\n"
    "~\"line \\\"one\\\"\\n\"\n"
    "garbage line\n"
    "\n"
    "2^running\n"
    "*running,thread-id=\"all\"\n"
    "*stopped,reason=\"exited-normally\"";

TEST(stream_every_split_point)
{
    size_t len = sizeof stream_text - 1, i, j;
    char *ref = stream_dump(stream_text, len, NULL, 0, NULL);

    REQUIRE(ref);
    CHECK(strstr(ref, "invalid error=SYNTAX offset=0") != NULL);
    CHECK(strstr(ref, "exited-normally") != NULL); /* unterminated last line */
    for (i = 0; i <= len; i++) {
        char *d = stream_dump(stream_text, len, &i, 1, NULL);
        CHECK_MSG(strcmp(d, ref) == 0, "split at %zu differs", i);
        free(d);
    }
    for (i = 0; i <= len; i += 7)
        for (j = i; j <= len; j += 5) {
            size_t cuts[2] = {i, j};
            char *d = stream_dump(stream_text, len, cuts, 2, NULL);
            CHECK_MSG(strcmp(d, ref) == 0, "split at %zu,%zu differs", i, j);
            free(d);
        }
    free(ref);
}

TEST(stream_byte_by_byte_and_random)
{
    size_t len = sizeof stream_text - 1, i, k;
    char *ref = stream_dump(stream_text, len, NULL, 0, NULL);
    size_t cuts[sizeof stream_text];
    unsigned seed = 12345;

    for (i = 0; i < len; i++)
        cuts[i] = i + 1;
    {
        char *d = stream_dump(stream_text, len, cuts, len - 1, NULL);
        CHECK(strcmp(d, ref) == 0);
        free(d);
    }
    for (k = 0; k < 500; k++) {
        size_t n = 0, pos = 0;
        while (pos < len) {
            seed = seed * 1103515245u + 12345u;
            pos += 1 + (seed >> 16) % 40;
            if (pos < len)
                cuts[n++] = pos;
        }
        char *d = stream_dump(stream_text, len, cuts, n, NULL);
        CHECK_MSG(strcmp(d, ref) == 0, "random chunking %zu differs", k);
        free(d);
    }
    free(ref);
}

TEST(stream_max_line)
{
    /* a too long line between two good ones, cut anywhere: always reported
       once, in order, and the buffer never grows past the limit */
    struct mi_parser_options opt = {64, 0};
    char text[400];
    size_t len, i;
    char *ref;

    strcpy(text, "1^done\n~\"");
    for (i = 0; i < 200; i++)
        strcat(text, "x");
    strcat(text, "\"\n2^done\n");
    len = strlen(text);
    ref = stream_dump(text, len, NULL, 0, &opt);
    CHECK_STR_EQ(ref,
                 "result token=1 class=done\n"
                 "invalid error=TOOLONG offset=64 \"line longer than max_line\" line=\"\"\n"
                 "result token=2 class=done\n");
    for (i = 0; i <= len; i++) {
        char *d = stream_dump(text, len, &i, 1, &opt);
        CHECK_MSG(strcmp(d, ref) == 0, "split at %zu differs:\n%s", i, d);
        free(d);
    }
    {
        size_t cuts[400];
        for (i = 0; i < len - 1; i++)
            cuts[i] = i + 1;
        char *d = stream_dump(text, len, cuts, len - 1, &opt);
        CHECK(strcmp(d, ref) == 0);
        free(d);
    }
    free(ref);
}

TEST(stream_bounded_memory)
{
    /* 100 MB of one line, fed in 1 MiB chunks, with a 1 MiB limit */
    struct mi_parser_options opt = {1 << 20, 0};
    struct mi_parser p;
    struct mi_record *rec;
    char *chunk = malloc(1 << 20);
    int i, n = 0;

    REQUIRE(chunk);
    memset(chunk, 'a', 1 << 20);
    mi_parser_init(&p, &opt);
    mi_parser_feed(&p, "~\"", 2);
    for (i = 0; i < 100; i++) {
        CHECK_INT_EQ(mi_parser_feed(&p, chunk, 1 << 20), 0);
        CHECK(p.cap <= (4u << 20));
        while (mi_parser_next(&p, &rec) == 1) {
            CHECK_INT_EQ(rec->error, MI_ETOOLONG);
            n++;
            mi_record_free(rec);
        }
    }
    mi_parser_feed(&p, "\"\n^done\n", 8);
    while (mi_parser_next(&p, &rec) == 1) {
        n++;
        if (n == 2)
            CHECK_INT_EQ(rec->result_class, MI_CLASS_DONE);
        mi_record_free(rec);
    }
    CHECK_INT_EQ(n, 2);
    mi_parser_release(&p);
    free(chunk);
}

TEST(stream_large_line_ok)
{
    /* a 10 MB line under the default limit parses, fed in small chunks */
    size_t n = 10u << 20, i;
    char *line = malloc(n + 16);
    struct mi_parser p;
    struct mi_record *rec = NULL;
    int got = 0;

    REQUIRE(line);
    memcpy(line, "^done,v=\"", 9);
    memset(line + 9, 'z', n);
    memcpy(line + 9 + n, "\"\r\n", 3);
    mi_parser_init(&p, NULL);
    for (i = 0; i < n + 12; i += 4093) {
        size_t k = n + 12 - i < 4093 ? n + 12 - i : 4093;
        mi_parser_feed(&p, line + i, k);
        while (mi_parser_next(&p, &rec) == 1) {
            got++;
            CHECK_INT_EQ(rec->kind, MI_RECORD_RESULT);
            CHECK_INT_EQ(mi_get(rec, "v")->len, n);
            mi_record_free(rec);
        }
    }
    CHECK_INT_EQ(got, 1);
    mi_parser_release(&p);
    free(line);
}

/* ---------------------------------------------------------------- builder */

TEST(command_builder)
{
    struct mi_cmd c;

    mi_cmd_init(&c);
    mi_cmd_op(&c, "-break-insert");
    mi_cmd_arg(&c, "-t");
    mi_cmd_arg(&c, "file with space.c:12");
    CHECK_STR_EQ(mi_cmd_str(&c), "-break-insert -t \"file with space.c:12\"");

    mi_cmd_op(&c, "-data-evaluate-expression");
    mi_cmd_arg(&c, "a\"b\\c\nd\te\001f\177g é");
    CHECK_STR_EQ(mi_cmd_str(&c),
                 "-data-evaluate-expression \"a\\\"b\\\\c\\nd\\te\\001f\\177g é\"");

    mi_cmd_op(&c, "-exec-arguments");
    mi_cmd_arg(&c, "");
    mi_cmd_arg(&c, "x=1");
    mi_cmd_opt(&c, "--thread", "2");
    CHECK_STR_EQ(mi_cmd_str(&c), "-exec-arguments \"\" x=1 --thread 2");

    mi_cmd_console(&c, "print \"hi\"\n");
    CHECK_STR_EQ(mi_cmd_str(&c), "-interpreter-exec console \"print \\\"hi\\\"\\n\"");

    /* octal escapes always have three digits: "\001" then "2" */
    mi_cmd_op(&c, "-x");
    mi_cmd_argn(&c, "\0012", 2);
    CHECK_STR_EQ(mi_cmd_str(&c), "-x \"\\0012\"");

    CHECK(mi_cmd_op(&c, "bad op") == MI_EINVAL);
    CHECK(mi_cmd_str(&c) == NULL);
    mi_cmd_op(&c, "-ok");
    CHECK(mi_cmd_str(&c) != NULL);
    CHECK(mi_cmd_opt(&c, "notopt", "x") == MI_EINVAL);
    CHECK(mi_cmd_str(&c) == NULL);
    mi_cmd_release(&c);
}

TEST(quote_roundtrip_random_bytes)
{
    /* whatever the bytes, quoting them and parsing the result as an MI
       c-string gives them back, and the quoted form holds no newline */
    unsigned seed = 99;
    int k;

    for (k = 0; k < 2000; k++) {
        char s[64], line[300];
        size_t n, i;
        char *q;
        struct mi_record *rec = NULL;
        seed = seed * 1103515245u + 12345u;
        n = (seed >> 16) % sizeof s;
        for (i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            s[i] = (char)(seed >> 16);
        }
        q = mi_quote(s, n);
        REQUIRE(q);
        CHECK(strchr(q, '\n') == NULL && strchr(q, '\r') == NULL);
        snprintf(line, sizeof line, "~%s", q);
        REQUIRE(mi_parse_line(line, strlen(line), NULL, &rec) == 0);
        CHECK_INT_EQ(rec->text_len, n);
        CHECK(memcmp(rec->text, s, n) == 0);
        mi_record_free(rec);
        free(q);
    }
}

TEST(error_table)
{
    CHECK_STR_EQ(mi_err_name(MI_ESYNTAX), "SYNTAX");
    CHECK_STR_EQ(mi_strerror(MI_EEXITED), "gdb exited");
    CHECK_STR_EQ(mi_strerror(12345), "unknown error");
    CHECK_STR_EQ(mi_err_name(0), "OK");
}

int main(void)
{
    RUN(result_done_with_token);
    RUN(result_classes);
    RUN(async_kinds);
    RUN(stream_records_and_prompt);
    RUN(escapes);
    RUN(repeated_keys_and_lookup);
    RUN(list_of_results_stack);
    RUN(list_of_values_and_empty);
    RUN(mi3_multi_location_breakpoint);
    RUN(mi2_bkpt_oddity);
    RUN(crlf_and_big_token);
    RUN(malformed_lines);
    RUN(depth_limit);
    RUN(deep_nesting_default_no_crash);
    RUN(dump_format);
    RUN(dup);
    RUN(stream_every_split_point);
    RUN(stream_byte_by_byte_and_random);
    RUN(stream_max_line);
    RUN(stream_bounded_memory);
    RUN(stream_large_line_ok);
    RUN(command_builder);
    RUN(quote_roundtrip_random_bytes);
    RUN(error_table);
    return check_done();
}
