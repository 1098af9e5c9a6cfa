#!/bin/sh
# drdb check's type.* (events/ev-check-typebuf.c, events/ev-dwvar.c) on
# programs of the planted corpus (tests/mpicheck/corpus/type/, written from
# the MPI standard) and their correct twins: the datatype against the C
# type of the variable a buffer lies in, from the program's DWARF and the
# calling frame the recorder logs with each site's first call. The
# findings are written here by hand from each program's source (events
# numbered from its calls: MPI_Init is event 0).
# usage: test-check-type.sh DRDB MPIEXEC PROG...
set -u
drdb=$(realpath "$1") mpiexec=$2
shift 2
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/findings.sh"
programs "$@"
pat='type.*'

# long a[4] sent by rank 0 and long b[4] received by rank 1, both as 4 x
# MPI_INT (event 2: Init, Comm_rank).
expect_findings type-long-int-send-bad 2 "$pat" \
    "error type.buffer 0:2" "error type.buffer 1:2"
hasre "type.buffer: the variable, its C type and declaration, the element" \
    "$tmp/type-long-int-send-bad.out" \
    "^error type.buffer: MPI_Send's buf is \`a\` (long int\[4\], declared at long-int-send-bad.c:14), but MPI_INT (integer, 4 bytes) lies on a\[0\], a long int (8 bytes)$"
expect_findings type-long-int-send-ok 2 "$pat"
# struct {char c; double d;} with displacements {0, 1}: the double falls
# on the padding after c (event 4: Init, Comm_rank, Type_create_struct,
# Type_commit).
expect_findings type-struct-padding-disp-bad 2 "$pat" \
    "error type.buffer 0:4" "error type.buffer 1:4"
hasre "type.buffer: a struct member's displacement on padding" \
    "$tmp/type-struct-padding-disp-bad.out" \
    "made by MPI_Type_create_struct at event 2) puts MPI_DOUBLE (floating-point, 8 bytes) at byte 1 of it, on the padding after it.c$"
expect_findings type-struct-padding-disp-ok 2 "$pat"
# A struct type of extent 16 over struct pt[3] of 24-byte elements:
# element 2's double lies on pts[0].tag (event 4: Init, Comm_rank,
# Type_create_struct, Type_commit).
expect_findings type-struct-array-extent-bad 2 "$pat" \
    "error type.buffer 0:4" "error type.buffer 1:4"
hasre "type.buffer: the element of the count where it goes wrong" \
    "$tmp/type-struct-array-extent-bad.out" \
    "at byte 16 of it (in element 2 of 3), on pts\[0\].tag, an int (4 bytes)$"
expect_findings type-struct-array-extent-ok 2 "$pat"
# 8 ints received into int b[4]: the message was that long (event 2).
expect_findings type-recv-too-small-bad 2 "$pat" "error type.overflow 1:2"
hasre "type.overflow: the bytes past the variable's end" \
    "$tmp/type-recv-too-small-bad.out" \
    "^error type.overflow: MPI_Recv's buf is \`b\` (int\[4\], declared at recv-too-small-bad.c:15), 16 bytes, but 8 x MPI_INT span 32 bytes from its start: 16 past its end$"
expect_findings type-recv-too-small-ok 2 "$pat"
# MPI_Sendrecv sends 6 doubles from double mine[4] on both ranks: one
# finding for the site, with each rank's call (event 2).
expect_findings type-sendrecv-count-overrun-bad 2 "$pat" \
    "error type.overflow 0:2 1:2"
hasre "type.overflow: one site on two ranks is one finding" \
    "$tmp/type-sendrecv-count-overrun-bad.out" \
    "6 x MPI_DOUBLE span 48 bytes from its start: 16 past its end (on 2 ranks)$"
expect_findings type-sendrecv-count-overrun-ok 2 "$pat"
# MPI_2INT over struct {double v; int i;} in MPI_Allreduce, both buffers,
# on 3 ranks (event 3: Init, Comm_rank, Comm_size).
expect_findings type-maxloc-pair-type-bad 3 "$pat" \
    "error type.buffer 0:3 1:3 2:3" "error type.buffer 0:3 1:3 2:3"
expect_findings type-maxloc-pair-type-ok 3 "$pat"
# Global double arrays exchanged as MPI_INT by MPI_Alltoall (event 3).
expect_findings type-global-double-int-alltoall-bad 4 "$pat" \
    "error type.buffer 0:3 1:3 2:3 3:3" "error type.buffer 0:3 1:3 2:3 3:3"
hasre "type.buffer: a global variable" \
    "$tmp/type-global-double-int-alltoall-bad.out" \
    "MPI_Alltoall's sendbuf is \`sendbuf\` (double\[4\], declared at global-double-int-alltoall-bad.c:12)"
expect_findings type-global-double-int-alltoall-ok 4 "$pat"
# Legal and unusual: MPI_BOTTOM with absolute addresses, a union through
# its members, MPI_BYTE over anything, named C types: nothing.
expect_findings type-bottom-address-ok 3 "$pat"
expect_findings type-union-member-ok 2 "$pat"
expect_findings type-byte-any-buffer-ok 2 "$pat"
expect_findings type-named-types-ok 2 "$pat"

# Fortran, when the build had mpif90: a double precision array sent and
# received as 4 x MPI_REAL (event 2), a common block's integer b(4)
# received with count 8 from a message that long (event 2).
if [ -n "$(path type-dp-real-sendrecv-bad)" ]; then
    expect_findings type-dp-real-sendrecv-bad 2 "$pat" \
        "error type.buffer 0:2" "error type.buffer 1:2"
    hasre "type.buffer: Fortran's types, bounds and indices" \
        "$tmp/type-dp-real-sendrecv-bad.out" \
        "MPI_Recv's buf is \`b\` (real(kind=8)(4), declared at dp-real-sendrecv-bad.f90:13), but MPI_REAL (floating-point, 4 bytes) lies on b(1), a real(kind=8) (8 bytes)$"
    expect_findings type-dp-real-sendrecv-ok 2 "$pat"
    expect_findings type-integer-recv-overrun-bad 2 "$pat" \
        "error type.overflow 1:2"
    expect_findings type-integer-recv-overrun-ok 2 "$pat"
else
    skip "type.*: Fortran (no mpif90 in this build)"
fi

# An unsigned char array holds any type (the object's bytes): silent. An
# array of 200 ints is named with its size (a 1-byte DWARF bound read as
# unsigned) and found (event 2).
expect_findings type-raw-bytes-ok 2 "$pat"
expect_findings type-big-array-bad 2 "$pat" \
    "error type.buffer 0:2" "error type.buffer 1:2"
hasre "type.buffer: an array of 200" "$tmp/type-big-array-bad.out" \
    "^error type.buffer: MPI_Send's buf is \`a\` (int\[200\], declared at type-big-array-bad.c:11), but MPI_DOUBLE (floating-point, 8 bytes) lies on a\[0\], an int (4 bytes)$"

# Without .debug_aranges (objcopy removes GCC's; Clang writes none): the
# unit is found by its ranges, for the source line and the variable.
expect_findings type-long-int-send-noaranges 2 "$pat" \
    "error type.buffer 0:2" "error type.buffer 1:2"
hasre "type.*: a program without .debug_aranges has its variables and lines" \
    "$tmp/type-long-int-send-noaranges.out" \
    "^error type.buffer: MPI_Send's buf is \`a\` (long int\[4\], declared at long-int-send-bad.c:14)" \
    "^        MPI_Send(.*)  at .*long-int-send-bad.c:19 (in main)$"
# Built by Clang, whose frame base is rbp (found from the CFI's CFA rule).
if [ -n "$(path type-long-int-send-clang)" ]; then
    expect_findings type-long-int-send-clang 2 "$pat" \
        "error type.buffer 0:2" "error type.buffer 1:2"
    hasre "type.buffer: Clang's locals" "$tmp/type-long-int-send-clang.out" \
        "^error type.buffer: MPI_Send's buf is \`a\` (long\[4\]"
else
    skip "type.*: Clang (none on this machine)"
fi

# The record a site's first call makes carries the calling frame, and
# `drdb log event` shows it; the program replays.
"$drdb" log event "$tmp/type-long-int-send-bad.run" 0:2 > "$tmp/ev.out" 2>&1
hasre "log event: the calling frame's CFA of a site's first call" \
    "$tmp/ev.out" "^ *frame  *-  *the calling frame's CFA 0x[0-9a-f][0-9a-f]*$"
if "$drdb" replay "$tmp/type-struct-padding-disp-bad.run" --rank 1 \
        > "$tmp/rpl.out" 2>&1; then
    ok "a log with frames replays"
else
    fail "a log with frames replays"
    sed 's/^/#   /' "$tmp/rpl.out" | tail -5
fi

echo "1..$n"
exit $status
