#!/bin/sh
# deadlock.* (docs/check.md): hung runs recorded with `drdb record
# --timeout` (each rank's call in progress kept), and the unsafe exchange
# that completes only because MPI buffers. The expected findings are
# written from the programs (their header comments say the events).
# usage: test-check-deadlock.sh DRDB MPIEXEC CYCLE_BAD CYCLE_OK WAIT_BAD
#        WAIT_OK UNSAFE_BAD UNSAFE_OK CRASH WAITALL_BAD WAITALL_OK
set -u
drdb=$1 mpiexec=$2 cycle_bad=$3 cycle_ok=$4 wait_bad=$5 wait_ok=$6
unsafe_bad=$7 unsafe_ok=$8 crash=$9 waitall_bad=${10} waitall_ok=${11}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

# record NAME NP PROG [OPTIONS]: the run in $tmp/NAME, drdb's output in
# $tmp/NAME.rec
record() {
    _name=$1 _np=$2 _prog=$3
    shift 3
    timeout 120 "$drdb" record -o "$tmp/$_name" "$@" -- "$mpiexec" -n "$_np" \
        "$_prog" > "$tmp/$_name.rec" 2>&1
}
# check NAME: drdb check --checks 'deadlock.*' on run NAME into $tmp/NAME.out
# (exit status in $tmp/NAME.st)
check() {
    "$drdb" check --checks 'deadlock.*' "$tmp/$1" > "$tmp/$1.out" 2>&1
    echo $? > "$tmp/$1.st"
}

# Two ranks each MPI_Recv from the other first: hangs; --timeout stops it.
record cycle 2 "$cycle_bad" --timeout 3
hasre "the timeout stops the hung run and the summary says so" \
    "$tmp/cycle.rec" "^drdb: the run was stopped at --timeout 3 s (SIGTERM"
check cycle
has "deadlock.cycle names the cycle 0->1->0 and each rank's call" \
    "$tmp/cycle.out" \
    "error deadlock.cycle: ranks wait for each other in a cycle, 0->1->0: rank 0 in MPI_Recv(source 1, tag 5, MPI_COMM_WORLD) waits for rank 1; rank 1 in MPI_Recv(source 0, tag 5, MPI_COMM_WORLD) waits for rank 0" \
    "    0:end blocked here" "    1:end blocked here" \
    "1 errors, 0 warnings, 0 portability"
[ "$(cat "$tmp/cycle.st")" = 1 ] && ok "exit status 1 for the deadlock" ||
    fail "exit status $(cat "$tmp/cycle.st") for the deadlock (want 1)"
# A run recorded before the calls in progress were kept: unknown, said.
mkdir "$tmp/old" && cp "$tmp/cycle/drdb.run" "$tmp/cycle/"rank-*.log "$tmp/old/"
check old
has "without the slots: each rank's wait unknown, no finding" "$tmp/old.out" \
    "note deadlock.cycle: ranks 0-1, each: the run does not say which call it was in: whom it waited for is not known" \
    "0 errors, 0 warnings, 0 portability"

# The twin completes under the same timeout: nothing.
record cycle-ok 2 "$cycle_ok" --timeout 60
check cycle-ok
has "the fixed twin: no finding" "$tmp/cycle-ok.out" \
    "0 errors, 0 warnings, 0 portability"
if grep -q 'stopped at --timeout' "$tmp/cycle-ok.rec"; then
    fail "the twin was stopped by the timeout"
else
    ok "the twin ends before the timeout"
fi

# Rank 1 never answers (outside MPI): ranks 0 and 2 wait for it.
record wait 3 "$wait_bad" --timeout 3
check wait
has "deadlock.wait names the rank every blocked rank waits for" \
    "$tmp/wait.out" \
    "error deadlock.wait: every blocked rank (2) waits, directly or not, for rank 1, which will not answer: it was in no blocking MPI call (computing, stuck outside MPI, or dead)" \
    "    1:2 its last call" "    0:end blocked here" "    2:end blocked here" \
    "1 errors, 0 warnings, 0 portability"
record wait-ok 3 "$wait_ok" --timeout 60
check wait-ok
has "deadlock.wait: the fixed twin, no finding" "$tmp/wait-ok.out" \
    "0 errors, 0 warnings, 0 portability"

# tests/progs/crash.c sleep: rank 1 sleeps after its 18th call (event 17);
# the others wait in iteration 5's ring MPI_Sendrecv (whose send part rank
# 1 may have received) or MPI_Allreduce: all for rank 1, no cycle.
timeout 120 "$drdb" record -o "$tmp/crash2" --timeout 4 -- "$mpiexec" -n 4 \
    "$crash" sleep > "$tmp/crash2.rec" 2>&1
check crash2
has "deadlock.wait through MPI_Sendrecv and MPI_Allreduce: rank 1" \
    "$tmp/crash2.out" \
    "error deadlock.wait: every blocked rank (3) waits, directly or not, for rank 1, which will not answer: it was in no blocking MPI call (computing, stuck outside MPI, or dead)" \
    "    1:17 its last call" "    0:end blocked here" "    2:end blocked here" \
    "    3:end blocked here" "1 errors, 0 warnings, 0 portability"

# MPI_Waitall on one of two receive requests: the cycle is through the
# request it waits on; rank 2 (MPI_Barrier) waits for both, in no cycle.
record waitall 3 "$waitall_bad" --timeout 3
check waitall
has "deadlock.cycle through MPI_Waitall's request, not the other one" \
    "$tmp/waitall.out" \
    "error deadlock.cycle: ranks wait for each other in a cycle, 0->1->0: rank 0 in MPI_Waitall(1 request) waits for rank 1; rank 1 in MPI_Waitall(1 request) waits for rank 0" \
    "    0:end blocked here" "    1:end blocked here" \
    "1 errors, 0 warnings, 0 portability"
record waitall-ok 3 "$waitall_ok" --timeout 60
check waitall-ok
has "deadlock.cycle through requests: the fixed twin, no finding" \
    "$tmp/waitall-ok.out" "0 errors, 0 warnings, 0 portability"

# Both MPI_Send then MPI_Recv: completes (eager), a portability finding.
record unsafe 2 "$unsafe_bad"
check unsafe
has "deadlock.unsafe-send names both sends and the receives posted after" \
    "$tmp/unsafe.out" \
    "portability deadlock.unsafe-send: a cycle of blocking standard sends completed only because MPI buffered them (each receive was posted after the receiver's own send): rank 0 MPI_Send to 1 (tag 0, 4 bytes), rank 1 MPI_Send to 0 (tag 0, 4 bytes); without buffering each waits for the next forever: MPI_Sendrecv or nonblocking calls make it safe" \
    "    0:3 send" "    1:4 its receive, posted after" \
    "    1:3 send" "    0:4 its receive, posted after" \
    "0 errors, 0 warnings, 1 portability"
record unsafe-ok 2 "$unsafe_ok"
check unsafe-ok
has "deadlock.unsafe-send: the Sendrecv twin, no finding" \
    "$tmp/unsafe-ok.out" "0 errors, 0 warnings, 0 portability"
echo "1..$n"
exit $status
