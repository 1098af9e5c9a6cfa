#define FIXED 1
#include "coll-nsignature-cart-bad.c"
