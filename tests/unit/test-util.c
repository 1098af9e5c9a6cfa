/* util/: the growing array, the hash table against a plain array, CRC-32C
 * (both implementations). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util.h"

uint32_t util__crc32c_sw(uint32_t crc, const uint8_t *p, size_t len);

TEST(crc32c_known_values)
{
    /* RFC 3720's check value for CRC-32C. */
    CHECK_INT_EQ(util_crc32c(0, "123456789", 9), 0xe3069283u);
    CHECK_INT_EQ(util__crc32c_sw(0, (const uint8_t *)"123456789", 9),
                 0xe3069283u);
    uint8_t buf[1000];
    for (int i = 0; i < 1000; i++)
        buf[i] = (uint8_t)(i * 7);
    for (size_t len = 0; len < 1000; len += 37)
        CHECK_INT_EQ(util_crc32c(0, buf + 1, len),
                     util__crc32c_sw(0, buf + 1, len));
}

TEST(crc32c_long_and_combined_equal_one_pass)
{
    static uint8_t buf[70000];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 131 + (i >> 9));
    static const size_t cuts[][2] = {{0, 0},     {0, 9},     {5, 0},
                                     {1, 1},     {13, 4096}, {4095, 65537},
                                     {70000, 0}, {1, 69999}, {333, 777}};
    /* the long path (three streams combined), continued from a sum */
    static const size_t longs[] = {65536, 65537, 65560, 69999, 70000};
    for (size_t k = 0; k < sizeof longs / sizeof longs[0]; k++) {
        CHECK_INT_EQ(util_crc32c(0, buf, longs[k]),
                     util__crc32c_sw(0, buf, longs[k]));
        CHECK_INT_EQ(util_crc32c(0x12345678u, buf + 3, longs[k] - 3),
                     util__crc32c_sw(0x12345678u, buf + 3, longs[k] - 3));
    }
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        size_t a = cuts[k][0], b = cuts[k][1];
        uint32_t whole = util__crc32c_sw(0, buf, a + b);
        CHECK_INT_EQ(util_crc32c_combine(util_crc32c(0, buf, a),
                                         util_crc32c(0, buf + a, b), b),
                     whole);
    }
}

TEST(grow_doubles_and_keeps_contents)
{
    int *v = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < 1000; i++) {
        REQUIRE(util_grow(&v, &cap, i + 1, sizeof *v) == 0);
        CHECK(cap >= i + 1 && (cap & (cap - 1)) == 0);
        v[i] = (int)i;
    }
    for (size_t i = 0; i < 1000; i++)
        CHECK_INT_EQ(v[i], (int)i);
    size_t before = cap;
    REQUIRE(util_grow(&v, &cap, 10, sizeof *v) == 0);
    CHECK(cap == before); /* never shrinks */
    free(v);
}

struct ent {
    int64_t val;
    int key;
};

/* Keys spread like MPICH's handles: a kind in the top bits, an index. */
static int key_of(int i)
{
    return (int)(0xac000000u | (uint32_t)(i * 3));
}

TEST(htab_against_an_array)
{
    enum { N = 5000 };
    static int64_t ref[N]; /* 0: absent */
    struct util_htab t = UTIL_HTAB_INIT(struct ent, key, 0);
    CHECK(util_htab_find(&t, key_of(1)) == NULL); /* empty, unallocated */
    uint32_t r = 12345;
    for (int step = 0; step < 50000; step++) {
        r = r * 1103515245u + 12345u;
        int i = (int)((r >> 8) % N);
        struct ent *e = util_htab_find(&t, key_of(i));
        CHECK((e != NULL) == (ref[i] != 0));
        if (e)
            CHECK(e->val == ref[i] && e->key == key_of(i));
        if (r >> 31 && e) {
            util_htab_remove(&t, e);
            ref[i] = 0;
        } else {
            struct ent n = {step + 1, key_of(i)};
            REQUIRE(util_htab_put(&t, &n) == 0);
            ref[i] = step + 1;
        }
    }
    size_t present = 0;
    for (int i = 0; i < N; i++) {
        struct ent *e = util_htab_find(&t, key_of(i));
        present += ref[i] != 0;
        CHECK((e != NULL) == (ref[i] != 0));
        if (e)
            CHECK(e->val == ref[i]);
    }
    CHECK_INT_EQ(t.used, present);
    util_htab_release(&t);
    CHECK(t.v == NULL && t.cap == 0 && t.used == 0);
}

TEST(htab_null_key_clear)
{
    struct util_htab t = UTIL_HTAB_INIT(struct ent, key, -1);
    struct ent n = {7, -1};
    REQUIRE(util_htab_put(&t, &n) == 0); /* the null key: not stored */
    CHECK(util_htab_find(&t, -1) == NULL);
    CHECK_INT_EQ(t.used, 0);
    for (int i = 0; i < 3000; i++) {
        struct ent e = {i, i};
        REQUIRE(util_htab_put(&t, &e) == 0);
    }
    CHECK_INT_EQ(t.used, 3000);
    struct ent *e = util_htab_find(&t, 2999);
    REQUIRE(e != NULL);
    CHECK(e->val == 2999);
    size_t cap = t.cap;
    util_htab_clear(&t);
    CHECK_INT_EQ(t.used, 0);
    CHECK(t.cap == cap); /* the memory stays for reuse */
    CHECK(util_htab_find(&t, 2999) == NULL && util_htab_find(&t, 0) == NULL);
    struct ent again = {1, 5};
    REQUIRE(util_htab_put(&t, &again) == 0);
    CHECK(util_htab_find(&t, 5) != NULL);
    util_htab_release(&t);
}

/* FIPS 180-4's examples, and a length crossing the padding boundary. */
static void test_sha256_known_values(void)
{
    static const struct {
        const char *in, *hex;
    } v[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    char hex[65];
    struct util_sha256 s;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        util_sha256_init(&s);
        util_sha256_update(&s, v[i].in, strlen(v[i].in));
        util_sha256_hex(&s, hex);
        CHECK_STR_EQ(hex, v[i].hex);
    }
    /* one million 'a', fed in uneven pieces */
    static char a[1000];
    memset(a, 'a', sizeof a);
    util_sha256_init(&s);
    for (int i = 0; i < 1000; i++) {
        util_sha256_update(&s, a, 7);
        util_sha256_update(&s, a, 993);
    }
    util_sha256_hex(&s, hex);
    CHECK_STR_EQ(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_path_abs_and_under(void)
{
    char out[64];
    REQUIRE(util_path_abs("/home/me", "a/./b//c/../d", out, sizeof out) == 0);
    CHECK_STR_EQ(out, "/home/me/a/b/d");
    REQUIRE(util_path_abs("/home/me", "/etc/../../x/", out, sizeof out) == 0);
    CHECK_STR_EQ(out, "/x");
    REQUIRE(util_path_abs("/", ".", out, sizeof out) == 0);
    CHECK_STR_EQ(out, "/");
    CHECK(util_path_abs("/home/me", "a-name-much-too-long-for-the-buffer-of-64-"
                        "bytes-given-here", out, sizeof out) == -1);
    CHECK_STR_EQ(util_path_under("/home/me/in/p.dat", "/home/me"), "in/p.dat");
    CHECK_STR_EQ(util_path_under("/home/me", "/home/me/"), "");
    CHECK(util_path_under("/home/mel/p", "/home/me") == NULL);
    CHECK_STR_EQ(util_path_under("/x", "/"), "x");
}

int main(void)
{
    RUN(sha256_known_values);
    RUN(path_abs_and_under);
    RUN(crc32c_known_values);
    RUN(crc32c_long_and_combined_equal_one_pass);
    RUN(grow_doubles_and_keeps_contents);
    RUN(htab_against_an_array);
    RUN(htab_null_key_clear);
    return check_done();
}
