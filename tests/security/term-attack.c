/*
 * A program whose output attacks the terminal it is shown on (issue 33):
 * OSC 0 retitles it, OSC 52 writes the clipboard, ESC [2J clears it, a
 * carriage return brings the cursor back over the rank tag to print a
 * line that looks like drdb's, ESC [6n makes the terminal type its answer
 * into drdb's input. Then text JSON must keep: a colour, bytes that are
 * not UTF-8, a NUL inside a line, a 200 KB line (not with the argument
 * "short": a screen shows the rest). `evil` holds a title sequence for
 * GDB's printf to show (tests/security/test-terminal.sh).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

char evil[] = "\033]0;GDBPWNED\007";

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    printf("title: \033]0;PWNED\007\n");
    printf("clip: \033]52;c;cHduZWQ=\007\n");
    printf("clear: \033[2J\n");
    printf("\r[drdb] FAKE: rank 3 diverged\n");
    printf("ask: \033[6n\n");
    printf("colour: \033[31mred\033[0m\n");
    printf("bad utf-8: \xff\xfe\xc3(\n");
    fwrite("nul: a\0b\n", 1, 9, stdout);
    if (argc < 2 || strcmp(argv[1], "short") != 0) {
        for (int i = 0; i < 200 * 1024; i++)
            putchar('a' + i % 26);
        putchar('\n');
    }
    printf("end\n");
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
