/*
 * log-abi.h - MPICH's predefined handles and builtin datatypes by value
 * (abi.c), over drdb_mpi_abi.h, which meson generates from <mpi.h>
 * (gen-mpi-abi.c): what a reader needs to show a logged handle or decode
 * logged data without MPI. No code outside log/ restates these values.
 */
#ifndef DRDB_LOG_ABI_H
#define DRDB_LOG_ABI_H

#include <stddef.h>
#include <stdint.h>

#include "drdb_mpi_abi.h"

/* A builtin datatype (DRDB_MPI_BUILTIN_TYPES). */
struct log_mpi_type {
    uint32_t handle;
    const char *name;
    char kind;  /* 'i' signed, 'u' unsigned, 'f' float, 'c' char, 'b' byte,
                 * 'z' complex (2 floats), 'p' pair (2 ints), 'l' bool */
    int size;   /* bytes of one element */
};

/* The builtin datatype H, or NULL. */
const struct log_mpi_type *log_mpi_type_of(uint32_t h);

/* The size of builtin datatype H from its handle (MPICH keeps it there),
 * 0 for any other datatype. */
static inline int64_t log_mpi_type_size(uint32_t h)
{
    return (h & DRDB_MPI_HANDLE_TAG_MASK) == DRDB_MPI_BUILTIN_TYPE_TAG
               ? DRDB_MPI_BUILTIN_TYPE_SIZE(h)
               : 0;
}

/* A name for handle H of C type CTYPE ("MPI_Comm", "MPI_Datatype", ...):
 * a predefined one's name, else NULL. */
const char *log_mpi_handle_name(const char *ctype, uint32_t h);
/* A name for the value V of the int argument named ARG: MPI_ANY_SOURCE,
 * MPI_PROC_NULL or MPI_ROOT for a rank ("source", "dest", "root"),
 * MPI_ANY_TAG for a tag ("tag", "recvtag", "sendtag"), MPI_UNDEFINED for
 * any; else NULL. */
const char *log_mpi_int_name(const char *arg, int64_t v);
/* The name of error code CODE's class ("MPI_ERR_COUNT"), or NULL. */
const char *log_mpi_err_class_name(int code);
/* CODE into BUF as "error 0x100a4a02, MPI_ERR_COUNT" (its class's name
 * when it has one); BUF. */
const char *log_mpi_err_str(char *buf, size_t len, int code);

#endif
