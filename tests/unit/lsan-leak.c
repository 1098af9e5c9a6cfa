/* Leaks 1016 bytes, from the third-party stand-in (`third-party`) or from
 * code of its own (`own`): LeakSanitizer's verdict is the test's. */
#include <stdlib.h>
#include <string.h>

void *hwloc_fake_plugin_load(void);
void *lsan_own_leak(void);
void *lost;

void *lsan_own_leak(void)
{
    char *p = malloc(1016);
    if (p)
        memset(p, 2, 1016);
    lost = p;
    lost = NULL;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "own"))
        lsan_own_leak();
    else
        hwloc_fake_plugin_load();
    return 0;
}
