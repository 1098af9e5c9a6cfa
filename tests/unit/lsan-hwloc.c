/* A stand-in for a third-party library that leaks (as hwloc's plugins do
 * in MPICH's MPI_Init): its function names follow hwloc's. */
#include <stdlib.h>
#include <string.h>

void *hwloc_fake_plugin_load(void);
void *kept;

/* The block is lost once its last pointer is overwritten. */
void *hwloc_fake_plugin_load(void)
{
    char *p = malloc(1016);
    if (p)
        memset(p, 1, 1016);
    kept = p;
    kept = NULL;
    return NULL;
}
