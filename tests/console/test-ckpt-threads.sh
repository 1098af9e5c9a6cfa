#!/bin/sh
# `checkpoint` and `rollback` in a multi-threaded rank: refused with the
# number of threads, and the rank stays usable where it was (it goes on,
# steps, and ends as recorded, with no divergence), as docs/checkpoints.md
# says. tests/progs/threads-serialized: a worker thread computes while the
# main thread calls MPI, then a helper thread makes the MPI calls.
# usage: test-ckpt-threads.sh DRDB MPIEXEC THREADS_SERIALIZED CKPT_SPIN
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 prog=$3 spin=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0

"$drdb" record -o "$tmp/thr" -- "$mpiexec" -n 2 "$prog" 3 \
    > "$tmp/rec" 2>&1 || { fail "record"; cat "$tmp/rec"; }

# Stopped in the helper thread (main waits in pthread_join): 2 threads.
printf '%s\n' 'break mpi_helper' 'continue' 'checkpoint' 'status' \
    'checkpoints' > "$tmp/take.drdb"
printf '%s\n' 'delete' 'next' 'print 6 * 7' 'continue' 'status' \
    > "$tmp/after.drdb"
cat "$tmp/take.drdb" "$tmp/after.drdb" > "$tmp/all.drdb"
TMPDIR=$tmp timeout 120 "$drdb" batch -k --timeout 60 "$tmp/thr" \
    "$tmp/all.drdb" > "$tmp/out" 2> "$tmp/err"
echo "rc $?" >> "$tmp/out"
has "checkpoint is refused with the thread count" "$tmp/err" \
    "drdb: rank 0: no checkpoint: the process has 2 threads: checkpoints need a single-threaded process"
grep -q '^0 *stopped *after 16/30 *mpi_helper () at .*threads-serialized.c:70, breakpoint$' \
    "$tmp/out" && ok "the rank stays stopped where it was" ||
    { fail "status after the refusal"; sed 's/^/#   /' "$tmp/out"; }
has "no checkpoint was kept" "$tmp/out" "rank 0: 0 checkpoints"
has "the rank goes on: next, print, continue to the end" "$tmp/out" \
    "[0] \$1 = 42" "[0] rank 0: 3 rounds of MPI calls from a helper thread ok"
blocks "$tmp/out" 0 | grep -Eq '^\[Inferior 1 \(process [0-9]+\) exited normally\]$' &&
    ok "  ... and exits normally" || fail "  ... and exits normally"
grep -qi 'diverg\|lost' "$tmp/out" "$tmp/err" &&
    { fail "a divergence or a lost rank"; grep -i 'diverg\|lost' "$tmp/out" "$tmp/err" | sed 's/^/#   /'; } ||
    ok "no divergence, no lost rank"

# A rollback there: a checkpoint taken while one thread ran, restored
# while two run.
printf '%s\n' 'break threads-serialized.c:95' 'continue' 'checkpoint' \
    'delete' 'break mpi_helper' 'continue' 'rollback 1' 'status' 'delete' \
    'continue' > "$tmp/rb.drdb"
TMPDIR=$tmp timeout 120 "$drdb" batch -k --timeout 60 "$tmp/thr" \
    "$tmp/rb.drdb" > "$tmp/rb" 2> "$tmp/rb.err"
if grep -qx '\[0\] checkpoint 1 (before event 5)' "$tmp/rb"; then
    has "rollback is refused with the thread count" "$tmp/rb.err" \
        "drdb: rank 0: no rollback to 1: the process has 2 threads: cannot roll back"
    has "after the refused rollback the rank goes on to the end" "$tmp/rb" \
        "[0] rank 0: 3 rounds of MPI calls from a helper thread ok"
else
    skip "the worker thread still ran at line 95: no single-threaded checkpoint"
fi

# Refused before anything happens: a second thread that counts while it
# runs has not counted (the refusal does not resume the process).
"$drdb" record -o "$tmp/spin" -- "$mpiexec" -n 1 "$spin" \
    > "$tmp/spin.rec" 2>&1 || { fail "record ckpt-spin"; cat "$tmp/spin.rec"; }
printf '%s\n' 'break stop_here' 'continue' 'print spins' 'checkpoint' \
    'print spins' 'rollback 1' 'print spins' > "$tmp/spin.drdb"
TMPDIR=$tmp timeout 120 "$drdb" batch -k --timeout 60 "$tmp/spin" \
    "$tmp/spin.drdb" > "$tmp/spin.out" 2> "$tmp/spin.err"
counts=$(sed -n 's/^\[0\] \$[0-9]* = //p' "$tmp/spin.out" | sort -u)
if [ "$(sed -n 's/^\[0\] \$[0-9]* = //p' "$tmp/spin.out" | wc -l)" = 3 ] &&
   [ "$(echo "$counts" | wc -l)" = 1 ]; then
    ok "the other thread did not run during the refusals (spins $counts)"
else
    fail "the other thread ran: spins $(echo $counts)"
    sed 's/^/#   /' "$tmp/spin.out" "$tmp/spin.err"
fi
has "the refusals name the thread count" "$tmp/spin.err" \
    "drdb: rank 0: no checkpoint: the process has 2 threads: checkpoints need a single-threaded process" \
    "drdb: rank 0: no rollback to 1: the process has 2 threads: cannot roll back"

echo "1..$n"
exit $status
