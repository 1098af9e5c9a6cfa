/* The datatype signatures of the p2p.* and coll.* checks
 * (events/ev-check-types.h) on a synthetic run of constructor calls:
 * flattening (contiguous, vector, struct, indexed of one basic type and of
 * several, MPI_LB/MPI_UB markers, a struct past the expansion limit), a
 * handle freed and built again, and the comparisons the checks rely on
 * (equal, a prefix, the first difference and where, a repeated struct
 * compared against the same elements in a row). Every expectation is the
 * MPI 4.0 type signature of the scripted constructors. */
#include <stdlib.h>
#include <unistd.h>

#include "ev-check-types.h"
#include "events.h"
#include "ev-write.h"

#define INT_T 0x4c000405u
#define FLOAT_T 0x4c00040au
#define DOUBLE_T 0x4c00080bu
#define CHAR_T 0x4c000101u
#define BYTE_T 0x4c00010du
#define INT32_T 0x4c000439u
#define LB_T 0x4c000010u
#define UB_T 0x4c000011u

/* Derived handles as MPICH numbers them (past its predefined pairs). */
enum { A = 0x8c000010, B, S, C, U, X, M, P, Q, BIG };

static uint64_t ctor1(int r, int fn, int64_t count, uint32_t old,
                      unsigned newarg, uint32_t h)
{
    uint64_t n = call(r, fn, I(count), I(old));
    f_handle(newarg, LOG_F_HANDLE, 0, h);
    end();
    return n;
}

/* MPI_Type_create_struct: its logged block lengths and types. */
static uint64_t structure(int r, int count, const int *bl, const uint32_t *ty,
                          uint32_t h)
{
    uint64_t n = call(r, LOG_FN_MPI_Type_create_struct, I(count));
    log_put_field(&rec, 1, LOG_F_RAW, 0, 4 * (uint64_t)count);
    for (int i = 0; i < count; i++)
        log_put_u32(&rec, (uint32_t)bl[i]);
    log_put_field(&rec, 3, LOG_F_RAW, 0, 4 * (uint64_t)count);
    for (int i = 0; i < count; i++)
        log_put_u32(&rec, ty[i]);
    f_handle(4, LOG_F_HANDLE, 0, h);
    end();
    return n;
}

static struct ev_run x;
static struct ev__types *types;

/* Compares COUNT_A of A (at event NA) with COUNT_B of B (at NB) over
 * BYTES: -1 unknown, 0 equal, else 1 + the offset of the difference. */
static int64_t cmp(uint32_t a, uint64_t na, int64_t count_a, uint32_t b,
                   uint64_t nb, int64_t count_b, int64_t bytes)
{
    struct ev__sig sa, sb;
    struct ev__sigdiff d;
    ev__type_sig(types, 0, na, a, &sa);
    ev__type_sig(types, 0, nb, b, &sb);
    if (ev__sig_compare(&sa, count_a, &sb, count_b, bytes, &d) < 0)
        return -1;
    return d.differ ? 1 + d.offset : 0;
}

static int64_t bytes_of(uint32_t h, uint64_t n, int64_t count)
{
    struct ev__sig s;
    ev__type_sig(types, 0, n, h, &s);
    return ev__sig_bytes(&s, count);
}

TEST(signatures)
{
    int bl21[] = {2, 1}, bl11[] = {1, 1}, bl111[] = {1, 1, 1},
        bl1111[] = {1, 1, 1, 1}, bl31[] = {3, 1};
    uint32_t id[] = {INT_T, DOUBLE_T}, mk[] = {LB_T, INT_T, UB_T},
             idif[] = {INT_T, DOUBLE_T, INT_T, FLOAT_T}, ci[] = {C, INT_T};
    run_begin(1);
    ctor1(0, LOG_FN_MPI_Type_contiguous, 4, INT_T, 2, A);      /* 0 */
    uint64_t e1 = call(0, LOG_FN_MPI_Type_vector, I(3), I(2), I(5),
                       I(INT_T));
    f_handle(4, LOG_F_HANDLE, 0, B);
    end();
    structure(0, 2, bl21, id, S);                              /* 2 */
    ctor1(0, LOG_FN_MPI_Type_contiguous, 1000, S, 2, C);       /* 3 */
    ctor1(0, LOG_FN_MPI_Type_indexed, 2, INT_T, 4, U);         /* 4 */
    ctor1(0, LOG_FN_MPI_Type_indexed, 2, S, 4, X);             /* 5 */
    structure(0, 3, bl111, mk, M);                             /* 6 */
    structure(0, 2, bl11, id, P);                              /* 7 */
    structure(0, 4, bl1111, idif, Q);                          /* 8 */
    structure(0, 2, bl31, ci, BIG);                            /* 9 */
    call(0, LOG_FN_MPI_Type_free);                             /* 10 */
    end();
    uint64_t e11 = ctor1(0, LOG_FN_MPI_Type_contiguous, 4, FLOAT_T, 2, A);
    uint64_t last = call(0, LOG_FN_MPI_Finalize);
    end();
    run_end(1);
    char err[300];
    REQUIRE(ev_open(&x, run, err, sizeof err) == 0);
    REQUIRE(ev_build(&x, err, sizeof err) == 0);
    REQUIRE((types = ev__types_build(&x)) != NULL);

    /* contiguous(4, INT) is 4 INT, a prefix of 8 INT; vector 3 x 2 INT. */
    CHECK_INT_EQ(bytes_of(A, e1, 1), 16);
    CHECK_INT_EQ(cmp(A, e1, 1, INT_T, e1, 8, 16), 0);
    CHECK_INT_EQ(cmp(B, e1, 2, INT_T, e1, 12, -1), 0);
    CHECK_INT_EQ(bytes_of(B, e1, 2), 48);
    /* The handle built again after MPI_Type_free is 4 FLOAT from then. */
    CHECK_INT_EQ(cmp(A, last, 1, INT_T, last, 4, 16), 1);
    CHECK_INT_EQ(cmp(A, last, 1, FLOAT_T, last, 4, 16), 0);
    CHECK_INT_EQ(cmp(A, e11 - 1, 1, INT_T, e11 - 1, 4, 16), 0);
    /* struct {2 INT, DOUBLE} x 1000 in one type, or 1000 of it. */
    CHECK_INT_EQ(bytes_of(S, last, 1), 16);
    CHECK_INT_EQ(bytes_of(C, last, 1), 16000);
    CHECK_INT_EQ(cmp(C, last, 1, S, last, 1000, -1), 0);
    CHECK_INT_EQ(cmp(S, last, 1000, C, last, 1, 16000), 0);
    /* {INT, DOUBLE} x 3 against {INT, DOUBLE, INT, FLOAT} x 2: DOUBLE
     * against FLOAT at byte 16. */
    CHECK_INT_EQ(cmp(P, last, 3, Q, last, 2, -1), 1 + 16);
    CHECK_INT_EQ(cmp(P, last, 1, S, last, 1, -1), 1 + 4);
    /* indexed of INT: INT an unknown number of times; of a struct:
     * unknown. */
    CHECK_INT_EQ(bytes_of(U, last, 1), -1);
    CHECK_INT_EQ(cmp(U, last, 1, INT_T, last, 5, 20), 0);
    CHECK_INT_EQ(cmp(U, last, 1, FLOAT_T, last, 5, 20), 1);
    CHECK_INT_EQ(cmp(X, last, 1, S, last, 2, 32), -1);
    /* Markers carry no data; a struct of 6000 runs (past 4096) is unknown. */
    CHECK_INT_EQ(bytes_of(M, last, 1), 4);
    CHECK_INT_EQ(cmp(M, last, 3, INT_T, last, 3, -1), 0);
    CHECK_INT_EQ(cmp(BIG, last, 1, S, last, 3000, -1), -1);
    /* Basic types: one C type matches, MPI_BYTE only itself. */
    CHECK_INT_EQ(cmp(INT_T, last, 4, INT32_T, last, 4, -1), 0);
    CHECK_INT_EQ(cmp(BYTE_T, last, 4, CHAR_T, last, 4, -1), 1);
    char name[80];
    ev__type_name(types, 0, e1, A, name, sizeof name);
    CHECK_STR_EQ(name, "datatype 0x8c000010 (MPI_Type_contiguous)");
    ev__types_free(types);
    ev_close(&x);
}

int main(void)
{
    REQUIRE(mkdtemp(dir));
    RUN(signatures);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_done();
}
