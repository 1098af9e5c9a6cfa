#!/bin/sh
# drdb check's rma.* (events/ev-check-rma.c) and err.fatal on a one-sided
# call, on programs of the planted corpus (tests/mpicheck/corpus/rma/,
# written from the MPI standard) and their correct twins; the findings are
# written here by hand from each program's source (events numbered from
# its calls: MPI_Init is event 0).
# usage: test-check-rma.sh DRDB MPIEXEC PROG...
set -u
drdb=$(realpath "$1") mpiexec=$2
shift 2
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/findings.sh"
programs "$@"
pat='rma.*,err.fatal'

# Ranks 1 and 2 of 3 each MPI_Put an int to element 0 of rank 0's window
# in the same fence epoch (their event 4: Init, Comm_rank, Win_create,
# fence).
expect_findings rma-put-put-conflict-bad 3 "$pat" \
    "error rma.conflict 1:4 2:4"
hasre "rma.conflict: the calls, the bytes, the epoch" \
    "$tmp/rma-put-put-conflict-bad.out" \
    "^error rma.conflict: MPI_Put from rank 1 and MPI_Put from rank 2 access bytes \[0, 4) of rank 0's window in the same fence epoch (#1), one of them a put"
expect_findings rma-put-put-conflict-ok 3 "$pat"
# Rank 1 of 3 locks rank 2, then puts to rank 0 (event 7, after Win_create
# 2, lock 3, put 4, unlock 5, lock 6).
expect_findings rma-lock-wrong-target-bad 3 "$pat" "error rma.epoch 1:7"
expect_findings rma-lock-wrong-target-ok 3 "$pat"
# Rank 0 puts 4 ints at target_disp 6 of rank 1's 8-int window (event 4);
# the second site is rank 1's MPI_Win_create (event 2).
expect_findings rma-put-out-of-range-bad 2 "$pat" "error rma.range 0:4 1:2"
hasre "rma.range: the bytes against the window's size" \
    "$tmp/rma-put-out-of-range-bad.out" \
    "bytes \[24, 40) of its window, which has 32 (target_disp 6 x disp_unit 4)"
expect_findings rma-put-out-of-range-ok 2 "$pat"
# Rank 1 unlocks rank 0 a second time (event 6): MPICH ends it there;
# err.fatal says what is wrong with the call.
record_may_fail=1
expect_findings rma-unlock-no-lock-bad 2 "$pat" "error err.fatal 1:6"
record_may_fail=
hasre "err.fatal: the epoch the unlock ends is not open" \
    "$tmp/rma-unlock-no-lock-bad.out" \
    "^error err.fatal: rank 1 died in MPI_Win_unlock: MPI_Win_unlock of rank 0 on window 0x[0-9a-f]*, which this rank has not locked"
expect_findings rma-unlock-no-lock-ok 2 "$pat"

# An origin buffer used again before its epoch ends (the records of
# MPI_Put and MPI_Get carry their buffers since log format 8): rank 1 of
# 3 receives into its pending MPI_Put's origin (event 5; the put is event
# 4, in a lock epoch ended by the unlock, 6), and rank 0 of 2 into its
# pending MPI_Get's by an MPI_Bcast (event 7; the get is 6, in a
# start/complete epoch ended at 8). buf.overlap finds them; the twins use
# the buffers after the epochs end.
pat2='rma.*,buf.*,err.fatal'
expect_findings rma-put-origin-recv-bad 3 "$pat2" "error buf.overlap 1:4 1:5"
hasre "buf.overlap: a pending MPI_Put's origin received into" \
    "$tmp/rma-put-origin-recv-bad.out" \
    "^error buf.overlap: MPI_Put's buffer \[0x[0-9a-f]*, 0x[0-9a-f]*) and MPI_Recv's \[0x[0-9a-f]*, 0x[0-9a-f]*) share 4 bytes while the first is pending, and MPI writes the second"
expect_findings rma-put-origin-recv-ok 3 "$pat2"
expect_findings rma-get-origin-bcast-bad 2 "$pat2" "error buf.overlap 0:6 0:7"
expect_findings rma-get-origin-bcast-ok 2 "$pat2"

echo "1..$n"
exit $status
