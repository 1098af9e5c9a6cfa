#!/bin/bash
# bench-record-wall.sh - `drdb record`'s wall clock on a data-heavy run
# (issue 21, part 1: within 1.25x of the native run with compression on by
# default), measured against the native run in the same invocation: the
# native run, then `drdb record` with --compress=auto (the default),
# --compress=now and --no-compress, alternating, median of REPS each; then
# the background compression's own time and ratio (`drdb log compress
# --wait`), which the default leaves after `record` returns.
#
# usage: bench-record-wall.sh DRDB MPIEXEC PROGRAM [ARGS...]
#   REPS (default 3) and NP (default 4) in the environment.
set -u
drdb=$1 mpiexec=$2
shift 2
reps=${REPS:-3} np=${NP:-4}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

nat=() auto=() now=() none=()
for i in $(seq "$reps"); do
    nat+=("$(wall "$mpiexec" -n "$np" "$@")")
    auto+=("$(wall "$drdb" record -o "$tmp/auto$i" -- "$mpiexec" -n "$np" "$@")")
    # the background compressor of the default run, ended before timing the
    # next command (it would compete for the cores)
    "$drdb" log compress --wait "$tmp/auto$i" > "$tmp/auto$i.z" 2>&1
    now+=("$(wall "$drdb" record --compress=now -o "$tmp/now$i" -- "$mpiexec" -n "$np" "$@")")
    none+=("$(wall "$drdb" record --no-compress -o "$tmp/none$i" -- "$mpiexec" -n "$np" "$@")")
    rm -rf "$tmp/now$i" "$tmp/none$i"
done
n=$(printf '%s\n' "${nat[@]}" | median)
a=$(printf '%s\n' "${auto[@]}" | median)
w=$(printf '%s\n' "${now[@]}" | median)
z=$(printf '%s\n' "${none[@]}" | median)
echo "== drdb record's wall clock, $np ranks of: $*  (median of $reps; load $(cut -d' ' -f1-3 /proc/loadavg))"
awk -v n="$n" -v a="$a" -v w="$w" -v z="$z" 'BEGIN {
    printf "native %.2f s\n", n
    printf "record (default: auto)   %.2f s  ratio %.2f  (target <= 1.25)\n", a, a / n
    printf "record --compress=now    %.2f s  ratio %.2f\n", w, w / n
    printf "record --no-compress     %.2f s  ratio %.2f\n", z, z / n }'
size=$(du -sb "$tmp/auto1" | cut -f1)
echo "the default run's logs: $size bytes after compression"
echo "its background compression: $(grep compressed: "$tmp/auto1.z" | sed 's/^[^:]*: //')"
