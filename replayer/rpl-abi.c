/*
 * The rest of libmpich.so.12's ABI: the data symbols mpi.h and MPICH's
 * Fortran bindings (libmpichfort.so.12) refer to, and the internal MPII_ /
 * MPIR_ / QMPI_ functions they call. Without them a program or
 * libmpichfort would not even load against the stub.
 */
#include <stdarg.h>

#include "drdb_mpi_abi.h"
#include "rpl.h"

#pragma GCC diagnostic ignored "-Wmissing-prototypes"

/* Set by libmpichfort at its initialization to its common blocks. */
MPI_Fint *MPI_F_STATUS_IGNORE;
MPI_Fint *MPI_F_STATUSES_IGNORE;

int MPIR_F08_MPI_BOTTOM;
int MPIR_F08_MPI_IN_PLACE;
MPI_F08_status MPIR_F08_MPI_STATUS_IGNORE_OBJ;
MPI_F08_status MPIR_F08_MPI_STATUSES_IGNORE_OBJ[1];
MPI_F08_status *MPI_F08_STATUS_IGNORE = &MPIR_F08_MPI_STATUS_IGNORE_OBJ;
MPI_F08_status *MPI_F08_STATUSES_IGNORE = MPIR_F08_MPI_STATUSES_IGNORE_OBJ;

/* Unique addresses for MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY (topology
 * calls compare pointers with them). */
int MPIR_C_MPI_UNWEIGHTED;
int MPIR_C_MPI_WEIGHTS_EMPTY;
int *const MPI_UNWEIGHTED = &MPIR_C_MPI_UNWEIGHTED;
int *const MPI_WEIGHTS_EMPTY = &MPIR_C_MPI_WEIGHTS_EMPTY;

static char pvar_all;
struct MPIR_T_pvar_handle_s *const MPI_T_PVAR_ALL_HANDLES =
    (struct MPIR_T_pvar_handle_s *)&pvar_all;

const char MPII_Version_string[] = "4.0.2";
const char MPII_Version_date[] = "drdb replay stub";
const char MPII_Version_ABI[] = "14:2:2";
const char MPII_Version_CC[] = "";
const char MPII_Version_CXX[] = "";
const char MPII_Version_F77[] = "";
const char MPII_Version_FC[] = "";
const char MPII_Version_configure[] = "";
const char MPII_Version_custom[] = "";
const char MPII_Version_device[] = "drdb replay";

/* MPICH's attribute kinds (MPIR_Attr_type): Fortran asks for integers. */
enum { ATTR_PTR = 0, ATTR_AINT = 1, ATTR_INT = 3 };

/* The Fortran bindings' attribute calls do not go through MPI_ functions:
 * the recorder logged each as the C call, in the C view (its rec-attr.c),
 * which is replayed here and converted for Fortran as MPICH does. A
 * predefined keyval (MPICH's Fortran ones are the C ones plus one) gives
 * its value, not its address: MPI_WIN_BASE's is the address,
 * MPI_WIN_SIZE's an MPI_Aint, the others ints. */
static int fortran_get(int (*get)(int, int, void *, int *), int obj,
                       int keyval, void *val, int *flag, int type)
{
    void *p = NULL;
    int ret = get(obj, keyval, &p, flag);
    if (ret != MPI_SUCCESS || !*flag)
        return ret;
    int c = DRDB_MPI_C_KEYVAL(keyval);
    if (type == ATTR_PTR || c == MPI_WIN_BASE ||
        !DRDB_MPI_HANDLE_BUILTIN(keyval))
        *(MPI_Aint *)val = (MPI_Aint)p;
    else if (c == MPI_WIN_SIZE)
        *(MPI_Aint *)val = p ? *(MPI_Aint *)p : 0;
    else
        *(MPI_Aint *)val = p ? *(int *)p : 0;
    return ret;
}

static int comm_get(int obj, int keyval, void *val, int *flag)
{
    return PMPI_Comm_get_attr(obj, keyval, val, flag);
}
static int type_get(int obj, int keyval, void *val, int *flag)
{
    return PMPI_Type_get_attr(obj, keyval, val, flag);
}
static int win_get(int obj, int keyval, void *val, int *flag)
{
    return PMPI_Win_get_attr(obj, keyval, val, flag);
}

int MPII_Comm_get_attr(MPI_Comm comm, int keyval, void *val, int *flag,
                       int type)
{
    return fortran_get(comm_get, comm, keyval, val, flag, type);
}
int MPII_Type_get_attr(MPI_Datatype t, int keyval, void *val, int *flag,
                       int type)
{
    return fortran_get(type_get, t, keyval, val, flag, type);
}
int MPII_Win_get_attr(MPI_Win win, int keyval, void *val, int *flag, int type)
{
    return fortran_get(win_get, win, keyval, val, flag, type);
}
int MPII_Comm_set_attr(MPI_Comm comm, int keyval, void *val, int type)
{
    (void)type;
    return PMPI_Comm_set_attr(comm, keyval, val);
}
int MPII_Type_set_attr(MPI_Datatype t, int keyval, void *val, int type)
{
    (void)type;
    return PMPI_Type_set_attr(t, keyval, val);
}
int MPII_Win_set_attr(MPI_Win win, int keyval, void *val, int type)
{
    (void)type;
    return PMPI_Win_set_attr(win, keyval, val);
}

/* Language bookkeeping of MPICH's bindings: nothing to do in a replay. */
void MPII_Keyval_set_proxy(int keyval, void *copy, void *del)
{
    (void)keyval;
    (void)copy;
    (void)del;
}
void MPII_Grequest_set_lang_f77(MPI_Request greq)
{
    (void)greq;
}
void MPII_Errhandler_set_cxx(MPI_Errhandler eh, void (*fn)(void))
{
    (void)eh;
    (void)fn;
}
void MPII_Op_set_cxx(MPI_Op op, void (*fn)(void))
{
    (void)op;
    (void)fn;
}

int MPIR_Err_create_code(int lastcode, int fatal, const char fcname[],
                         int line, int error_class, const char generic_msg[],
                         const char specific_msg[], ...)
{
    (void)lastcode;
    (void)fatal;
    (void)fcname;
    (void)line;
    (void)generic_msg;
    (void)specific_msg;
    return error_class;
}
int MPIR_Err_return_comm(void *comm, const char fcname[], int errcode)
{
    (void)comm;
    (void)fcname;
    return errcode;
}
int MPIR_Err_return_win(void *win, const char fcname[], int errcode)
{
    (void)win;
    (void)fcname;
    return errcode;
}

/* QMPI (MPI tool interface of MPICH): no tools in a replay. */
int QMPI_Register_tool_name(const char *tool_name,
                            void (*init_function_ptr)(int tool_id))
{
    (void)tool_name;
    (void)init_function_ptr;
    return MPI_ERR_OTHER;
}
int QMPI_Register_tool_storage(int tool_id, void *tool_storage)
{
    (void)tool_id;
    (void)tool_storage;
    return MPI_ERR_OTHER;
}
int QMPI_Register_function(int calling_tool_id,
                           enum QMPI_Functions_enum function_enum,
                           void (*function_ptr)(void))
{
    (void)calling_tool_id;
    (void)function_enum;
    (void)function_ptr;
    return MPI_ERR_OTHER;
}
int QMPI_Get_function(int calling_tool_id,
                      enum QMPI_Functions_enum function_enum,
                      void (**function_ptr)(void), int *next_tool_id)
{
    (void)calling_tool_id;
    (void)function_enum;
    (void)function_ptr;
    (void)next_tool_id;
    return MPI_ERR_OTHER;
}
int QMPI_Get_tool_storage(QMPI_Context context, int tool_id, void **storage)
{
    (void)context;
    (void)tool_id;
    (void)storage;
    return MPI_ERR_OTHER;
}
int QMPI_Get_calling_address(QMPI_Context context, void **address)
{
    (void)context;
    (void)address;
    return MPI_ERR_OTHER;
}
