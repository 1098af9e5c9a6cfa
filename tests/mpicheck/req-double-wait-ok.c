#define FIXED 1
#include "req-double-wait-bad.c"
