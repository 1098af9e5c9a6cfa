#!/bin/sh
# Threads (issue 16, class 12) beyond equal output, on tests/fidelity/
# thr-diverge recorded at 2 ranks under MPI_THREAD_MULTIPLE:
#  - a replay whose threads stop making their recorded calls does not hang:
#    when every live thread waits for a turn that is not its own, the
#    replay stops at once as diverged (97), naming the event due and each
#    waiting thread's call; when a thread waits outside MPI, after
#    DRDB_REPLAY_TURN_TIMEOUT seconds;
#  - the console debugs a multi-threaded replayed rank: a breakpoint in a
#    worker thread stops it with the logged data in view, and the session
#    runs to the end (no hang of GDB's all-stop mode against the threads
#    held for their turn).
# And on thr-serialized recorded at 3 ranks under MPI_THREAD_SERIALIZED
# (its threads are not held to the recorded order): a thread that leaves
# out a call is a divergence at MPI_Finalize, naming it; the console stops
# a worker thread at its receive and runs the rank to its end.
# usage: test-thr-replay.sh DRDB MPIEXEC THR_DIVERGE THR_SERIALIZED
set -u
drdb=$1 mpiexec=$2 prog=$3 ser=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

if ! timeout 120 "$drdb" record -o "$tmp/run" -- "$mpiexec" -n 2 \
        -outfile-pattern "$tmp/rec.%r" "$prog" > "$tmp/rec.log" 2>&1; then
    fail "recording thr-diverge"
    sed 's/^/# /' "$tmp/rec.log" | tail -10
    exit 1
fi

# replay NAME ENV...: rank 0 replayed with ENV; stderr in $tmp/NAME.err,
# exit status in $tmp/NAME.rc, seconds taken in $tmp/NAME.s.
replay() {
    _name=$1
    shift
    _t0=$(date +%s)
    env "$@" timeout 60 "$drdb" replay --quiet --rank 0 "$tmp/run" \
        > "$tmp/$_name.out" 2> "$tmp/$_name.err"
    echo $? > "$tmp/$_name.rc"
    echo $(($(date +%s) - _t0)) > "$tmp/$_name.s"
}

replay same THR_DIVERGE=
if [ "$(rc same)" = 0 ] && cmp -s "$tmp/rec.0" "$tmp/same.out"; then
    ok "the undiverged replay: status 0, the recorded output"
else
    fail "the undiverged replay: status $(rc same)"
    sed 's/^/# /' "$tmp/same.err" | tail -5
fi

# Thread 1 makes none of its calls: the main thread waits in
# MPI_Comm_size, thread 2 in MPI_Sendrecv, for thread 1's first call.
replay skip THR_DIVERGE=skip
[ "$(rc skip)" = 97 ] && [ "$(cat "$tmp/skip.s")" -le 10 ] &&
    ok "every thread waits for a turn no thread has: status 97 at once" ||
    fail "every thread waits for a turn no thread has: status $(rc skip) after $(cat "$tmp/skip.s") s"
hasre "  ... naming the event due and the waiting threads' calls" \
    "$tmp/skip.err" \
    "replay diverged: the threads do not make their MPI calls in the recorded order: event 3 is thread 1's MPI_Sendrecv, which is not running; waiting: thread [02] in MPI_[CS][a-z_]*, thread [02] in MPI_[CS]" \
    "waiting: .*thread 0 in MPI_Comm_size" "waiting: .*thread 2 in MPI_Sendrecv"

# The main thread joins thread 2 (outside MPI) before its own call is due:
# thread 2 waits for it until the timeout.
replay join THR_DIVERGE=join DRDB_REPLAY_TURN_TIMEOUT=1
[ "$(rc join)" = 97 ] && [ "$(cat "$tmp/join.s")" -le 20 ] &&
    ok "a turn that does not come: status 97 after DRDB_REPLAY_TURN_TIMEOUT" ||
    fail "a turn that does not come: status $(rc join) after $(cat "$tmp/join.s") s"
hasre "  ... naming the event due, the timeout and the waiting thread" \
    "$tmp/join.err" \
    "event 6 is thread 0's MPI_Comm_size, which has not come in 1\.[0-9] s of waiting (DRDB_REPLAY_TURN_TIMEOUT); waiting: thread 2 in MPI_Sendrecv\$"

# The console: thread 1 stops at its first reception (rank 1's thread 1
# sent 11), twice, then the rank runs to its end.
line=$(grep -n 'mark:got' "$(dirname "$0")/thr-diverge.c" | cut -d: -f1)
console_batch console "$tmp/run" 0 -- "break thr-diverge.c:$line" continue \
    "print in" "print t" continue "print t" delete continue
[ "$(rc console)" = 0 ] && ok "console on a multi-threaded rank: status 0" ||
    { fail "console on a multi-threaded rank: status $(rc console)"
      sed 's/^/# /' "$tmp/console.err" | tail -5; }
has "  ... stops in the worker thread with the logged data" "$tmp/console" \
    "[0] \$1 = 11" "[0] \$2 = 1" "[0] rank 0 size 2"
blocks "$tmp/console" 0 | grep -Eq '^\[Inferior 1 \(process [0-9]+\) exited normally\]$' &&
    ok "  ... and exits normally" || fail "  ... and exits normally"
# (GDB's report: 'Thread 2 "thr-diverge" hit Breakpoint 1, worker (...)')
hits=$(grep -c 'hit Breakpoint 1, \|^Breakpoint 1, ' "$tmp/console")
[ "$hits" = 2 ] && ok "  ... at the breakpoint twice" ||
    fail "  ... at the breakpoint $hits times"

# ---- MPI_THREAD_SERIALIZED -------------------------------------------------
if ! timeout 120 "$drdb" record -o "$tmp/ser" -- "$mpiexec" -n 3 \
        -outfile-pattern "$tmp/ser.%r" "$ser" > "$tmp/ser.log" 2>&1; then
    fail "recording thr-serialized"
    sed 's/^/# /' "$tmp/ser.log" | tail -10
    exit 1
fi
THR_SKIP=1 timeout 60 "$drdb" replay --quiet --rank 0 "$tmp/ser" \
    > "$tmp/serskip.out" 2> "$tmp/serskip.err"
rc=$?
[ $rc = 97 ] && ok "SERIALIZED: a thread leaving out a call: status 97" ||
    fail "SERIALIZED: a thread leaving out a call: status $rc"
hasre "  ... at MPI_Finalize, naming the call never made" "$tmp/serskip.err" \
    "the program calls MPI_Finalize, but thread [12]'s MPI_Recv (event [0-9]*) was never made"
line=$(grep -n 'mark:recv' "$(dirname "$0")/thr-serialized.c" | cut -d: -f1)
console_batch sercon "$tmp/ser" 0 -- "break thr-serialized.c:$line" continue \
    "print me" delete continue
[ "$(rc sercon)" = 0 ] && ok "SERIALIZED: the console on rank 0: status 0" ||
    { fail "SERIALIZED: the console on rank 0: status $(rc sercon)"
      sed 's/^/# /' "$tmp/sercon.err" | tail -5; }
grep -Eq '^\[0\] \$1 = [01]$' "$tmp/sercon" &&
    ok "  ... stops a worker thread at its receive" ||
    fail "  ... stops a worker thread at its receive"
blocks "$tmp/sercon" 0 | grep -Eq '^\[Inferior 1 \(process [0-9]+\) exited normally\]$' &&
    ok "  ... and runs the rank to its end" || fail "  ... and runs the rank to its end"
exit $status
