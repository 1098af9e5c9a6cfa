#!/bin/bash
# bench-replay.sh - the replay's speed, measured against native runs in the
# same invocation (never against stored numbers).
#
# usage: bench-replay.sh DRDB MPIEXEC SELFPAIR JACOBI POLL KERNEL_SPEC...
#   KERNEL_SPEC: "PROGRAM ARGS" strings (as bench-run.sh --kernel takes).
#
# Prints:
#   1. the stub's cost per MPI call: a recorded one-rank run of N small
#      MPI_Send/MPI_Recv pairs replayed, minus the same program with no
#      pairs, divided by the 2N calls (wall-clock of `drdb replay`);
#   2. per kernel at 4 ranks: the native run's wall-clock time (mpiexec
#      included), and each rank replayed alone (`drdb replay --rank R`,
#      wall-clock, process start included); ratio = slowest rank's replay /
#      native. kernel_s is the kernel's own time (its "time_s" line, no
#      launcher), kratio = slowest replay / kernel_s: the stricter ratio.
#      Then the geometric means (target <= 0.5).
#   3. polling: kernels/poll (rank 1 polls MPI_Wtime for 1 s, rank 0
#      MPI_Test until rank 1's message) recorded at 2 ranks; each rank
#      replayed alone against the native run: the replay makes every
#      recorded poll again and should not be slower (target <= 1).
# Replayed kernels print the recorded times (MPI_Wtime is replayed), so only
# wall-clock times are compared.
set -u
drdb=$1 mpiexec=$2 selfpair=$3 jacobi=$4 poll=$5
shift 5
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
reps=3

n=300000
echo "== 1. stub cost per call: $n MPI_Send/MPI_Recv pairs replayed (median of 5)"
"$drdb" record -o "$tmp/self0" -- "$mpiexec" -n 1 "$selfpair" 0 > /dev/null 2>&1 || exit 1
"$drdb" record -o "$tmp/selfn" -- "$mpiexec" -n 1 "$selfpair" $n > /dev/null 2>&1 || exit 1
t0=() tn=()
for i in 1 2 3 4 5; do
    t0+=("$(wall "$drdb" replay --rank 0 "$tmp/self0")")
    tn+=("$(wall "$drdb" replay --rank 0 "$tmp/selfn")")
done
a=$(printf '%s\n' "${t0[@]}" | median)
b=$(printf '%s\n' "${tn[@]}" | median)
awk -v a="$a" -v b="$b" -v n=$n 'BEGIN {
    printf "replay of 0 pairs %.3f s, of %d pairs %.3f s: %.1f ns per call, data copy included (target < 200 ns)\n",
        a, n, b, (b - a) / (2 * n) * 1e9 }'

echo
echo "== 2. one rank replayed alone vs the native run (4 ranks; medians of $reps)"
printf '%-18s %10s %10s %10s %10s %7s %7s\n' kernel native_s kernel_s \
    replay_max replay_min ratio kratio
ratios=() kratios=()
for k in "$@" "$jacobi 64 50"; do
    read -r -a cmd <<< "$k"
    name=$(basename "${cmd[0]}")
    "$drdb" record -o "$tmp/$name" -- "$mpiexec" -n 4 "${cmd[@]}" > /dev/null 2>&1 ||
        { echo "bench-replay.sh: recording $name failed" >&2; exit 1; }
    nat=() ker=() mx=() mn=()
    for ((rep = 1; rep <= reps; rep++)); do
        nat+=("$(wall "$mpiexec" -n 4 "${cmd[@]}")")
        k=$(sed -n 's/^time_s \([0-9.eE+-]*\)$/\1/p' "$tmp/out" | tail -n 1)
        ker+=("${k:-${nat[-1]}}")
        per=()
        for r in 0 1 2 3; do
            per+=("$(wall "$drdb" replay --rank $r "$tmp/$name")")
        done
        mx+=("$(printf '%s\n' "${per[@]}" | sort -g | tail -n 1)")
        mn+=("$(printf '%s\n' "${per[@]}" | sort -g | head -n 1)")
    done
    ns=$(printf '%s\n' "${nat[@]}" | median)
    rx=$(printf '%s\n' "${mx[@]}" | median)
    rn=$(printf '%s\n' "${mn[@]}" | median)
    ks=$(printf '%s\n' "${ker[@]}" | median)
    r=$(awk -v a="$ns" -v b="$rx" 'BEGIN { printf "%.3f", b / a }')
    kr=$(awk -v a="$ks" -v b="$rx" 'BEGIN { printf "%.3f", b / a }')
    ratios+=("$r") kratios+=("$kr")
    printf '%-18s %10.3f %10.3f %10.3f %10.3f %7s %7s\n' "$name" "$ns" "$ks" \
        "$rx" "$rn" "$r" "$kr"
done
printf '%-18s %10s %10s %10s %10s %7s %7s  (target <= 0.5)\n' geomean - - - - \
    "$(geomean "${ratios[@]}")" "$(geomean "${kratios[@]}")"

echo
echo "== 3. polling replayed: kernels/poll 1 s at 2 ranks (medians of $reps)"
"$drdb" record -o "$tmp/poll" -- "$mpiexec" -n 2 "$poll" 1 > "$tmp/poll.rec" 2>&1 ||
    { echo "bench-replay.sh: recording poll failed" >&2; exit 1; }
nat=() r0=() r1=()
for ((rep = 1; rep <= reps; rep++)); do
    nat+=("$(wall "$mpiexec" -n 2 "$poll" 1)")
    r0+=("$(wall "$drdb" replay --rank 0 "$tmp/poll")")
    r1+=("$(wall "$drdb" replay --rank 1 "$tmp/poll")")
done
polls=$(sed -n 's/^rank 1 polls \([0-9]*\) .*/\1/p' "$tmp/poll.rec")
ns=$(printf '%s\n' "${nat[@]}" | median)
a=$(printf '%s\n' "${r0[@]}" | median)
b=$(printf '%s\n' "${r1[@]}" | median)
awk -v ns="$ns" -v a="$a" -v b="$b" -v p="$polls" 'BEGIN {
    m = a > b ? a : b
    printf "native %.3f s; replay rank 0 (MPI_Test polls) %.3f s, rank 1 (%s MPI_Wtime polls) %.3f s: ratio %.3f (target <= 1)\n",
        ns, a, p, b, m / ns }'
