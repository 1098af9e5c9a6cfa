/*
 * gen-mpi-abi.c - prints drdb_mpi_abi.h: the facts of MPICH's ABI that the
 * logs hold and the front end must interpret without MPI (handle values,
 * special ranks and tags, the MPI_Status layout, the builtin datatypes).
 *
 * Built by meson for the build machine against MPICH's <mpi.h> only (no
 * libmpich), and run at build time, the way functable-check.c compiles the
 * spec's prototypes after <mpi.h>: every value below comes from <mpi.h> or
 * from sizeof/offsetof, so a different MPICH gives a different header
 * instead of a silently wrong one. What is stated here by hand is only what
 * <mpi.h> cannot say: how the printer shows a builtin datatype's elements
 * (its kind), which predefined handles it names, and the layout of MPICH's
 * handle bits, checked against every builtin datatype.
 *
 * usage: gen-mpi-abi > drdb_mpi_abi.h; exits 1 (and prints why on stderr)
 * when <mpi.h> contradicts an assumption.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

/*
 * MPICH's handle layout (src/include/mpir_objects.h): bits 30-31 the handle
 * kind (01 builtin: a predefined object, never freed or reused), bits 26-29
 * the object kind (0011 datatype); a builtin datatype keeps its size in
 * bytes in bits 8-15.
 */
#define HANDLE_BUILTIN(h) (((uint32_t)(h) >> 30) == 1)
#define HANDLE_TAG_MASK 0xfc000000u
#define BUILTIN_TYPE_TAG ((uint32_t)MPI_INT & HANDLE_TAG_MASK)
#define BUILTIN_TYPE_SIZE(h) (((uint32_t)(h) >> 8) & 0xffu)

/* A builtin datatype: its handle and size come from <mpi.h> and the C type
 * of one element; the kind is how the printer decodes an element:
 * 'i' signed, 'u' unsigned, 'f' floating, 'c' character, 'b' byte,
 * 'z' complex (two floating halves), 'p' pair (two ints), 'l' bool. */
struct type {
    const char *name;
    uint32_t handle;
    size_t size;
    char kind;
};
#define T(name, ctype, kind) {#name, (uint32_t)(name), sizeof(ctype), kind}

static const struct type types[] = {
    T(MPI_CHAR, char, 'c'),
    T(MPI_SIGNED_CHAR, signed char, 'i'),
    T(MPI_UNSIGNED_CHAR, unsigned char, 'u'),
    T(MPI_BYTE, unsigned char, 'b'),
    T(MPI_WCHAR, wchar_t, 'u'),
    T(MPI_SHORT, short, 'i'),
    T(MPI_UNSIGNED_SHORT, unsigned short, 'u'),
    T(MPI_INT, int, 'i'),
    T(MPI_UNSIGNED, unsigned, 'u'),
    T(MPI_LONG, long, 'i'),
    T(MPI_UNSIGNED_LONG, unsigned long, 'u'),
    T(MPI_FLOAT, float, 'f'),
    T(MPI_DOUBLE, double, 'f'),
    T(MPI_LONG_DOUBLE, long double, 'f'),
    T(MPI_LONG_LONG, long long, 'i'),
    T(MPI_UNSIGNED_LONG_LONG, unsigned long long, 'u'),
    T(MPI_PACKED, unsigned char, 'b'),
    T(MPI_2INT, int[2], 'p'),
    /* Fortran types: MPICH's sizes for a gfortran build, the C types of
     * the same size (checked against the handle below). */
    T(MPI_COMPLEX, float[2], 'z'),
    T(MPI_DOUBLE_COMPLEX, double[2], 'z'),
    T(MPI_LOGICAL, int, 'i'),
    T(MPI_REAL, float, 'f'),
    T(MPI_DOUBLE_PRECISION, double, 'f'),
    T(MPI_INTEGER, int, 'i'),
    T(MPI_2INTEGER, int[2], 'p'),
    T(MPI_CHARACTER, char, 'c'),
    T(MPI_REAL4, float, 'f'),
    T(MPI_REAL8, double, 'f'),
    T(MPI_INTEGER1, int8_t, 'i'),
    T(MPI_INTEGER2, int16_t, 'i'),
    T(MPI_INTEGER4, int32_t, 'i'),
    T(MPI_INTEGER8, int64_t, 'i'),
    T(MPI_INT8_T, int8_t, 'i'),
    T(MPI_INT16_T, int16_t, 'i'),
    T(MPI_INT32_T, int32_t, 'i'),
    T(MPI_INT64_T, int64_t, 'i'),
    T(MPI_UINT8_T, uint8_t, 'u'),
    T(MPI_UINT16_T, uint16_t, 'u'),
    T(MPI_UINT32_T, uint32_t, 'u'),
    T(MPI_UINT64_T, uint64_t, 'u'),
    T(MPI_C_BOOL, _Bool, 'l'),
    T(MPI_C_FLOAT_COMPLEX, float _Complex, 'z'),
    T(MPI_C_DOUBLE_COMPLEX, double _Complex, 'z'),
    T(MPI_AINT, MPI_Aint, 'i'),
    T(MPI_OFFSET, MPI_Offset, 'i'),
    T(MPI_COUNT, MPI_Count, 'i'),
    T(MPI_CXX_BOOL, _Bool, 'l'),
};

/* A predefined handle. FAMILY: the printer names it for arguments of that
 * C type (COMM: MPI_Comm, OP: MPI_Op, TYPE: MPI_Datatype besides the
 * builtins above, OTHER: any other handle type); 0: a value only. */
struct handle {
    const char *family;
    const char *name;
    uint32_t value;
};
#define H(family, name) {family, #name, (uint32_t)(uintptr_t)(name)}

static const struct handle handles[] = {
    H("COMM", MPI_COMM_WORLD),
    H("COMM", MPI_COMM_SELF),
    H("COMM", MPI_COMM_NULL),
    H("OP", MPI_MAX),
    H("OP", MPI_MIN),
    H("OP", MPI_SUM),
    H("OP", MPI_PROD),
    H("OP", MPI_LAND),
    H("OP", MPI_BAND),
    H("OP", MPI_LOR),
    H("OP", MPI_BOR),
    H("OP", MPI_LXOR),
    H("OP", MPI_BXOR),
    H("OP", MPI_MINLOC),
    H("OP", MPI_MAXLOC),
    H("OP", MPI_REPLACE),
    H("OP", MPI_NO_OP),
    H("OP", MPI_OP_NULL),
    H("TYPE", MPI_FLOAT_INT),
    H("TYPE", MPI_DOUBLE_INT),
    H("TYPE", MPI_LONG_INT),
    H("TYPE", MPI_SHORT_INT),
    H("TYPE", MPI_LONG_DOUBLE_INT),
    H("TYPE", MPI_DATATYPE_NULL),
    H("OTHER", MPI_REQUEST_NULL),
    H("OTHER", MPI_INFO_NULL),
    H("OTHER", MPI_GROUP_NULL),
    H("OTHER", MPI_WIN_NULL),
    H("OTHER", MPI_ERRHANDLER_NULL),
    H("OTHER", MPI_MESSAGE_NO_PROC),
    H("OTHER", MPI_GROUP_EMPTY),
    /* Values only: MPI_MESSAGE_NULL is MPI_REQUEST_NULL's value, and
     * MPI_FILE_NULL is a null pointer. */
    H(NULL, MPI_MESSAGE_NULL),
    H(NULL, MPI_SESSION_NULL),
    H(NULL, MPI_FILE_NULL),
};

static int fail(const char *what, const char *name)
{
    fprintf(stderr, "gen-mpi-abi: %s: %s; update log/gen-mpi-abi.c and the "
                    "code that relies on it\n", name, what);
    return 1;
}

/* The error classes of MPI 4.0 (section 9.4) that <mpi.h> defines. */
static const struct {
    const char *name;
    int value;
} err_classes[] = {
#define E(n) {#n, n}
    E(MPI_ERR_BUFFER), E(MPI_ERR_COUNT), E(MPI_ERR_TYPE), E(MPI_ERR_TAG),
    E(MPI_ERR_COMM), E(MPI_ERR_RANK), E(MPI_ERR_ROOT), E(MPI_ERR_GROUP),
    E(MPI_ERR_OP), E(MPI_ERR_TOPOLOGY), E(MPI_ERR_DIMS), E(MPI_ERR_ARG),
    E(MPI_ERR_UNKNOWN), E(MPI_ERR_TRUNCATE), E(MPI_ERR_OTHER),
    E(MPI_ERR_INTERN), E(MPI_ERR_IN_STATUS), E(MPI_ERR_PENDING),
    E(MPI_ERR_REQUEST), E(MPI_ERR_ACCESS), E(MPI_ERR_AMODE),
    E(MPI_ERR_BAD_FILE), E(MPI_ERR_CONVERSION), E(MPI_ERR_DUP_DATAREP),
    E(MPI_ERR_FILE_EXISTS), E(MPI_ERR_FILE_IN_USE), E(MPI_ERR_FILE),
    E(MPI_ERR_INFO), E(MPI_ERR_INFO_KEY), E(MPI_ERR_INFO_VALUE),
    E(MPI_ERR_INFO_NOKEY), E(MPI_ERR_IO), E(MPI_ERR_NAME),
    E(MPI_ERR_NO_MEM), E(MPI_ERR_NOT_SAME), E(MPI_ERR_NO_SPACE),
    E(MPI_ERR_NO_SUCH_FILE), E(MPI_ERR_PORT), E(MPI_ERR_QUOTA),
    E(MPI_ERR_READ_ONLY), E(MPI_ERR_SERVICE), E(MPI_ERR_SPAWN),
    E(MPI_ERR_UNSUPPORTED_DATAREP), E(MPI_ERR_UNSUPPORTED_OPERATION),
    E(MPI_ERR_WIN), E(MPI_ERR_BASE), E(MPI_ERR_LOCKTYPE), E(MPI_ERR_KEYVAL),
    E(MPI_ERR_RMA_CONFLICT), E(MPI_ERR_RMA_SYNC), E(MPI_ERR_SIZE),
    E(MPI_ERR_DISP), E(MPI_ERR_ASSERT), E(MPI_ERR_RMA_RANGE),
    E(MPI_ERR_RMA_ATTACH), E(MPI_ERR_RMA_SHARED), E(MPI_ERR_RMA_FLAVOR),
    E(MPI_ERR_SESSION), E(MPI_ERR_PROC_ABORTED), E(MPI_ERR_VALUE_TOO_LARGE),
#undef E
};

int main(void)
{
    const size_t ntypes = sizeof types / sizeof types[0];
    const size_t nhandles = sizeof handles / sizeof handles[0];

    if (!HANDLE_BUILTIN(MPI_COMM_WORLD) || !HANDLE_BUILTIN(MPI_SUM) ||
        HANDLE_BUILTIN(MPI_COMM_NULL) || HANDLE_BUILTIN(MPI_FLOAT_INT))
        return fail("the handle kind bits moved", "MPI_COMM_WORLD");
    for (size_t i = 0; i < ntypes; i++) {
        if (!HANDLE_BUILTIN(types[i].handle))
            return fail("not a builtin handle", types[i].name);
        if ((types[i].handle & HANDLE_TAG_MASK) != BUILTIN_TYPE_TAG)
            return fail("not a builtin datatype handle", types[i].name);
        if (BUILTIN_TYPE_SIZE(types[i].handle) != types[i].size)
            return fail("its handle's size is not its C type's size",
                        types[i].name);
    }
#define STATUS_INT(f) (sizeof(((MPI_Status *)0)->f) == sizeof(int32_t))
    if (!STATUS_INT(count_lo) || !STATUS_INT(count_hi_and_cancelled) ||
        !STATUS_INT(MPI_SOURCE) || !STATUS_INT(MPI_TAG) ||
        !STATUS_INT(MPI_ERROR))
        return fail("a field is not a 32-bit int", "MPI_Status");

    printf("/* drdb_mpi_abi.h - MPICH %s's ABI as the logs hold it. Generated "
           "at build\n * time by log/gen-mpi-abi.c from <mpi.h>: do not "
           "edit. */\n", MPICH_VERSION);
    printf("#ifndef DRDB_MPI_ABI_H\n#define DRDB_MPI_ABI_H\n\n#include <stdint.h>\n\n");
    printf("#define DRDB_MPI_MPICH_VERSION \"%s\"\n\n", MPICH_VERSION);

    printf("/* Predefined handles (their 32-bit values). */\n");
    for (size_t i = 0; i < nhandles; i++)
        printf("#define DRDB_%s 0x%08xu\n", handles[i].name,
               handles[i].value);

    printf("\n/* Special ranks, tags and counts. */\n");
    printf("#define DRDB_MPI_PROC_NULL (%d)\n", MPI_PROC_NULL);
    printf("#define DRDB_MPI_ANY_SOURCE (%d)\n", MPI_ANY_SOURCE);
    printf("#define DRDB_MPI_ANY_TAG (%d)\n", MPI_ANY_TAG);
    printf("#define DRDB_MPI_ROOT (%d)\n", MPI_ROOT);
    printf("#define DRDB_MPI_UNDEFINED (%d)\n", MPI_UNDEFINED);

    printf("\n/* The MPI-1 bound markers of struct datatypes (no data), and "
           "the error\n * classes readers of statuses and return codes "
           "look for (a code's class\n * is its low 7 bits in MPICH, "
           "mpierror.h: DRDB_MPI_ERR_CLASS_MASK). */\n");
    printf("#define DRDB_MPI_LB 0x%08xu\n", (unsigned)MPI_LB);
    printf("#define DRDB_MPI_UB 0x%08xu\n", (unsigned)MPI_UB);
    printf("#define DRDB_MPI_ERR_TRUNCATE %d\n", MPI_ERR_TRUNCATE);
    printf("#define DRDB_MPI_ERR_IN_STATUS %d\n", MPI_ERR_IN_STATUS);
    printf("#define DRDB_MPI_ERR_CLASS_MASK 0x%x\n", 0x7f);
    printf("/* The assert of a fence that opens no epoch after it. */\n"
           "#define DRDB_MPI_MODE_NOSUCCEED %d\n", MPI_MODE_NOSUCCEED);
    printf("/* The error classes by name (a fatal error's, as drdb check "
           "reports it):\n * X(name, value). */\n"
           "#define DRDB_MPI_ERR_CLASSES(X)");
    for (size_t i = 0; i < sizeof err_classes / sizeof *err_classes; i++)
        printf(" \\\n    X(%s, %d)", err_classes[i].name,
               err_classes[i].value);
    printf("\n");

    printf("\n/* Lengths of the strings MPI returns, NUL included. */\n");
    printf("#define DRDB_MPI_MAX_PROCESSOR_NAME %d\n", MPI_MAX_PROCESSOR_NAME);
    printf("#define DRDB_MPI_MAX_ERROR_STRING %d\n", MPI_MAX_ERROR_STRING);
    printf("#define DRDB_MPI_MAX_OBJECT_NAME %d\n", MPI_MAX_OBJECT_NAME);
    printf("#define DRDB_MPI_MAX_PORT_NAME %d\n", MPI_MAX_PORT_NAME);
    printf("#define DRDB_MPI_MAX_INFO_KEY %d\n", MPI_MAX_INFO_KEY);
    printf("#define DRDB_MPI_MAX_INFO_VAL %d\n", MPI_MAX_INFO_VAL);
    printf("#define DRDB_MPI_MAX_LIBRARY_VERSION_STRING %d\n",
           MPI_MAX_LIBRARY_VERSION_STRING);

    printf("\n/* MPI_Status: its size and the offsets of its 32-bit int "
           "fields. count_lo and\n * count_hi_and_cancelled hold the bytes "
           "received (low 32 bits; the high bits\n * shifted left by one) "
           "and the cancelled flag (bit 0). */\n");
    printf("#define DRDB_MPI_STATUS_SIZE %zu\n", sizeof(MPI_Status));
    printf("#define DRDB_MPI_STATUS_COUNT_LO %zu\n",
           offsetof(MPI_Status, count_lo));
    printf("#define DRDB_MPI_STATUS_COUNT_HI_AND_CANCELLED %zu\n",
           offsetof(MPI_Status, count_hi_and_cancelled));
    printf("#define DRDB_MPI_STATUS_SOURCE %zu\n",
           offsetof(MPI_Status, MPI_SOURCE));
    printf("#define DRDB_MPI_STATUS_TAG %zu\n", offsetof(MPI_Status, MPI_TAG));
    printf("#define DRDB_MPI_STATUS_ERROR %zu\n",
           offsetof(MPI_Status, MPI_ERROR));

    printf("\n/* MPICH's handle layout. A builtin handle (a predefined "
           "object, never freed\n * or reused) has 01 in bits 30-31. A "
           "builtin datatype's handle has the bits\n * of "
           "DRDB_MPI_HANDLE_TAG_MASK equal to DRDB_MPI_BUILTIN_TYPE_TAG, its "
           "size in\n * bytes in bits 8-15 (checked against every "
           "DRDB_MPI_BUILTIN_TYPES). */\n");
    printf("#define DRDB_MPI_HANDLE_BUILTIN(h) (((uint32_t)(h) >> 30) == "
           "1)\n");
    printf("/* A predefined attribute keyval as C names it: MPICH's Fortran "
           "ones are the\n * C ones plus one (MPI_TAG_UB: 0x64400001 in C, "
           "0x64400002 in Fortran). */\n");
    printf("#define DRDB_MPI_C_KEYVAL(k) (DRDB_MPI_HANDLE_BUILTIN(k) && "
           "!((k) & 1) ? (k) - 1 : (k))\n");
    printf("#define DRDB_MPI_HANDLE_TAG_MASK 0x%08xu\n", HANDLE_TAG_MASK);
    printf("#define DRDB_MPI_BUILTIN_TYPE_TAG 0x%08xu\n", BUILTIN_TYPE_TAG);
    printf("#define DRDB_MPI_BUILTIN_TYPE_SIZE(h) (((uint32_t)(h) >> 8) & "
           "0xffu)\n");

    printf("\n/* The builtin datatypes: X(name, handle, size, kind), kind "
           "'i' signed,\n * 'u' unsigned, 'f' floating, 'c' character, 'b' "
           "byte, 'z' complex (two\n * floating halves), 'p' pair (two "
           "ints), 'l' bool. */\n");
    printf("#define DRDB_MPI_BUILTIN_TYPES(X) \\\n");
    for (size_t i = 0; i < ntypes; i++)
        printf("    X(%s, 0x%08xu, %zu, '%c')%s\n", types[i].name,
               types[i].handle, types[i].size, types[i].kind,
               i + 1 < ntypes ? " \\" : "");

    static const char *const families[] = {"COMM", "OP", "TYPE", "OTHER"};
    for (size_t f = 0; f < 4; f++) {
        printf("\n/* The handles with a name in arguments of %s: "
               "X(name, value). */\n#define DRDB_MPI_%s_NAMES(X)",
               f == 0   ? "type MPI_Comm"
               : f == 1 ? "type MPI_Op"
               : f == 2 ? "type MPI_Datatype\n * (besides the builtins)"
                        : "any other\n * handle type",
               families[f]);
        for (size_t i = 0; i < nhandles; i++)
            if (handles[i].family &&
                strcmp(handles[i].family, families[f]) == 0)
                printf(" \\\n    X(%s, 0x%08xu)", handles[i].name,
                       handles[i].value);
        printf("\n");
    }
    printf("\n#endif\n");
    return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
