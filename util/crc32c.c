/* CRC-32C (Castagnoli): SSE4.2's crc32 instruction when the CPU has it
 * (long buffers as three streams, combined), a table otherwise. All give
 * the same results (tests/unit/test-util.c). */
#include <stdint.h>
#include <string.h>

#include "util.h"

/* The portable version, also used by the tests to check the fast one. */
uint32_t util__crc32c_sw(uint32_t crc, const uint8_t *p, size_t len);

static uint32_t table[256];

uint32_t util__crc32c_sw(uint32_t crc, const uint8_t *p, size_t len)
{
    if (!table[1]) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
            table[i] = c;
        }
    }
    crc = ~crc;
    while (len--)
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t
crc_sse42(uint32_t crc, const uint8_t *p, size_t len)
{
    uint64_t c = ~crc;
    while (len >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = __builtin_ia32_crc32di(c, v);
        p += 8;
        len -= 8;
    }
    /* The tail in at most three steps (small records are mostly tail). */
    uint32_t c32 = (uint32_t)c;
    if (len & 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        c32 = __builtin_ia32_crc32si(c32, v);
        p += 4;
    }
    if (len & 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        c32 = __builtin_ia32_crc32hi(c32, v);
        p += 2;
    }
    if (len & 1)
        c32 = __builtin_ia32_crc32qi(c32, *p);
    return ~c32;
}

/* Long buffers in three streams at once: the crc32 instruction takes 3
 * cycles but a new one can start every cycle, so one stream waits on
 * itself two cycles in three. The three sums are then combined. */
#define THREE_WAY_FROM (64u << 10)

static uint32_t shift_of(uint64_t len);
static uint32_t mul_mod(uint32_t a, uint32_t b);

__attribute__((target("sse4.2"))) static uint32_t
crc_sse42_3way(uint32_t crc, const uint8_t *p, size_t len)
{
    size_t part = len / 24 * 8; /* each stream's bytes, whole words */
    const uint8_t *q = p + part, *r = q + part;
    uint64_t a = ~crc, b = 0xffffffffu, c = 0xffffffffu;
    for (size_t i = 0; i < part; i += 8) {
        uint64_t va, vb, vc;
        memcpy(&va, p + i, 8);
        memcpy(&vb, q + i, 8);
        memcpy(&vc, r + i, 8);
        a = __builtin_ia32_crc32di(a, va);
        b = __builtin_ia32_crc32di(b, vb);
        c = __builtin_ia32_crc32di(c, vc);
    }
    /* A's sum shifted over B, plus B's, shifted over C, plus C's (the
     * shift is the same twice) */
    uint32_t sh = shift_of(part);
    uint32_t ab = mul_mod(sh, ~(uint32_t)a) ^ ~(uint32_t)b;
    uint32_t abc = mul_mod(sh, ab) ^ ~(uint32_t)c;
    return crc_sse42(abc, r + part, len - 3 * part);
}
#endif

uint32_t util_crc32c(uint32_t crc, const void *buf, size_t len)
{
#if defined(__x86_64__)
    static int have_sse42 = -1;
    if (have_sse42 < 0)
        have_sse42 = __builtin_cpu_supports("sse4.2");
    if (have_sse42)
        return len >= THREE_WAY_FROM ? crc_sse42_3way(crc, buf, len)
                                     : crc_sse42(crc, buf, len);
#endif
    return util__crc32c_sw(crc, buf, len);
}

/* Combining: CRC-32C is linear over GF(2), so the checksum of A || B is
 * A's multiplied by x^(8 |B|) modulo the polynomial, plus B's (the initial
 * and final inversions cancel). Polynomials are bit-reversed, as the CRC
 * itself: x^0 is the top bit. */
#define CRC32C_POLY 0x82f63b78u

/* A(x) B(x) mod P(x). */
static uint32_t mul_mod(uint32_t a, uint32_t b)
{
    uint32_t prod = 0;
    for (uint32_t bit = 1u << 31; bit; bit >>= 1) {
        if (a & bit)
            prod ^= b;
        b = b & 1 ? (b >> 1) ^ CRC32C_POLY : b >> 1; /* b *= x */
    }
    return prod;
}

/* x^(8 LEN) mod P: shifting a sum over LEN bytes. The last one asked is
 * kept per thread (the recorder and the reader sum blocks of one size). */
static uint32_t shift_of(uint64_t len)
{
    static __thread uint64_t last_len;
    static __thread uint32_t last = 1u << 31;
    if (len == last_len)
        return last;
    uint32_t shift = 1u << 31; /* x^0 */
    uint32_t sq = 1u << 23;    /* x^8: one byte */
    for (uint64_t n = len; n; n >>= 1) {
        if (n & 1)
            shift = mul_mod(shift, sq);
        sq = mul_mod(sq, sq);
    }
    last_len = len;
    last = shift;
    return shift;
}

uint32_t util_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b)
{
    return mul_mod(shift_of(len_b), crc_a) ^ crc_b;
}
