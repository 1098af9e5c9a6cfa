/*
 * term-escape.h - text from a run, made safe to show: a program's output,
 * GDB's words about it, a run description's fields, names from logs. Any
 * of them can hold bytes a terminal obeys (ESC sequences that retitle it,
 * write the clipboard, clear the screen or make it type an answer into
 * drdb's input; a carriage return that overwrites what drdb printed).
 *
 * For a terminal (term_escape_*): tab and newline pass; every other
 * control character is shown as text, never sent: ESC as "\e" (so
 * "\033[2J" shows "\e[2J"), CR as "\r", the others as "\xNN" (BEL
 * "\x07", DEL "\x7f"); a byte that is not part of valid UTF-8 as "\xNN";
 * the C1 controls (U+0080-U+009F, which some terminals obey) and the
 * bidirectional overrides (U+202A-U+202E, U+2066-U+2069, which reorder
 * what is shown) as "\uXXXX". A backslash is left as it is: the text
 * stays as readable as it was, and a lookalike is only text. With
 * TERM_ESCAPE_SGR, colour sequences (ESC [ digits ; : m) pass, and the
 * end of the text resets the colour.
 *
 * For JSON (term_json): every byte kept, as a JSON string: control
 * characters (NUL included) as escapes, a byte that is not part of valid
 * UTF-8 as "\u00XX" (the character of the byte's value), so the line is
 * valid JSON whatever the program printed.
 *
 * libc only, no stdio, no global state; the streaming filter allocates
 * nothing.
 */
#ifndef DRDB_TERM_ESCAPE_H
#define DRDB_TERM_ESCAPE_H

#include <stddef.h>

#define TERM_ESCAPE_SGR 1u /* colour sequences pass */
/* One field of a listing (an argument, a path) shown exactly: a backslash
 * as "\\", tab and newline as "\t", "\n", so that no field can look
 * like another's text or begin a line of its own. */
#define TERM_ESCAPE_FIELD 2u

/* The longest sequence held between two pieces of input: a UTF-8
 * character or a colour sequence begun, not yet ended. A longer
 * "colour sequence" is no colour: it is shown as text. */
#define TERM_ESCAPE_HELD 32

/* The most bytes term_escape_feed() and term_escape_end() write together
 * for LEN bytes of input (each byte at most "\xNN", the held ones too,
 * then a colour reset). */
#define TERM_ESCAPE_MAX(len) (4 * ((len) + TERM_ESCAPE_HELD) + 8)

/* The filter's state for one stream: text that may arrive in pieces (a
 * sequence or a character split across two reads is judged whole). */
struct term_escape {
    unsigned flags;
    unsigned char held[TERM_ESCAPE_HELD];
    size_t nheld;
    int coloured; /* a colour sequence passed: the end resets it */
};

void term_escape_init(struct term_escape *t, unsigned flags);
/* Filters LEN bytes at IN into OUT (room for TERM_ESCAPE_MAX(LEN)
 * bytes, not NUL-terminated): the number of bytes written. A sequence
 * or character that may go on in the next piece is held. */
size_t term_escape_feed(struct term_escape *t, const void *in, size_t len,
                        char *out);
/* The end of the stream (or of a line that must not leak a colour into
 * what follows): what is held, shown as text, and a colour reset when a
 * colour passed, into OUT (room for TERM_ESCAPE_MAX(0)); the number of
 * bytes written. T is ready for a new stream. */
size_t term_escape_end(struct term_escape *t, char *out);

/* LEN bytes at S filtered whole, as a new NUL-terminated string
 * (malloc'd), or NULL out of memory. */
char *term_escape_mem(const void *s, size_t len, unsigned flags);
/* The string S filtered whole (malloc'd), or NULL out of memory. */
char *term_escape(const char *s, unsigned flags);

/* The most bytes term_json() writes for LEN bytes of input. */
#define TERM_JSON_MAX(len) (6 * (len) + 2)

/* LEN bytes at S as a JSON string, quotes included, into OUT (room for
 * TERM_JSON_MAX(LEN), not NUL-terminated): the number of bytes written.
 * *INVALID (when not NULL) is set when a byte was not valid UTF-8. */
size_t term_json(const void *s, size_t len, char *out, int *invalid);

#endif
