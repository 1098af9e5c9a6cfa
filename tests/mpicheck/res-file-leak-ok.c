#define FIXED 1
#include "res-file-leak-bad.c"
