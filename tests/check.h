/*
 * check.h - the unit-test harness: TAP output, one process per test file.
 *
 * A test file defines test functions with TEST(name) and lists them in
 * main() with RUN(name); main returns check_done(). CHECK() records a failure
 * with file:line and goes on; REQUIRE() stops the current test. meson runs
 * each test executable as its own process with a timeout (protocol 'tap').
 */
#ifndef DRDB_CHECK_H
#define DRDB_CHECK_H

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

static int check__n, check__failed_tests, check__cur_failed;
static jmp_buf check__abort;

#define TEST(name) static void test_##name(void)

#define CHECK_MSG(cond, ...)                                                 \
    do {                                                                     \
        if (!(cond)) {                                                       \
            check__cur_failed = 1;                                           \
            printf("#   %s:%d: check failed: %s: ", __FILE__, __LINE__,      \
                   #cond);                                                   \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
            /* stderr too: meson --print-errorlogs shows only stderr */     \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, \
                    #cond);                                                  \
            fprintf(stderr, __VA_ARGS__);                                    \
            fprintf(stderr, "\n");                                           \
        }                                                                    \
    } while (0)
#define CHECK(cond) CHECK_MSG(cond, "%s", "")
#define REQUIRE(cond)                                                        \
    do {                                                                     \
        int check__ok = !!(cond); /* evaluated once: it may have effects */  \
        CHECK_MSG(check__ok, "%s", #cond);                                   \
        if (!check__ok)                                                      \
            longjmp(check__abort, 1);                                        \
    } while (0)
#define CHECK_INT_EQ(a, b)                                                   \
    do {                                                                     \
        long long check__a = (long long)(a), check__b = (long long)(b);      \
        CHECK_MSG(check__a == check__b, "%lld != %lld", check__a, check__b); \
    } while (0)
#define CHECK_STR_EQ(a, b)                                                   \
    do {                                                                     \
        const char *check__a = (a), *check__b = (b);                         \
        CHECK_MSG(check__a && check__b && strcmp(check__a, check__b) == 0,   \
                  "\"%s\" != \"%s\"", check__a ? check__a : "(null)",        \
                  check__b ? check__b : "(null)");                           \
    } while (0)

#define RUN(name)                                                            \
    do {                                                                     \
        check__cur_failed = 0;                                               \
        fflush(stdout);                                                      \
        if (setjmp(check__abort) == 0)                                       \
            test_##name();                                                   \
        check__n++;                                                          \
        if (check__cur_failed)                                               \
            check__failed_tests++;                                           \
        printf("%s %d - %s\n", check__cur_failed ? "not ok" : "ok",          \
               check__n, #name);                                             \
        fflush(stdout);                                                      \
    } while (0)

static inline int check_done(void)
{
    printf("1..%d\n", check__n);
    return check__failed_tests ? 1 : 0;
}

#endif
