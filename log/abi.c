/* MPICH's predefined handles by value (log-abi.h), from the tables
 * gen-mpi-abi.c generates. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "log-abi.h"

static const struct log_mpi_type types[] = {
#define LOG__TYPE(name, handle, size, kind) {handle, #name, kind, size},
    DRDB_MPI_BUILTIN_TYPES(LOG__TYPE)
#undef LOG__TYPE
};

const struct log_mpi_type *log_mpi_type_of(uint32_t h)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].handle == h)
            return &types[i];
    return NULL;
}

struct hname {
    uint32_t h;
    const char *name;
};

#define LOG__NAME(name, value) {value, #name},
static const struct hname comm_names[] = {
    DRDB_MPI_COMM_NAMES(LOG__NAME) {0, NULL},
};
static const struct hname op_names[] = {
    DRDB_MPI_OP_NAMES(LOG__NAME) {0, NULL},
};
static const struct hname type_names[] = {
    DRDB_MPI_TYPE_NAMES(LOG__NAME) {0, NULL},
};
static const struct hname other_names[] = {
    DRDB_MPI_OTHER_NAMES(LOG__NAME) {0, NULL},
};
#undef LOG__NAME

static const char *find_name(const struct hname *t, uint32_t h)
{
    for (; t->name; t++)
        if (t->h == h)
            return t->name;
    return NULL;
}

const char *log_mpi_handle_name(const char *ctype, uint32_t h)
{
    if (strncmp(ctype, "MPI_Comm", 8) == 0)
        return find_name(comm_names, h);
    if (strncmp(ctype, "MPI_Op", 6) == 0)
        return find_name(op_names, h);
    if (strncmp(ctype, "MPI_Datatype", 12) == 0) {
        const struct log_mpi_type *t = log_mpi_type_of(h);
        return t ? t->name : find_name(type_names, h);
    }
    return find_name(other_names, h);
}

const char *log_mpi_int_name(const char *arg, int64_t v)
{
    int rank = strcmp(arg, "source") == 0 || strcmp(arg, "dest") == 0 ||
               strcmp(arg, "root") == 0;
    if (rank && v == DRDB_MPI_ANY_SOURCE)
        return "MPI_ANY_SOURCE";
    if (rank && v == DRDB_MPI_PROC_NULL)
        return "MPI_PROC_NULL";
    if (rank && v == DRDB_MPI_ROOT)
        return "MPI_ROOT";
    if (strstr(arg, "tag") && v == DRDB_MPI_ANY_TAG)
        return "MPI_ANY_TAG";
    if (v == DRDB_MPI_UNDEFINED)
        return "MPI_UNDEFINED";
    return NULL;
}

const char *log_mpi_err_class_name(int code)
{
    static const struct {
        const char *name;
        int value;
    } classes[] = {
#define X(n, v) {#n, v},
        DRDB_MPI_ERR_CLASSES(X)
#undef X
    };
    int c = code & DRDB_MPI_ERR_CLASS_MASK;
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++)
        if (classes[i].value == c)
            return classes[i].name;
    return NULL;
}

const char *log_mpi_err_str(char *buf, size_t len, int code)
{
    const char *cls = log_mpi_err_class_name(code);
    snprintf(buf, len, "error %#x%s%s", (unsigned)code, cls ? ", " : "",
             cls ? cls : "");
    return buf;
}
