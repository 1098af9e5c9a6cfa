#define FIXED 1
#include "msg-unmatched-recv-bad.c"
