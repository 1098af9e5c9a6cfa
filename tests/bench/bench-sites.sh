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
#   - ns per call with each recorder, over ROUNDS (default 11) rounds of
#     one run of 200,000 pairs each, alternating which goes first; each
#     run pinned to one CPU (taskset -c CPU, default the last one), its
#     log on tmpfs (/dev/shm, removed after the run: no writeback of the
#     log on the disk during the next one): the minimum over the rounds
#     (noise only adds time) and the median, and their differences;
#   - the instruction rate, callgrind's instructions per call over the
#     minimum ns per call of the same kernel and recorder, and the added
#     instructions converted to ns at the rate of the recorder with sites:
#     the number to set against the 20 ns target (the wall-clock
#     difference of two runs moves by tens of ns on a shared machine; the
#     instructions do not);
#   - log bytes per record with each, and the difference (over the
#     whole log: the warm-up's blocking pairs included, and a
#     MPI_Waitall's record varies by a few bytes from run to run with
#     what MPI leaves in a send request's status).
# Ratios and differences measured in one run: no timed assertion.
# Environment: ROUNDS, CPU.
#
# Last printed (s29, a quiet machine: load average 0.2 -> 0.6), per MPI
# call, without -> with sites: instructions, blocking 1489.2 -> 1526.4
# (+37), nonblocking 1617.0 -> 1682.7 (+66), blocking with an Irecv
# pending 1506.4 -> 1580.3 (+74), Fortran blocking 1532.5 -> 1574.3 (+42)
# (the run before: +35, +54, +62, +48; before the site and buffer paths
# were made cheaper: +66, +89, +105, +159); minimum ns of 11 runs moved by
# +19, -7, -27, -29 (noise still); at the measured 3.2 to 5.5
# instructions/ns the added instructions are 11.5, 11.9, 17.6 and 7.6 ns
# (docs/recording.md).
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

ROUNDS=${ROUNDS:-11}
CPU=${CPU:-$(($(nproc) - 1))}
pin=(); command -v taskset > /dev/null && pin=(taskset -c "$CPU")
shm=/dev/shm; [ -d "$shm" ] && [ -w "$shm" ] || shm=$tmp
# ns MODE CALLS: ns per call of ROUNDS runs of 200000 pairs with each
# recorder, alternating which goes first each round (so that the
# machine's load drifts evenly over both), pinned, the log on tmpfs and
# removed as soon as measured: "MIN0 MED0 MIN1 MED1" (0: without sites).
ns() {
    local i l d x v0=() v1=() order
    for ((i = 1; i <= ROUNDS; i++)); do
        order=("$nolib" "$lib")
        [ $((i % 2)) = 0 ] && order=("$lib" "$nolib")
        for l in "${order[@]}"; do
            d=$(mktemp -d "$shm/drdb-bench-sites.XXXXXX")
            x=$(DRDB_RECORD_LIB=$l "${pin[@]}" "$drdb" record -o "$d/run" -- \
                    "$mpiexec" -n 1 "$(prog "$1")" 200000 $(args "$1") \
                    2>/dev/null |
                awk -v c="$2" '/^pair_ns/ { print $2 / c }')
            rm -rf "$d"
            [ -n "$x" ] || { echo "wall-clock run failed" >&2; exit 1; }
            if [ "$l" = "$lib" ]; then v1+=("$x"); else v0+=("$x"); fi
        done
    done
    echo "$(printf '%s\n' "${v0[@]}" | sort -g | head -n 1)" \
         "$(printf '%s\n' "${v0[@]}" | median)" \
         "$(printf '%s\n' "${v1[@]}" | sort -g | head -n 1)" \
         "$(printf '%s\n' "${v1[@]}" | median)"
}

# bytes LIB MODE: log bytes per record (header left out).
bytes() {
    local run=$tmp/b-$RANDOM
    DRDB_RECORD_LIB=$1 "$drdb" record --no-compress -o "$run" -- \
        "$mpiexec" -n 1 "$(prog "$2")" 20000 $(args "$2") > /dev/null 2>&1
    "$drdb" log info "$run" 2>/dev/null |
        awk '/^0 / { printf "%.2f", ($3 - 256) / $2 }'
}

# row LABEL A B ADDED [NOTE]: one line of the table.
row() { printf "  %-30s %12s %12s %10s%s\n" "$@"; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
row "" "no sites" "sites" "added" ""
modes=("blocking:Bsend+Recv::2" "nonblocking:Irecv+Ibsend+Waitall:nb:3"
       "blocking, an Irecv pending:Bsend+Recv:pend:2")
[ -n "$fselfpair" ] && modes+=("Fortran blocking:Bsend+Recv:f:2")
for m in "${modes[@]}"; do
    IFS=: read -r name calls mode ncalls <<< "$m"
    echo "$name ($calls), per MPI call:"
    i0=$(per_call "$nolib" "$mode" "$ncalls")
    i1=$(per_call "$lib" "$mode" "$ncalls")
    row "instructions (callgrind)" "$i0" "$i1" "$(sub "$i0" "$i1")" ""
    read -r m0 d0 m1 d1 <<< "$(ns "$mode" "$ncalls")"
    row "ns, min of $ROUNDS" "$m0" "$m1" "$(sub "$m0" "$m1")" ""
    row "ns, median of $ROUNDS" "$d0" "$d1" "$(sub "$d0" "$d1")" ""
    r0=$(awk -v i="$i0" -v t="$m0" 'BEGIN { printf "%.2f", i / t }')
    r1=$(awk -v i="$i1" -v t="$m1" 'BEGIN { printf "%.2f", i / t }')
    row "instructions/ns; added as ns" "$r0" "$r1" \
        "$(awk -v a="$i0" -v b="$i1" -v r="$r1" \
            'BEGIN { printf "%.1f", (b - a) / r }')" \
        "   (target: added < 20 ns)"
    b0=$(bytes "$nolib" "$mode") b1=$(bytes "$lib" "$mode")
    row "log bytes/record" "$b0" "$b1" "$(sub "$b0" "$b1")" ""
done
