#define FIXED 1
#include "coll-nsignature-dir-bad.c"
