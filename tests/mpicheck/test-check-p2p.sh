#!/bin/sh
# drdb check's p2p.* checks (docs/check.md): each planted program of
# tests/mpicheck/ gets exactly the findings written below, from its
# comments and call order (every rank's events: MPI_Init 0, MPI_Comm_rank
# 1, MPI_Comm_set_errhandler 2, then the calls in the program's order),
# and its fixed twin none.
# usage: test-check-p2p.sh DRDB MPIEXEC PROG...
set -u
drdb=$(realpath "$1") mpiexec=$2
shift 2
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/findings.sh"
programs "$@"

# Rank 0's sends 7, 8, 9 (after its 2 constructors and 2 commits); rank 1's
# receives 9, 10, 11 (after contiguous, free, contiguous, commit, struct,
# commit): 4 MPI_INT as 4 MPI_FLOAT through a reused handle, {int, double}
# as {double, int}, 3 MPI_INT as MPI_DOUBLE.
expect_findings p2p-type-mismatch-bad 2 'p2p.*' \
    "error p2p.type-mismatch 0:7 1:9" \
    "error p2p.type-mismatch 0:8 1:10" \
    "error p2p.type-mismatch 0:9 1:11"
# The message names both calls with their arguments, datatypes and
# communicators by name, and where the signatures part.
has "p2p-type-mismatch-bad: the calls and the first difference" \
    "$tmp/p2p-type-mismatch-bad.out" \
    "error p2p.type-mismatch: MPI_Send(count 3, MPI_INT, to 1, tag 3, MPI_COMM_WORLD) was received by MPI_Recv(count 2, MPI_DOUBLE, from 0, tag 3, MPI_COMM_WORLD): the type signatures differ at byte 0 of the message (MPI_INT sent, MPI_DOUBLE received)"
hasre "p2p-type-mismatch-bad: a derived type named by its constructor" \
    "$tmp/p2p-type-mismatch-bad.out" \
    '^error p2p.type-mismatch: MPI_Send(count 1, datatype 0x[0-9a-f]* (MPI_Type_create_struct), to 1, tag 2, MPI_COMM_WORLD) was received by MPI_Recv(count 1, datatype 0x[0-9a-f]* (MPI_Type_create_struct), from 0, tag 2, MPI_COMM_WORLD): .*(MPI_INT sent, MPI_DOUBLE received)$'
expect_findings p2p-type-mismatch-ok 2 'p2p.*'

# Rank 0's sends 3, 4, 5; rank 1's receives 5, 6 and the MPI_Irecv 7
# (after MPI_Type_indexed 3 and its commit 4; a message's site is its
# call, the Irecv, not the Waitall that said MPI_ERR_IN_STATUS).
expect_findings p2p-truncate-bad 2 'p2p.*' \
    "error p2p.truncate 0:3 1:5" \
    "error p2p.truncate 0:4 1:6" \
    "error p2p.truncate 0:5 1:7"
expect_findings p2p-truncate-ok 2 'p2p.*'

# Sends 3, 4, 5 to receives 3, 4, 5: warnings, and no error.
expect_findings p2p-bytes-coincide-bad 2 'p2p.*' \
    "warning p2p.bytes-coincide 0:3 1:3" \
    "warning p2p.bytes-coincide 0:4 1:4" \
    "warning p2p.bytes-coincide 0:5 1:5"
expect_findings p2p-bytes-coincide-ok 2 'p2p.*'

echo "1..$n"
exit $status
