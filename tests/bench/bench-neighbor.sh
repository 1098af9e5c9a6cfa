#!/bin/bash
# bench-neighbor.sh - what the recorder costs on a neighbourhood
# collective (docs/recording.md): callgrind's instructions per call of
# MPI_Neighbor_alltoall and MPI_Neighbor_alltoallv on a 4-rank periodic
# Cartesian ring (kernels/neighbor.c), with two recorders (AFTER_LIB, and
# BEFORE_LIB, else $DRDB_NEIGHBOR_BEFORE, else AFTER_LIB again: e.g. an
# older build's, which does not log the topology), and the log bytes per
# record of each.
#
# usage: bench-neighbor.sh DRDB MPIEXEC NEIGHBOR AFTER_LIB [BEFORE_LIB]
#
# Instructions per call: the wrapper's inclusive cost (MPI_Neighbor_* in
# the recorder) minus that of MPICH's PMPI_Neighbor_* it calls, summed
# over the 4 ranks and divided by their calls: the recorder's own work
# only (MPI's busy-polling while waiting for the other ranks, which
# depends on the scheduler, cancels out).
set -u
drdb=$1 mpiexec=$2 kernel=$3 after=$4
before=${5:-${DRDB_NEIGHBOR_BEFORE:-$after}}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
N=500

# instr LIB MODE: instructions per call (see above).
instr() {
    local d=$tmp/cg-$RANDOM fn=MPI_Neighbor_alltoall
    [ "$2" = v ] && fn=MPI_Neighbor_alltoallv
    mkdir -p "$d"
    DRDB_RECORD_LIB=$1 "$drdb" record --no-compress -o "$d/run" -- \
        "$mpiexec" -n 4 valgrind --tool=callgrind \
        --callgrind-out-file="$d/cg.%p" "$kernel" $N $2 > /dev/null 2>&1 ||
        { echo "callgrind run failed" >&2; exit 1; }
    for f in "$d"/cg.*; do
        callgrind_annotate --inclusive=yes --threshold=100 "$f" 2>/dev/null
    done | awk -v fn="$fn" -v n=$((4 * N)) '
        # The wrapper is named by its alias PMPI_... or MPI_..., MPICH
        # by PMPI_...; the lines with the object, not per source file.
        { gsub(",", "", $1) }
        $0 ~ ":P?" fn " \\[" && /libdrdb-record/ { w += $1 }
        $0 ~ ":P" fn " \\[" && /libmpich/ { p += $1 }
        END { printf "%.0f", (w - p) / n }'
}

# bytes LIB MODE: log bytes per record of rank 0 (header left out).
bytes() {
    local run=$tmp/b-$RANDOM
    DRDB_RECORD_LIB=$1 "$drdb" record --no-compress -o "$run" -- \
        "$mpiexec" -n 4 "$kernel" $N $2 > /dev/null 2>&1
    "$drdb" log info "$run" 2>/dev/null |
        awk '/^0 / { printf "%.2f", ($3 - 256) / $2 }'
}

printf "%-34s %10s %10s %10s\n" "" "before" "after" "added"
for m in ":MPI_Neighbor_alltoall" "v:MPI_Neighbor_alltoallv"; do
    IFS=: read -r mode name <<< "$m"
    i0=$(instr "$before" "$mode") i1=$(instr "$after" "$mode")
    printf "%-34s %10s %10s %10s\n" "$name: instr/call" "$i0" "$i1" \
        $((i1 - i0))
    b0=$(bytes "$before" "$mode") b1=$(bytes "$after" "$mode")
    printf "%-34s %10s %10s %10.2f\n" "$name: log bytes/record" "$b0" \
        "$b1" "$(awk -v a="$b0" -v b="$b1" 'BEGIN { print b - a }')"
done
