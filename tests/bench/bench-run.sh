#!/bin/bash
# bench-run.sh - run MPI benchmark kernels natively and under a wrapper
# command in the same run, and print the time ratios.
#
# usage: bench-run.sh [--np N] [--reps R] [--mpiexec PATH] [--out DIR]
#                     --kernel 'PROGRAM [ARGS...]'... --mode native|CMD...
#
#   --np N        ranks per run (default 4)
#   --reps R      runs of each kernel per mode (default 3); the reported
#                 time is the median
#   --mpiexec P   the launcher (default: mpiexec from PATH)
#   --out DIR     keep every run's output in DIR (default: a temporary
#                 directory, removed at exit)
#   --kernel K    one kernel: a program and its arguments, split on blanks;
#                 repeat for more kernels. A program that prints a line
#                 "time_s SECONDS" (tests/bench/kernels/) is timed by it;
#                 any other (e.g. an example) by the wall-clock time of the
#                 whole mpiexec run, marked '*' in the output.
#   --mode native run natively only and print the native medians.
#   --mode CMD... everything after --mode is a wrapper command put in front
#                 of the launcher:  CMD... MPIEXEC -n N PROGRAM ARGS...
#                 Native and wrapped runs alternate (native, wrapped,
#                 native, ...) so drifts in machine load hit both alike.
#                 In CMD, "{run}" is replaced by a unique name per run
#                 (KERNEL-REP), e.g.
#                   --mode drdb record -o /tmp/bench/{run} --
#                 (drdb record does not create /tmp/bench: make it first)
#
# Output: a "# np N, reps R, ..." line, then one line per kernel (medians;
# ratio = wrapped / native):
#   kernel  native_s  wrapped_s  ratio  native_wall  wrapped_wall  wall_ratio
# then the geometric means of the ratios:
#   geomean  -  -  RATIO  -  -  WALL_RATIO
# A run that exits non-zero stops the script with status 1.
set -u

np=4 reps=3 mpiexec=mpiexec out= mode=
kernels=() wrapper=()
usage() {
    sed -n '4,5p' "$0" | sed 's/^# //' >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case $1 in
    --np) np=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --mpiexec) mpiexec=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --kernel) kernels+=("$2"); shift 2 ;;
    --mode)
        shift
        if [ "${1:-}" = native ]; then
            mode=native
        else
            mode=wrap wrapper=("$@")
        fi
        break ;;
    *) echo "bench-run.sh: unknown option '$1'" >&2; usage ;;
    esac
done
[ -n "$mode" ] && [ ${#kernels[@]} -gt 0 ] || usage
if [ $mode = wrap ] && [ ${#wrapper[@]} = 0 ]; then
    echo "bench-run.sh: --mode needs 'native' or a command" >&2
    exit 2
fi
keep=" (use --out DIR to keep it)"
if [ -z "$out" ]; then
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
else
    keep=" (in $out)"
    mkdir -p "$out"
fi

# run_one NAME-REP.MODE COMMAND...: runs it, sets $t (kernel time) and
# $wall; $timed=0 when the program printed no time_s line.
run_one() {
    local log="$out/$1"
    shift
    local t0 t1
    t0=$(date +%s.%N)
    if ! "$@" > "$log" 2>&1; then
        echo "bench-run.sh: '$*' failed; its output$keep:" >&2
        tail -n 20 "$log" | sed 's/^/  /' >&2
        exit 1
    fi
    t1=$(date +%s.%N)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
    t=$(sed -n 's/^time_s \([0-9.eE+-]*\)$/\1/p' "$log" | tail -n 1)
    timed=1
    [ -n "$t" ] || { t=$wall; timed=0; }
}

# median of the arguments
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) printf "%.6f", v[(NR + 1) / 2]
        else printf "%.6f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b / a }'; }

if [ $mode = wrap ]; then
    echo "# np $np, reps $reps, wrapper: ${wrapper[*]}"
    printf '%-18s %10s %10s %7s %11s %12s %10s\n' kernel native_s wrapped_s \
        ratio native_wall wrapped_wall wall_ratio
else
    echo "# np $np, reps $reps, native only"
    printf '%-18s %10s %11s\n' kernel native_s native_wall
fi
ratios=() wall_ratios=()
for k in "${kernels[@]}"; do
    read -r -a cmd <<< "$k"
    name=$(basename "${cmd[0]}")
    nat=() natw=() wrp=() wrpw=() mark=
    for ((rep = 1; rep <= reps; rep++)); do
        run_one "$name-$rep.native" "$mpiexec" -n "$np" "${cmd[@]}"
        nat+=("$t") natw+=("$wall")
        [ $timed = 1 ] || mark='*'
        if [ $mode = wrap ]; then
            w=("${wrapper[@]//\{run\}/$name-$rep}")
            run_one "$name-$rep.wrapped" "${w[@]}" "$mpiexec" -n "$np" "${cmd[@]}"
            wrp+=("$t") wrpw+=("$wall")
        fi
    done
    n_s=$(median "${nat[@]}") n_w=$(median "${natw[@]}")
    if [ $mode = wrap ]; then
        w_s=$(median "${wrp[@]}") w_w=$(median "${wrpw[@]}")
        r=$(ratio "$n_s" "$w_s") rw=$(ratio "$n_w" "$w_w")
        ratios+=("$r") wall_ratios+=("$rw")
        printf '%-18s %10s %10s %7s %11s %12s %10s\n' "$name$mark" "$n_s" \
            "$w_s" "$r" "$n_w" "$w_w" "$rw"
    else
        printf '%-18s %10s %11s\n' "$name$mark" "$n_s" "$n_w"
    fi
done
geomean() {
    printf '%s\n' "$@" | awk '{ s += log($1) } END { printf "%.3f", exp(s / NR) }'
}
if [ $mode = wrap ]; then
    printf '%-18s %10s %10s %7s %11s %12s %10s\n' geomean - - \
        "$(geomean "${ratios[@]}")" - - "$(geomean "${wall_ratios[@]}")"
fi
