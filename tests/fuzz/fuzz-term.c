/*
 * fuzz-term.c - libFuzzer target for the terminal filter and the JSON
 * strings of util/term-escape.c (tests/fuzz/run-fuzz.sh).
 *
 * Input: a first byte that chooses the filter's flags and where the text
 * is cut into pieces, then the text (as a program may print it). Checks,
 * beyond "no crash, no leak, no UB":
 *   - the text filtered in pieces (a sequence or a character cut in two)
 *     is the text filtered whole, within TERM_ESCAPE_MAX;
 *   - without colours, what reaches the terminal holds no control
 *     character but tab and newline, is valid UTF-8 and holds no C1
 *     control; with colours, every ESC starts a colour sequence
 *     (ESC [ digits ; : m) and a colour is reset at the end;
 *   - term_json's string is valid JSON (valid UTF-8, no raw control
 *     character, only the escapes it documents) and decodes back to
 *     every byte of the text (\u00XX above 0x7f: a byte not UTF-8).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "term-escape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The length of the valid UTF-8 character at P (N bytes left), 0 if none;
 * written apart from term-escape.c's, from RFC 3629's table. */
static size_t utf8_at(const unsigned char *p, size_t n)
{
    unsigned char b = p[0];
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf;
    if (b < 0x80)
        return 1;
    if (b >= 0xc2 && b <= 0xdf)
        len = 2;
    else if (b >= 0xe0 && b <= 0xef) {
        len = 3;
        lo = b == 0xe0 ? 0xa0 : 0x80;
        hi = b == 0xed ? 0x9f : 0xbf;
    } else if (b >= 0xf0 && b <= 0xf4) {
        len = 4;
        lo = b == 0xf0 ? 0x90 : 0x80;
        hi = b == 0xf4 ? 0x8f : 0xbf;
    } else
        return 0;
    if (n < len || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return len;
}

static void check_terminal(const unsigned char *o, size_t n, int sgr)
{
    int coloured = 0;
    for (size_t i = 0; i < n;) {
        if (o[i] == 0x1b) {
            if (!sgr || i + 2 >= n || o[i + 1] != '[')
                abort();
            size_t j = i + 2;
            while (j < n && ((o[j] >= '0' && o[j] <= '9') || o[j] == ';' ||
                             o[j] == ':'))
                j++;
            if (j >= n || o[j] != 'm')
                abort();
            coloured = 1;
            i = j + 1;
            continue;
        }
        if ((o[i] < 0x20 && o[i] != '\t' && o[i] != '\n') || o[i] == 0x7f)
            abort();
        size_t l = utf8_at(o + i, n - i);
        if (!l || (l == 2 && o[i] == 0xc2 && o[i + 1] <= 0x9f))
            abort();
        i += l;
    }
    if (coloured && (n < 4 || memcmp(o + n - 4, "\033[0m", 4) != 0))
        abort();
}

static int hexval(unsigned char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : -1;
}

/* J (N bytes) decoded as the JSON string term_json writes; must be IN. */
static void check_json(const unsigned char *j, size_t n,
                       const unsigned char *in, size_t len)
{
    unsigned char *back = malloc(n + 1);
    size_t b = 0;
    if (!back)
        return;
    if (n < 2 || j[0] != '"' || j[n - 1] != '"')
        abort();
    for (size_t i = 1; i < n - 1;) {
        if (j[i] == '"' || j[i] < 0x20)
            abort();
        if (j[i] != '\\') {
            size_t l = utf8_at(j + i, n - 1 - i);
            if (!l)
                abort();
            memcpy(back + b, j + i, l);
            b += l;
            i += l;
            continue;
        }
        unsigned char e = j[i + 1];
        const char *simple = strchr("\"\\ntr", e);
        if (e && simple) {
            back[b++] = "\"\\\n\t\r"[simple - "\"\\ntr"];
            i += 2;
            continue;
        }
        if (e != 'u' || i + 6 > n - 1)
            abort();
        int v = 0;
        for (int k = 2; k < 6; k++) {
            int h = hexval(j[i + (size_t)k]);
            if (h < 0)
                abort();
            v = v * 16 + h;
        }
        if (v > 0xff)
            abort();
        back[b++] = (unsigned char)v;
        i += 6;
    }
    if (b != len || memcmp(back, in, len) != 0)
        abort();
    free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned flags = data[0] & 1 ? TERM_ESCAPE_SGR : 0;
    size_t step = (size_t)(data[0] >> 1) + 1; /* the pieces' size */
    const uint8_t *text = data + 1;
    size_t len = size - 1;

    char *whole = term_escape_mem(text, len, flags);
    char *pieces = malloc(TERM_ESCAPE_MAX(len) + 1);
    if (!whole || !pieces) {
        free(whole);
        free(pieces);
        return 0;
    }
    struct term_escape t;
    term_escape_init(&t, flags);
    size_t o = 0;
    for (size_t i = 0; i < len; i += step) {
        size_t k = len - i < step ? len - i : step;
        size_t w = term_escape_feed(&t, text + i, k, pieces + o);
        if (w > TERM_ESCAPE_MAX(k))
            abort();
        o += w;
    }
    o += term_escape_end(&t, pieces + o);
    if (o > TERM_ESCAPE_MAX(len) || o != strlen(whole) ||
        memcmp(pieces, whole, o) != 0)
        abort();
    check_terminal((const unsigned char *)whole, o, flags != 0);

    char *j = malloc(TERM_JSON_MAX(len));
    if (j) {
        int invalid = 0;
        size_t n = term_json(text, len, j, &invalid);
        if (n > TERM_JSON_MAX(len))
            abort();
        check_json((const unsigned char *)j, n, text, len);
    }
    free(j);
    free(whole);
    free(pieces);
    return 0;
}
