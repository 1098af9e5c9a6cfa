#define FIXED 1
#include "req-persistent-restart-bad.c"
