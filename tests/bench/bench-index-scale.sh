#!/bin/bash
# bench-index-scale.sh - the event index at issue 21's scale: a synthetic
# run (gen-run.c: a ring with an Allreduce every 8 rounds) of RANKS ranks
# of EVENTS events each (default 1,000 x 100,000: about 2.8 GB of logs, 7
# GB of memory), its whole index built (`drdb log match --bench`: open,
# build: the fastest of three; memory per event), then one rank's listing alone (`drdb log
# events --rank`, which builds that rank's index only), each with its
# peak memory; and the same for the ranks with 10x fewer events each, for
# the ratio of build time per event (1.0: linear in the events).
# usage: bench-index-scale.sh DRDB GEN_RUN [RANKS EVENTS]
set -u
drdb=$1 gen_run=$2 ranks=${3:-1000} events=${4:-100000}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# one EVENTS: the run of RANKS ranks of EVENTS events each
one() {
    "$gen_run" "$tmp/r$1" "$ranks" "$1" > /dev/null ||
        { echo "gen-run failed" >&2; exit 1; }
    sync # its logs on disk: no writeback during the build
    for i in 1 2 3; do
        /usr/bin/time -f "peak %M KB" "$drdb" log match "$tmp/r$1" --bench 0 \
            > "$tmp/m$1.$i" 2>&1 || { cat "$tmp/m$1.$i" >&2; exit 1; }
    done
    # the fastest of three builds (the machine's other load is noise)
    cp "$(for i in 1 2 3; do
              echo "$(sed -n 's/^build: *\([0-9.]*\) s.*/\1/p' "$tmp/m$1.$i") $tmp/m$1.$i"
          done | sort -n | head -1 | cut -d' ' -f2)" "$tmp/m$1"
    /usr/bin/time -f "peak %M KB, %e s" "$drdb" log events "$tmp/r$1" \
        --rank $((ranks / 2)) --count 3 > "$tmp/e$1" 2>&1 ||
        { cat "$tmp/e$1" >&2; exit 1; }
    n=$(sed -n 's/^events: *\([0-9]*\) .*/\1/p' "$tmp/m$1")
    b=$(sed -n 's/^build: *\([0-9.]*\) s.*/\1/p' "$tmp/m$1")
    eval "ns$1=$(awk -v b="$b" -v n="$n" 'BEGIN { printf "%.0f", b * 1e9 / n }')"
    echo "$ranks ranks x $1 events ($n):"
    sed -n 's/^\(open\|build\|memory\): */  \1: /p' "$tmp/m$1"
    echo "  build per event: $(eval echo \$ns$1) ns; whole index $(sed -n 's/^peak /peak /p' "$tmp/m$1") (logs mapped included)"
    echo "  one rank's listing alone (rank $((ranks / 2))): $(tail -1 "$tmp/e$1")"
    rm -rf "$tmp/r$1"
}
small=$((events / 10))
one "$small"
one "$events"
echo "build time per event, $events events a rank against $small: $(awk -v a="$(eval echo \$ns$events)" -v b="$(eval echo \$ns$small)" 'BEGIN { printf "%.2f", a / b }') (1.0: linear); memory target < 48 bytes per event"
