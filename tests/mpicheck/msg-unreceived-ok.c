#define FIXED 1
#include "msg-unreceived-bad.c"
