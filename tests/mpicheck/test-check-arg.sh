#!/bin/sh
# drdb check's arg.invalid, err.fatal and order.no-finalize
# (events/ev-check-arg.c), the dead
# ranks of deadlock.* and coll.blocked-mismatch (ev-check-deadlock.c), on
# programs of the planted corpus (tests/mpicheck/corpus/, written from the
# MPI standard) and their correct twins. The findings are written here by
# hand from each program's source (events numbered from its calls: MPI_Init
# is event 0). Also: a rank MPI ended inside a call is said so by drdb log
# info and the console, its replay stops at that call (exit 98), and the
# console's goto finding takes it there.
# usage: test-check-arg.sh DRDB MPIEXEC PROG...
set -u
drdb=$(realpath "$1") mpiexec=$2
shift 2
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/findings.sh"
programs "$@"
cd "$tmp" || exit 1
# check NAME COMMAND FILE: one check, that COMMAND succeeds (else FILE's end)
check() {
    if eval "$2"; then ok "$1"; else fail "$1"; sed 's/^/#   /' "$3" | tail -20; fi
}
pat='arg.*,err.fatal,order.*,deadlock.*,coll.*'

# The last rank (1 of 2) sends count -1 after a correct exchange: MPICH
# aborts it in that MPI_Send (its event 4: Init, Comm_rank, Comm_size,
# Recv); rank 0, blocked in its MPI_Recv from rank 1, was killed after it:
# no deadlock.
record_may_fail=1
expect_findings arg-neg-count-send-bad 2 "$pat" "error err.fatal 1:4"
record_may_fail=
out=$tmp/arg-neg-count-send-bad.out
hasre "err.fatal: the call, the argument, the class MPI aborted with" "$out" \
    "rank 1 died in MPI_Send: count -1 is negative; MPI ended the rank there with error"
hasre "err.fatal: the call's arguments and source line" "$out" \
    "^        MPI_Send(count=-1, datatype=MPI_INT, dest=0, tag=2, comm=MPI_COMM_WORLD)  at /.*/neg-count-send-bad.c:20 (in main)\$"
hasre "deadlock.wait: rank 0 waited for the dead rank: a note, no finding" \
    "$out" "^note deadlock.wait: every blocked rank (1) waits, directly or not, for rank 1, but it died in MPI_Send (err.fatal)"
expect_findings arg-neg-count-send-ok 2 "$pat"
run=$tmp/arg-neg-count-send-bad.run
"$drdb" log info "$run" > info 2>&1
hasre "log info: the dead rank's state" info \
    "^1 .* died in MPI_Send at event 4: MPI ended the rank there (error 0x[0-9a-f]*, MPI_ERR_COUNT)\$"
hasre "log info: the rank killed after it" info "^0 .* killed mid-run"
"$drdb" replay --rank 1 "$run" > replay.out 2>&1
rc=$?
check "replay of the dead rank: exit 98 (the end of its log)" "[ $rc = 98 ]" replay.out
hasre "replay of the dead rank: stops at the call it died in" replay.out \
    "rank 1: event 4 (MPI_Send): the log ends here: died in MPI_Send at event 4"

# In the console: the run's summary says how each rank ended, and `goto
# finding 1` takes the dead rank to the call it died in.
console_batch con "$run" 0-1 -- "check err.fatal" "goto finding 1" status
hasre "console: the dead rank's ending in the run's summary" "$tmp/con" \
    "^  rank 1: died in MPI_Send at event 4: MPI ended the rank there"
hasre "console: goto finding 1 stops rank 1 before the call it died in" \
    "$tmp/con" "^\[1\] main () at .*neg-count-send-bad.c:20, before event 4 (MPI_Send)"

# Under MPI_ERRORS_RETURN rank 0 sends to rank 3 of 3 (its event 4, after
# MPI_Comm_set_errhandler) and ignores the error; the twin sends to 2.
expect_findings arg-errret-dest-range-bad 3 "$pat" "error arg.invalid 0:4"
expect_findings arg-errret-dest-range-ok 3 "$pat"
# Rank 0 sends with a vector type it made (event 2) and never committed:
# MPICH ends it in that MPI_Send (event 3); err.fatal names the type and
# where it was made. The twin commits it.
record_may_fail=1
expect_findings arg-uncommitted-vector-send-bad 2 "$pat" "error err.fatal 0:3"
record_may_fail=
hasre "err.fatal: an uncommitted datatype, where it was made" \
    "$tmp/arg-uncommitted-vector-send-bad.out" \
    "^error err.fatal: rank 0 died in MPI_Send: datatype 0x[0-9a-f]*, made by MPI_Type_vector at event 2, is not committed"
expect_findings arg-uncommitted-vector-send-ok 2 "$pat"

# Ranks 1 and 3 of 4 split with color -3, which MPICH takes: one finding
# for the call site, its first instance (rank 1's event 2), 2 calls.
expect_findings arg-comm-split-neg-color-bad 4 "$pat" "error arg.invalid 1:2"
hasre "arg.invalid: the argument and the count of calls" \
    "$tmp/arg-comm-split-neg-color-bad.out" \
    "MPI_Comm_split: color -3 is negative and not MPI_UNDEFINED (2 calls from this line)"
expect_findings arg-comm-split-neg-color-ok 4 "$pat"

# Rank 0 in MPI_Barrier, ranks 1 and 2 in MPI_Bcast (hung: stopped by
# --timeout): collective #1 on MPI_COMM_WORLD never matches.
record_hangs=1
expect_findings coll-barrier-bcast-bad 3 "$pat" \
    "error coll.blocked-mismatch 0:end 1:end 2:end"
hasre "coll.blocked-mismatch: each member's call" \
    "$tmp/coll-barrier-bcast-bad.out" \
    "collective #1 on MPI_COMM_WORLD never matches: rank 0 blocked in MPI_Barrier, rank 1 blocked in MPI_Bcast (root 0), rank 2 blocked in MPI_Bcast (root 0)"
# Rank 1 of 2 skips the last collective (an MPI_Reduce) and goes to
# MPI_Finalize, where MPICH waits: rank 0 hangs in it. The member that
# never calls it is named (its last logged call, the barrier, event 2);
# deadlock.wait names it too.
expect_findings coll-skip-last-bad 2 "$pat" \
    "error coll.blocked-mismatch 0:end 1:2" "error deadlock.wait 1:2 0:end"
hasre "coll.blocked-mismatch: says which member and where" \
    "$tmp/coll-skip-last-bad.out" \
    "collective #2 on MPI_COMM_WORLD never matches: rank 0 blocked in MPI_Reduce (root 0, MPI_SUM), rank 1, which is in MPI_Finalize (it makes no more calls), never calls it"
# Ranks 0 and 1 call MPI_Reduce with root 0, rank 2 with root 2 (event
# 2): the roots (ranks 0 and 2) hang in it, rank 1's completes. Their
# call slots keep each blocked call's root and op.
expect_findings coll-root-reduce-bad 3 "$pat" \
    "error coll.blocked-mismatch 0:end 1:2 2:end"
hasre "coll.blocked-mismatch: each member's root and op" \
    "$tmp/coll-root-reduce-bad.out" \
    "never matches: rank 0 blocked in MPI_Reduce (root 0, MPI_SUM), rank 1 called MPI_Reduce (root 0, MPI_SUM), rank 2 blocked in MPI_Reduce (root 2, MPI_SUM); its members name different roots"
record_hangs=
expect_findings coll-barrier-bcast-ok 3 "$pat"
expect_findings coll-skip-last-ok 2 "$pat"
expect_findings coll-root-reduce-ok 3 "$pat"

# Both ranks return from main after an MPI_Gather (event 3) without
# MPI_Finalize (drdb record says so and exits 1); the twin finalizes. The
# launcher may kill the other rank as the first one exits (then it is no
# finding, and its log may even lack the gather): one finding at least,
# each a rank's gather.
r=$tmp/mf.run
timeout 120 "$drdb" record -o "$r" -- "$mpiexec" -n 2 \
    "$(path order-missing-finalize-bad)" > mf.rec 2>&1
"$drdb" check --checks 'order.*' "$r" > mf.out 2>&1
findings mf.out > mf.got
check "order.no-finalize: the ranks that exited without MPI_Finalize, at their last call" \
    "[ -s mf.got ] && ! grep -vxE 'error order.no-finalize [01]:3' mf.got" mf.out
hasre "drdb record names the ranks that exited without MPI_Finalize" \
    mf.rec "^drdb: rank [01]: exited without MPI_Finalize after event 3"
expect_findings order-missing-finalize-ok 2 "$pat"
# Each of 3 ranks calls MPI_Comm_rank after MPI_Finalize (event 5): MPICH
# ends it there.
record_may_fail=1
expect_findings order-after-finalize-comm-rank-bad 3 "$pat" \
    "error err.fatal 0:5" "error err.fatal 1:5" "error err.fatal 2:5"
record_may_fail=
hasre "err.fatal: a call after MPI_Finalize is said so" \
    "$tmp/order-after-finalize-comm-rank-bad.out" \
    "^error err.fatal: rank 0 died in MPI_Comm_rank after MPI_Finalize: MPI ended the rank there"
expect_findings order-after-finalize-comm-rank-ok 3 "$pat"
# Each of 2 ranks calls MPI_Init again (event 1) from a helper: MPICH ends
# it there; the recorder keeps logging through a second MPI_Init. The
# launcher may kill the other rank before it gets there (then it is no
# finding): one finding at least, each a rank's second MPI_Init.
r=$tmp/it.run
timeout 120 "$drdb" record -o "$r" -- "$mpiexec" -n 2 \
    "$(path order-init-twice-bad)" > it.rec 2>&1
"$drdb" check --checks "$pat" "$r" > it.out 2>&1
findings it.out > it.got
check "err.fatal: a second MPI_Init, at the ranks that got there" \
    "[ -s it.got ] && ! grep -vxE 'error err.fatal [01]:1' it.got" it.out
hasre "err.fatal: a second MPI_Init is said so, with the first" it.out \
    "^error err.fatal: rank [01] died in MPI_Init a second time (MPI_Init at event 0 initialized MPI, which a process may do once: MPI 4.0 section 11.2.1)"
expect_findings order-init-twice-ok 2 "$pat"

echo "1..$n"
exit $status
