#!/bin/bash
# bench-events.sh - the event index's speed on a 4-rank run of about one
# million events (tests/bench/kernels/events.c: 25 batches of 5000 small
# messages per rank, half of the receives wildcards, and an Allreduce per
# batch): the time to open the logs, to build the index (communicators,
# message matching, collective instances; target < 2 s) and to answer
# 1000 random `match` queries, each measured in one `drdb log match
# --bench` run; three runs. Also the index's memory per event (its arrays
# as allocated, and the logs' per-event tables), and whether the build is
# linear: the same kernel with 4 times the batches (about 4 million
# events) built three times, the fastest build of each size per event and
# their ratio (1.0: linear).
# usage: bench-events.sh DRDB MPIEXEC EVENTS_KERNEL
set -u
drdb=$1 mpiexec=$2 kernel=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s.%N)
"$drdb" record -o "$tmp/run" -- "$mpiexec" -n 4 "$kernel" 25 5000 \
    > "$tmp/out" 2>&1 || { echo "recording failed:" >&2; tail "$tmp/out" >&2; exit 1; }
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "recorded the run in %.1f s\n", b - a }'
for i in 1 2 3; do
    echo "== run $i"
    "$drdb" log match "$tmp/run" --bench 1000 || exit 1
done | tee "$tmp/bench"
awk '/^build:/ { b = $2 } /^build:/ && $2 > w { w = $2 }
     /^memory:/ { gsub(/[()]/, ""); m = $5 + $12 }
     END { printf "slowest build %.3f s (target < 2 s)\n", w
           printf "memory: %.1f bytes per event, the index and the logs'"'"' tables (issue 21: < 48)\n", m }' "$tmp/bench"
"$drdb" record -o "$tmp/run4" -- "$mpiexec" -n 4 "$kernel" 100 5000 \
    > "$tmp/out" 2>&1 || { echo "recording failed:" >&2; tail "$tmp/out" >&2; exit 1; }
for i in 1 2 3; do
    "$drdb" log match "$tmp/run4" --bench 0 || exit 1
done > "$tmp/bench4"
# the fastest build of each size, per event
best() {
    awk '/^events:/ { n = $2 } /^build:/ && (b == "" || $2 < b) { b = $2 }
         END { printf "%d %.9f\n", n, b }' "$1"
}
read -r n1 b1 < <(best "$tmp/bench")
read -r n4 b4 < <(best "$tmp/bench4")
awk -v n1="$n1" -v b1="$b1" -v n4="$n4" -v b4="$b4" 'BEGIN {
    p1 = b1 / n1 * 1e9; p4 = b4 / n4 * 1e9
    printf "build per event: %.0f ns at %d events, %.0f ns at %d events (%.1fx the events)\n", p1, n1, p4, n4, n4 / n1
    printf "build time per event, ratio of the two: %.2f (1.0: linear)\n", p4 / p1 }'
