#!/bin/bash
# bench-sites.sh - the cost of call sites (each call's return address and
# the buffer addresses of calls that start a request, docs/recording.md),
# measured in one run against the same recorder built without them
# (libdrdb-record-nosites.so, REC_NO_SITES).
#
# usage: bench-sites.sh DRDB MPIEXEC SELFPAIR RECORDER NOSITES_RECORDER
#                       [SELFPAIR_FORTRAN]
#
# For the blocking pair (MPI_Bsend + MPI_Recv: 2 calls), the
# nonblocking one (MPI_Irecv + MPI_Ibsend + MPI_Waitall: 3 calls), and
# the blocking pair while an MPI_Irecv is pending (its calls then log
# their buffers' addresses), one rank to itself (kernels/selfpair.c),
# and, given SELFPAIR_FORTRAN (kernels/selfpair-f.f90), the blocking pair
# from Fortran (the site is found above MPICH's binding: rec-site.c),
# prints:
#   - callgrind's instructions per MPI call with each recorder (the
#     difference of two runs of N1 and N2 pairs, so that start-up cancels
#     out), and the difference;
#   - ns per call, the median of 5 runs of each, alternating (wall
#     clock: noisy on a shared machine; the instructions are the
#     reliable number);
#   - log bytes per record with each, and the difference (over the
#     whole log: the warm-up's blocking pairs included, and a
#     MPI_Waitall's record varies by a few bytes from run to run with
#     what MPI leaves in a send request's status).
set -u
drdb=$1 mpiexec=$2 selfpair=$3 lib=$4 nolib=$5 fselfpair=${6:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
N1=20000 N2=40000

# prog MODE: the kernel of MODE ("f": the Fortran one, blocking).
prog() { if [ "$1" = f ]; then echo "$fselfpair"; else echo "$selfpair"; fi; }
# args MODE: the kernel's mode argument (nb, pend; none for the others).
args() { case $1 in nb|pend) echo "$1" ;; esac; }

# instr LIB N MODE: callgrind's total instructions of a recorded run.
instr() {
    DRDB_RECORD_LIB=$1 "$drdb" record -o "$tmp/cg-$$-$RANDOM" -- \
        "$mpiexec" -n 1 valgrind --tool=callgrind \
        --callgrind-out-file="$tmp/cg.out" "$(prog "$3")" "$2" $(args "$3") \
        > /dev/null 2>&1 || { echo "callgrind run failed" >&2; exit 1; }
    awk '/^(summary|totals):/ { print $2; exit }' "$tmp/cg.out"
}

# per_call LIB MODE CALLS: instructions per MPI call.
per_call() {
    local a b
    a=$(instr "$1" $N1 "$2") b=$(instr "$1" $N2 "$2")
    awk -v a="$a" -v b="$b" -v n=$((N2 - N1)) -v c="$3" \
        'BEGIN { printf "%.1f", (b - a) / n / c }'
}

# ns MODE CALLS: median ns per call of 5 runs of 200000 pairs with each
# recorder, the runs alternating, first one recorder then the other each
# round (so that the machine's load drifts evenly over both, and neither
# always runs while the kernel writes back the log of the one before:
# each run's log is removed as soon as it is measured, its dirty pages
# dropped): "NOSITES SITES".
ns() {
    local i l d v0=() v1=() order
    for i in 1 2 3 4 5; do
        order=("$nolib" "$lib")
        [ $((i % 2)) = 0 ] && order=("$lib" "$nolib")
        for l in "${order[@]}"; do
            d=$tmp/ns-$i-$RANDOM
            x=$(DRDB_RECORD_LIB=$l "$drdb" record -o "$d" -- \
                    "$mpiexec" -n 1 "$(prog "$1")" 200000 $(args "$1") \
                    2>/dev/null |
                awk -v c="$2" '/^pair_ns/ { print $2 / c }')
            rm -rf "$d"
            if [ "$l" = "$lib" ]; then v1+=("$x"); else v0+=("$x"); fi
        done
    done
    echo "$(printf '%s\n' "${v0[@]}" | median) $(printf '%s\n' "${v1[@]}" | median)"
}

# bytes LIB MODE: log bytes per record (header left out).
bytes() {
    local run=$tmp/b-$RANDOM
    DRDB_RECORD_LIB=$1 "$drdb" record --no-compress -o "$run" -- \
        "$mpiexec" -n 1 "$(prog "$2")" 20000 $(args "$2") > /dev/null 2>&1
    "$drdb" log info "$run" 2>/dev/null |
        awk '/^0 / { printf "%.2f", ($3 - 256) / $2 }'
}

printf "%-34s %12s %12s %10s\n" "" "no sites" "sites" "added"
modes=("blocking:Bsend+Recv::2" "nonblocking:Irecv+Ibsend+Waitall:nb:3"
       "blocking, an Irecv pending:Bsend+Recv:pend:2")
[ -n "$fselfpair" ] && modes+=("Fortran-blocking:Bsend+Recv:f:2")
for m in "${modes[@]}"; do
    IFS=: read -r name calls mode ncalls <<< "$m"
    i0=$(per_call "$nolib" "$mode" "$ncalls")
    i1=$(per_call "$lib" "$mode" "$ncalls")
    printf "%-34s %12s %12s %10.1f\n" "$name ($calls): instr/call" "$i0" "$i1" \
        "$(awk -v a="$i0" -v b="$i1" 'BEGIN { print b - a }')"
    read -r t0 t1 <<< "$(ns "$mode" "$ncalls")"
    printf "%-34s %12.1f %12.1f %10.1f   (target: added < 20 ns)\n" \
        "$name: ns/call (median of 5)" "$t0" "$t1" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
    b0=$(bytes "$nolib" "$mode") b1=$(bytes "$lib" "$mode")
    printf "%-34s %12s %12s %10.2f\n" "$name: log bytes/record" "$b0" "$b1" \
        "$(awk -v a="$b0" -v b="$b1" 'BEGIN { print b - a }')"
done
