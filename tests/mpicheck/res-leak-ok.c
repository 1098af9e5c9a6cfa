#define FIXED 1
#include "res-leak-bad.c"
