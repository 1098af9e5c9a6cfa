#!/bin/bash
# bench-bisect.sh - bisect on a rank of 100,004 events: tests/progs/
# bisect-corrupt.c 50000 37111 (rank 0's value goes bad before its event
# 4 + 2*37111 = 74226), `bisect @0 peak > 1e6` over the whole log in a
# batch session; three rounds, each printing bisect's report (the probes,
# its own time) and the batch's wall clock under `time`, against one
# straight `goto` to the last event (the first pass alone), with the
# machine's load average. Target: under 10 s.
# usage: bench-bisect.sh DRDB MPIEXEC BISECT_CORRUPT
set -u
drdb=$1 mpiexec=$2 prog=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$drdb" record -o "$tmp/run" -- "$mpiexec" -n 2 "$prog" 50000 37111 \
    > "$tmp/out" 2>&1 || { echo "recording failed:" >&2; tail "$tmp/out" >&2; exit 1; }
printf '%s\n' "replay @0" "bisect @0 peak > 1e6" > "$tmp/bisect.drdb"
printf '%s\n' "replay @0" "goto 100003" > "$tmp/goto.drdb"
bad=0
for i in 1 2 3; do
    echo "== round $i, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "goto 100003 (one pass, no checkpoints):"
    { time "$drdb" batch --ranks 0 "$tmp/run" "$tmp/goto.drdb" > /dev/null; } 2>&1 |
        grep real
    echo "bisect @0 peak > 1e6:"
    { time "$drdb" batch --ranks 0 "$tmp/run" "$tmp/bisect.drdb" > "$tmp/b.$i" 2>&1; } 2>&1 |
        grep real
    sed -n '/^bisect:/,/probes/p' "$tmp/b.$i"
    grep -q "first true: before event 74226 " "$tmp/b.$i" || bad=1
done
[ $bad = 0 ] || { echo "bisect did not find event 74226" >&2; exit 1; }
