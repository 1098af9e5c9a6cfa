#!/bin/bash
# bench-record.sh - the recorder's cost, measured against native runs in the
# same invocation (never against stored numbers).
#
# usage: bench-record.sh DRDB MPIEXEC SELFPAIR LIBCALL JACOBI BENCH_RUN
#                        KERNEL_SPEC...
#   KERNEL_SPEC: "PROGRAM ARGS" strings as bench-run.sh --kernel takes.
#   BENCH_SECTIONS in the environment: the sections to run (default
#   "1 2 3 4 5"; e.g. "4 5" for the libc streams' cost alone).
#
# Prints:
#   1. the per-pair cost of a small MPI_Send/MPI_Recv, native and recorded
#      (one rank talking to itself: no scheduler noise), and the difference;
#   2. bench-run.sh's native/recorded ratios for the kernels and an example,
#      with their geometric mean;
#   3. log bytes per event beyond the received data, per kernel;
#   4. the cost of an interposed libc call (clock_gettime, getpid: their
#      results go to rank-R.sys), native, recorded and recorded with
#      --no-libc, and the differences: recorded minus native (the target:
#      under 30 ns) and recorded minus --no-libc (the logging alone);
#   5. the kernels recorded with the libc streams and with --no-libc,
#      alternating, and the ratios of their times, median and fastest
#      (the target: no measurable change, ratios within the runs' spread
#      of 1).
set -u
drdb=$1 mpiexec=$2 selfpair=$3 libcall=$4 jacobi=$5 bench_run=$6
shift 6
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
sections=" ${BENCH_SECTIONS:-1 2 3 4 5} "
want() { case $sections in *" $1 "*) return 0 ;; esac; return 1; }


if want 1; then
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
fi

if want 2; then
echo
echo "== 2. kernels and an example, native vs recorded (4 ranks, median of 3)"
mkdir -p "$tmp/runs"
specs=()
for k in "$@"; do specs+=(--kernel "$k"); done
"$bench_run" --np 4 --reps 3 --mpiexec "$mpiexec" "${specs[@]}" \
    --kernel "$jacobi 64 50" \
    --mode "$drdb" record -o "$tmp/runs/{run}" -- || exit 1
fi

if want 3; then
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
fi

if want 4; then
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
        printf "clock_gettime: native %.1f  recorded %.1f  --no-libc %.1f  cost %.1f ns/call (target < 30), %.1f over --no-libc\n",
               cg["native"], cg["recorded"], cg["no-libc"], cg["recorded"] - cg["native"],
               cg["recorded"] - cg["no-libc"]
        printf "getpid:        native %.1f  recorded %.1f  --no-libc %.1f  cost %.1f ns/call (target < 30), %.1f over --no-libc\n",
               gp["native"], gp["recorded"], gp["no-libc"], gp["recorded"] - gp["native"],
               gp["recorded"] - gp["no-libc"]
    }'
echo "(load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); the times are each process's CPU time)"
fi

if want 5; then
echo
echo "== 5. the kernels recorded with the libc streams vs --no-libc (4 ranks, alternating, 5 runs each):"
echo "==    medians, their ratio, the ratio of the fastest runs (least disturbed), the --no-libc runs' spread"
printf "%-20s %10s %10s %8s %9s %8s %11s\n" kernel "no-libc s" "libc s" ratio "min ratio" spread "libc calls"
ratios=() spreads=() mins=()
for k in "$@"; do
    read -r -a cmd <<< "$k"
    name=$(basename "${cmd[0]}")
    on=() off=()
    for i in 1 2 3 4 5; do
        for mode in off on; do
            opt=(); [ $mode = off ] && opt=(--no-libc)
            rm -rf "$tmp/k5"
            out=$("$drdb" record "${opt[@]}" -o "$tmp/k5" -- "$mpiexec" -n 4 \
                  "${cmd[@]}" 2>&1) || { echo "recording $name failed" >&2; exit 1; }
            t=$(echo "$out" | sed -n 's/^time_s \([0-9.eE+-]*\)$/\1/p' | tail -n 1)
            [ -n "$t" ] || { echo "$name printed no time_s" >&2; exit 1; }
            if [ $mode = on ]; then on+=("$t"); else off+=("$t"); fi
        done
        [ $i = 5 ] && calls=$("$drdb" log info "$tmp/k5" 2>/dev/null |
            sed -n 's/^libc results: \([0-9]*\) calls.*/\1/p')
    done
    a=$(printf '%s\n' "${off[@]}" | median)
    b=$(printf '%s\n' "${on[@]}" | median)
    r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
    # the --no-libc runs' own spread: slowest / fastest
    sp=$(printf '%s\n' "${off[@]}" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 }
        END { printf "%.3f", hi / lo }')
    lo_off=$(printf '%s\n' "${off[@]}" | sort -g | head -n 1)
    lo_on=$(printf '%s\n' "${on[@]}" | sort -g | head -n 1)
    m=$(awk -v a="$lo_off" -v b="$lo_on" 'BEGIN { printf "%.3f", b / a }')
    ratios+=("$r") spreads+=("$sp") mins+=("$m")
    printf "%-20s %10.3f %10.3f %8s %9s %8s %11s\n" "$name" "$a" "$b" "$r" "$m" "$sp" "${calls:-0}"
done
printf "%-20s %10s %10s %8s %9s %8s   (target: ratios of 1 within the spread)\n" geomean - - \
    "$(geomean "${ratios[@]}")" "$(geomean "${mins[@]}")" "$(geomean "${spreads[@]}")"
fi
