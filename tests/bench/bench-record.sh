#!/bin/bash
# bench-record.sh - the recorder's cost, measured against native runs in the
# same invocation (never against stored numbers).
#
# usage: bench-record.sh DRDB MPIEXEC SELFPAIR LIBCALL JACOBI BENCH_RUN
#                        KERNEL_SPEC...
#   KERNEL_SPEC: "PROGRAM ARGS" strings as bench-run.sh --kernel takes.
#
# Prints:
#   1. the per-pair cost of a small MPI_Send/MPI_Recv, native and recorded
#      (one rank talking to itself: no scheduler noise), and the difference;
#   2. bench-run.sh's native/recorded ratios for the kernels and an example,
#      with their geometric mean;
#   3. log bytes per event beyond the received data, per kernel;
#   4. the cost of an interposed libc call (clock_gettime, getpid: their
#      results go to rank-R.sys), native, recorded and recorded with
#      --no-libc, and the differences.
set -u
drdb=$1 mpiexec=$2 selfpair=$3 libcall=$4 jacobi=$5 bench_run=$6
shift 6
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"


echo "== 1. small MPI_Send/MPI_Recv pair (8 B, one rank to itself, 300000 pairs, median of 5)"
nat=() rec=()
for i in 1 2 3 4 5; do
    nat+=("$("$mpiexec" -n 1 "$selfpair" 300000 | awk '/^pair_ns/ { print $2 }')")
    rec+=("$("$drdb" record -o "$tmp/self$i" -- "$mpiexec" -n 1 "$selfpair" 300000 2>/dev/null |
             awk '/^pair_ns/ { print $2 }')")
done
n=$(printf '%s\n' "${nat[@]}" | median)
r=$(printf '%s\n' "${rec[@]}" | median)
awk -v n="$n" -v r="$r" 'BEGIN { printf "native %.1f ns/pair  recorded %.1f ns/pair  recorder cost %.1f ns/pair (%.2f us; target < 0.5 us)\n", n, r, r - n, (r - n) / 1000 }'

echo
echo "== 2. kernels and an example, native vs recorded (4 ranks, median of 3)"
mkdir -p "$tmp/runs"
specs=()
for k in "$@"; do specs+=(--kernel "$k"); done
"$bench_run" --np 4 --reps 3 --mpiexec "$mpiexec" "${specs[@]}" \
    --kernel "$jacobi 64 50" \
    --mode "$drdb" record -o "$tmp/runs/{run}" -- || exit 1

echo
echo "== 3. log size before compression: bytes per event beyond the received data (target <= 48),"
echo "==    and the size after drdb record's zstd pass"
printf "%-20s %10s %12s %12s %10s %12s\n" run events "log bytes" "data bytes" "B/event" "compressed"
size_of() { du -cb "$1"/rank-*.log | tail -n 1 | cut -f1; }
for k in "$@" "$jacobi 64 50"; do
    read -r -a cmd <<< "$k"
    name=$(basename "${cmd[0]}")
    "$drdb" record --no-compress -o "$tmp/raw-$name" -- "$mpiexec" -n 4 "${cmd[@]}" \
        > /dev/null 2>&1 || { echo "recording $name failed" >&2; exit 1; }
    "$drdb" record -o "$tmp/zz-$name" -- "$mpiexec" -n 4 "${cmd[@]}" \
        > /dev/null 2>&1 || { echo "recording $name failed" >&2; exit 1; }
    z=$(size_of "$tmp/zz-$name")
    "$drdb" log info "$tmp/raw-$name" 2>/dev/null | awk -v run="$name" -v z="$z" '
        /^[0-9]+ / && $2 ~ /^[0-9]+$/ { ev += $2; lb += $3 - 256; db += $4 }
        END { if (ev) printf "%-20s %10d %12d %12d %10.1f %12d\n", run, ev, lb, db, (lb - db) / ev, z }'
done | awk '{ print; ev += $2; lb += $3; db += $4; z += $6 }
    END { if (ev) printf "%-20s %10d %12d %12d %10.1f %12d\n", "all", ev, lb, db, (lb - db) / ev, z }'

echo
echo "== 4. an interposed libc call (1 rank, 2000000 calls each, median of 5): ns per call"
for mode in native recorded no-libc; do
    cg=() gp=()
    for i in 1 2 3 4 5; do
        case $mode in
        native) out=$("$mpiexec" -n 1 "$libcall" 2000000) ;;
        recorded) out=$("$drdb" record -o "$tmp/lc$i" -- "$mpiexec" -n 1 \
                        "$libcall" 2000000 2>/dev/null) ;;
        no-libc) out=$("$drdb" record --no-libc -o "$tmp/ln$i" -- \
                       "$mpiexec" -n 1 "$libcall" 2000000 2>/dev/null) ;;
        esac
        cg+=("$(echo "$out" | awk '/^clock_gettime_ns/ { print $2 }')")
        gp+=("$(echo "$out" | awk '/^getpid_ns/ { print $2 }')")
    done
    printf '%s %s %s\n' "$mode" "$(printf '%s\n' "${cg[@]}" | median)" \
        "$(printf '%s\n' "${gp[@]}" | median)"
done | awk '{ cg[$1] = $2; gp[$1] = $3 }
    END {
        printf "clock_gettime: native %.1f  recorded %.1f  --no-libc %.1f  cost %.1f ns/call (target < 30)\n",
               cg["native"], cg["recorded"], cg["no-libc"], cg["recorded"] - cg["native"]
        printf "getpid:        native %.1f  recorded %.1f  --no-libc %.1f  cost %.1f ns/call\n",
               gp["native"], gp["recorded"], gp["no-libc"], gp["recorded"] - gp["native"]
    }'
