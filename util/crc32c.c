/* CRC-32C (Castagnoli): SSE4.2's crc32 instruction when the CPU has it, a
 * table otherwise. Both give the same results (tests/unit/test-util.c). */
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
#endif

uint32_t util_crc32c(uint32_t crc, const void *buf, size_t len)
{
#if defined(__x86_64__)
    static int have_sse42 = -1;
    if (have_sse42 < 0)
        have_sse42 = __builtin_cpu_supports("sse4.2");
    if (have_sse42)
        return crc_sse42(crc, buf, len);
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

uint32_t util_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b)
{
    uint32_t shift = 1u << 31; /* x^0 */
    uint32_t sq = 1u << 23;    /* x^8: one byte */
    for (; len_b; len_b >>= 1) {
        if (len_b & 1)
            shift = mul_mod(shift, sq);
        sq = mul_mod(sq, sq);
    }
    return mul_mod(shift, crc_a) ^ crc_b;
}
