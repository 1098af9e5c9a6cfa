#define FIXED 1
#include "req-leak-bad.c"
