/* mi-error.c - the error table: names and messages of the MI_E* codes. */
#include "mi.h"

const char *mi_strerror(int code)
{
    switch (code) {
    case MI_OK:
        return "success";
#define MI__ERR_MSG(name, val, msg) case MI_E##name: return msg;
    MI_ERRNO_MAP(MI__ERR_MSG)
#undef MI__ERR_MSG
    }
    return "unknown error";
}

const char *mi_err_name(int code)
{
    switch (code) {
    case MI_OK:
        return "OK";
#define MI__ERR_NAME(name, val, msg) case MI_E##name: return #name;
    MI_ERRNO_MAP(MI__ERR_NAME)
#undef MI__ERR_NAME
    }
    return "UNKNOWN";
}
