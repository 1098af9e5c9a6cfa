/*
 * Calls the stub answers with this process's own values: address
 * arithmetic and handle conversions (MPI returns a value, nothing is
 * logged), the Fortran file handles, and the calls whose logged output is
 * an address of the recorded process (meaningless here: ASLR, another
 * machine), whose event is replayed (and checked) but whose output is this
 * process's own. Buffers for MPI_Bsend are the program's.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "rpl.h"

MPI_Aint rpl_MPI_Aint_add(struct args_MPI_Aint_add *a)
{
    return (MPI_Aint)((char *)a->base + a->disp);
}

MPI_Aint rpl_MPI_Aint_diff(struct args_MPI_Aint_diff *a)
{
    return (MPI_Aint)((char *)a->addr1 - (char *)a->addr2);
}

/* MPI_Pcontrol's extra arguments cannot be forwarded: the recorder lets it
 * through unlogged. */
int rpl_MPI_Pcontrol(struct args_MPI_Pcontrol *a)
{
    (void)a;
    return MPI_SUCCESS;
}

/* File handles keep their recorded values; the Fortran integer is an index
 * into this table, from 1 (as in MPICH). */
static MPI_File *files;
static size_t nfiles, capfiles;

MPI_Fint rpl_MPI_File_c2f(struct args_MPI_File_c2f *a)
{
    if (a->file == MPI_FILE_NULL)
        return 0;
    for (size_t i = 0; i < nfiles; i++)
        if (files[i] == a->file)
            return (MPI_Fint)(i + 1);
    if (nfiles >= (size_t)INT32_MAX ||
        util_grow(&files, &capfiles, nfiles + 1, sizeof *files) < 0)
        rpl_fail(NULL, RPL_EXIT_SETUP, "out of memory for file handles");
    files[nfiles++] = a->file;
    return (MPI_Fint)nfiles;
}

MPI_File rpl_MPI_File_f2c(struct args_MPI_File_f2c *a)
{
    return a->file > 0 && (size_t)a->file <= nfiles ? files[a->file - 1]
                                                    : MPI_FILE_NULL;
}

int rpl_MPI_Get_address(struct args_MPI_Get_address *a)
{
    int ret = rpl_replay_MPI_Get_address(a);
    *a->address = (MPI_Aint)a->location;
    return ret;
}

int rpl_MPI_Address(struct args_MPI_Address *a)
{
    int ret = rpl_replay_MPI_Address(a);
    *a->address = (MPI_Aint)a->location;
    return ret;
}

/* The tool interface's reads: the value the recorded read gave (the
 * buffer's RAW field, recorder/rec-mpit.c). */
#define MPIT_READ(NAME, ARG)                                                 \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        struct rpl_call c;                                                   \
        struct log_field f;                                                  \
        rpl_begin_##NAME(&c, a);                                             \
        while (rpl_field(&c, &f)) {                                          \
            if (f.arg == ARG && f.kind == LOG_F_RAW)                         \
                rpl_out_raw(&c, &f, a->buf, -1);                             \
            else                                                             \
                rpl_out_other(&c, &f);                                       \
        }                                                                    \
        return rpl_end(&c, MPI_COMM_WORLD);                                  \
    }
MPIT_READ(MPI_T_cvar_read, 1)
MPIT_READ(MPI_T_pvar_read, 2)
MPIT_READ(MPI_T_pvar_readreset, 2)

/* At the recorded address when it is free here (rpl-mem.c). */
int rpl_MPI_Alloc_mem(struct args_MPI_Alloc_mem *a)
{
    struct rpl_call c;
    rpl_begin_MPI_Alloc_mem(&c, a);
    rpl_fields_MPI_Alloc_mem(&c, a);
    if (c.ret == MPI_SUCCESS) {
        uint64_t logged;
        memcpy(&logged, a->baseptr, sizeof logged);
        void *p = rpl_mem_alloc(&c, logged,
                                a->size > 0 ? (size_t)a->size : 1);
        memcpy(a->baseptr, &p, sizeof p);
    }
    return rpl_end(&c, MPI_COMM_WORLD);
}

int rpl_MPI_Free_mem(struct args_MPI_Free_mem *a)
{
    int ret = rpl_replay_MPI_Free_mem(a);
    if (ret == MPI_SUCCESS)
        rpl_mem_free(a->base);
    return ret;
}

/* The buffer MPI_Buffer_detach hands back: the one attached here. A
 * process has one, whichever twin attached it (the classic call or its
 * large-count one) and whichever detaches it. */
static void *attached_buf;
static MPI_Count attached_size;

#define BUFFER_ATTACH(NAME)                                                  \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        attached_buf = a->buffer;                                            \
        attached_size = a->size;                                             \
        return ret;                                                          \
    }
/* An int or an MPI_Count size: *a->size's own type. */
#define BUFFER_DETACH(NAME)                                                  \
    int rpl_##NAME(struct args_##NAME *a)                                    \
    {                                                                        \
        int ret = rpl_replay_##NAME(a);                                      \
        memcpy(a->buffer_addr, &attached_buf, sizeof attached_buf);          \
        *a->size = (__typeof__(*a->size))attached_size;                      \
        attached_buf = NULL;                                                 \
        return ret;                                                          \
    }
/* Each for its large-count twin too (RPL_TWINS_NAME: rpl_hooks.h). */
RPL_TWINS_MPI_Buffer_attach(BUFFER_ATTACH)
RPL_TWINS_MPI_Buffer_detach(BUFFER_DETACH)
