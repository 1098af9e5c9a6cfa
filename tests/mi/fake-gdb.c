/*
 * fake-gdb.c - a scripted stand-in for `gdb --interpreter=mi3`, for the
 * driver tests in test-mi-driver.c: it answers the driver's setup commands
 * and a few made-up commands that produce GDB behaviours on demand.
 *
 *   -list-features        ^done,features=[...]
 *   -crlf                 the reply and a prompt end in \r\n
 *   -stray                a result with a token nobody sent, then the reply
 *   -console N            N console lines, then the reply
 *   -big N                a reply with an N-byte string
 *   -garbage              a non-MI line, then the reply
 *   -stderr               a line on stderr, then the reply
 *   -run                  =thread-group-started, ^running, *running, then
 *                         *stopped (like -exec-run to the end)
 *   -error                ^error,msg="fake error"
 *   -hang                 no reply
 *   -die N                exit N without a reply
 *   -gdb-exit             ^exit, then exit 0
 *   anything else         ^done
 *
 * Each input line is [TOKEN]OP[ ARG]; TOKEN (ASCII digits) is echoed in
 * front of the reply. Exits 0 at end of input, 1 when stdout fails (e.g.
 * EPIPE: SIGPIPE is ignored) or on a bad number argument.
 *
 * usage: fake-gdb   (no arguments; any are ignored, like gdb's would be)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *line;

static void quit(int status)
{
    free(line);
    line = NULL;
    exit(status);
}

static void put(const char *s, size_t n)
{
    if (n && fwrite(s, 1, n, stdout) != n) {
        fprintf(stderr, "fake-gdb: write: %s\n", strerror(errno));
        quit(1);
    }
}

static void puts_(const char *s)
{
    put(s, strlen(s));
}

static void flush(void)
{
    if (fflush(stdout) != 0) {
        fprintf(stderr, "fake-gdb: write: %s\n", strerror(errno));
        quit(1);
    }
}

/* TOKEN + s, then flush. */
static void reply(const char *tok, size_t toklen, const char *s)
{
    put(tok, toklen);
    puts_(s);
    flush();
}

static long number(const char *op, const char *arg)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(arg ? arg : "", &end, 10);
    while (*end == ' ' || *end == '\t' || *end == '\r')
        end++;
    if (!arg || end == arg || *end || errno) {
        fprintf(stderr, "fake-gdb: %s: bad number '%s'\n", op, arg ? arg : "");
        quit(1);
    }
    return v;
}

int main(void)
{
    size_t cap = 0;
    ssize_t len;

    signal(SIGPIPE, SIG_IGN);
    puts_("=thread-group-added,id=\"i1\"\n(gdb) \n");
    flush();
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        const char *tok = line, *op, *arg;
        size_t toklen = 0;
        char *sp;

        while (len > 0 && line[len - 1] == '\n')
            line[--len] = '\0';
        while (line[toklen] >= '0' && line[toklen] <= '9')
            toklen++;
        op = line + toklen;
        sp = strchr(line + toklen, ' ');
        arg = NULL;
        if (sp) {
            *sp = '\0';
            arg = sp + 1;
        }

        if (strcmp(op, "-list-features") == 0) {
            reply(tok, toklen, "^done,features=[\"thread-info\",\"fake\"]\n(gdb) \n");
        } else if (strcmp(op, "-crlf") == 0) {
            reply(tok, toklen, "^done,v=\"crlf\"\r\n(gdb) \r\n");
        } else if (strcmp(op, "-stray") == 0) {
            puts_("424242^done,stray=\"1\"\n(gdb) \n");
            reply(tok, toklen, "^done\n(gdb) \n");
        } else if (strcmp(op, "-console") == 0) {
            long n = number(op, arg), k;

            for (k = 0; k < n; k++) {
                char buf[64];

                snprintf(buf, sizeof buf, "~\"line %ld\\n\"\n", k);
                puts_(buf);
            }
            reply(tok, toklen, "^done\n(gdb) \n");
        } else if (strcmp(op, "-big") == 0) {
            long n = number(op, arg);
            char chunk[4096];

            memset(chunk, 'x', sizeof chunk);
            put(tok, toklen);
            puts_("^done,v=\"");
            for (; n > 0; n -= (long)sizeof chunk)
                put(chunk, n < (long)sizeof chunk ? (size_t)n : sizeof chunk);
            reply("", 0, "\"\n(gdb) \n");
        } else if (strcmp(op, "-garbage") == 0) {
            puts_("this is not mi\n");
            reply(tok, toklen, "^done\n(gdb) \n");
        } else if (strcmp(op, "-stderr") == 0) {
            fputs("fake: a warning\n", stderr);
            fflush(stderr);
            reply(tok, toklen, "^done\n(gdb) \n");
        } else if (strcmp(op, "-run") == 0) {
            puts_("=thread-group-started,id=\"i1\",pid=\"4242\"\n");
            reply(tok, toklen, "^running\n*running,thread-id=\"all\"\n(gdb) \n"
                               "*stopped,reason=\"exited-normally\"\n(gdb) \n");
        } else if (strcmp(op, "-error") == 0) {
            reply(tok, toklen, "^error,msg=\"fake error\"\n(gdb) \n");
        } else if (strcmp(op, "-hang") == 0) {
            /* no reply */
        } else if (strcmp(op, "-die") == 0) {
            quit((int)(number(op, arg) & 0xff));
        } else if (strcmp(op, "-gdb-exit") == 0) {
            reply(tok, toklen, "^exit\n");
            quit(0);
        } else {
            reply(tok, toklen, "^done\n(gdb) \n");
        }
    }
    quit(0);
    return 0;
}
