/*
 * Build-time check: every prototype in log/mpi-functions.spec, redeclared
 * after MPICH's own. Any difference in a parameter or return type makes
 * this file fail to compile, naming the function.
 */
#include <mpi.h>

#include "drdb_mpi_protos.h"

int drdb_functable_check(void);
int drdb_functable_check(void)
{
    return 0;
}
