#!/bin/bash
# bench-vs.sh - the recorder's and the replay stub's cost per MPI call, of
# two builds measured side by side in one run (e.g. before and after a
# change), runs interleaved so that both see the same machine.
#
# usage: bench-vs.sh OLD_DRDB NEW_DRDB MPIEXEC SELFPAIR [N]
#   OLD_DRDB, NEW_DRDB: the drdb binaries of the two builds (each finds its
#   own recorder and stub beside it); SELFPAIR: bench-selfpair (either
#   build's); N: pairs per run (default 300000).
#
# Prints, for blocking pairs (MPI_Bsend + MPI_Recv: generated wrappers and
# stubs) and nonblocking ones (MPI_Irecv + MPI_Ibsend + MPI_Waitall: the
# hand-written completion hooks), medians of 5:
#   - the recorder's cost per pair: recorded minus native ns/pair;
#   - the stub's cost per call: the replay of N pairs minus the replay of 0,
#     per MPI call;
# and new/old for each.
set -u
old=$1 new=$2 mpiexec=$3 selfpair=$4 n=${5:-300000}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

pair_ns() { awk '/^pair_ns/ { print $2 }'; }

for mode in blocking nb; do
    calls=2
    [ $mode = nb ] && calls=3
    declare -A rec=() rpl=()
    nat=()
    for i in 1 2 3 4 5; do
        nat+=("$("$mpiexec" -n 1 "$selfpair" "$n" "$mode" | pair_ns)")
        for b in old new; do
            d=${!b}
            rec[$b]+="$("$d" record -o "$tmp/$mode.$b$i" -- "$mpiexec" -n 1 \
                "$selfpair" "$n" "$mode" 2>/dev/null | pair_ns) "
        done
    done
    for b in old new; do
        d=${!b}
        "$d" record -o "$tmp/$mode.$b.0" -- "$mpiexec" -n 1 "$selfpair" 0 "$mode" \
            > /dev/null 2>&1 || exit 1
        t0=() tn=()
        for i in 1 2 3 4 5; do
            t0+=("$(wall "$d" replay --rank 0 "$tmp/$mode.$b.0")")
            tn+=("$(wall "$d" replay --rank 0 "$tmp/$mode.${b}1")")
        done
        a=$(printf '%s\n' "${t0[@]}" | median)
        z=$(printf '%s\n' "${tn[@]}" | median)
        rpl[$b]=$(awk -v a="$a" -v z="$z" -v n="$n" -v c=$calls \
            'BEGIN { printf "%.1f", (z - a) / (c * n) * 1e9 }')
    done
    nm=$(printf '%s\n' "${nat[@]}" | median)
    ro=$(printf '%s\n' ${rec[old]} | median)
    rn=$(printf '%s\n' ${rec[new]} | median)
    echo "== $mode pairs ($n, $calls calls each; medians of 5)"
    awk -v nm="$nm" -v ro="$ro" -v rn="$rn" 'BEGIN {
        printf "recorder cost per pair: old %.1f ns, new %.1f ns (native %.1f ns/pair); new/old %.2f\n",
            ro - nm, rn - nm, nm, ((ro - nm) > 0 ? (rn - nm) / (ro - nm) : 0) }'
    awk -v o="${rpl[old]}" -v w="${rpl[new]}" 'BEGIN {
        printf "stub cost per call:     old %.1f ns, new %.1f ns; new/old %.2f\n",
            o, w, (o > 0 ? w / o : 0) }'
    unset rec rpl
done
