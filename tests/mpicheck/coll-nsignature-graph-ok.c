#define FIXED 1
#include "coll-nsignature-graph-bad.c"
