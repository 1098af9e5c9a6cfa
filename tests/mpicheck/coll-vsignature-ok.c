#define FIXED 1
#include "coll-vsignature-bad.c"
