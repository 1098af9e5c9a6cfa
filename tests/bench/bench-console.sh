#!/bin/bash
# bench-console.sh - the console's speed: ranks started under GDB and
# stopped at main (16 and 64, oversubscribed on this machine), and a merged
# print across 64 stopped ranks. Targets: 16 in < 3 s, 64 in < 12 s, the
# print in < 300 ms.
# usage: bench-console.sh DRDB MPIEXEC JACOBI
set -u
drdb=$1 mpiexec=$2 jacobi=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "set timing on" "print rank" "print rank" "print rank" > "$tmp/s.drdb"
for np in 16 64; do
    "$drdb" record -o "$tmp/r$np" -- "$mpiexec" -n $np "$jacobi" 32 2 \
        > /dev/null 2>&1 || { echo "recording $np ranks failed" >&2; exit 1; }
    "$drdb" batch --ranks 0-$((np - 1)) "$tmp/r$np" "$tmp/s.drdb" \
        > "$tmp/out$np" 2> "$tmp/err$np" || { cat "$tmp/err$np" >&2; exit 1; }
    start=$(sed -n 's/^drdb: \([0-9]*\) ranks started in \([0-9.]*\) s$/\2/p' "$tmp/err$np")
    print=$(sed -n "s/^drdb: 'print rank' took \([0-9]*\) ms$/\1/p" "$tmp/err$np" |
            sort -n | sed -n 2p)
    target=$([ $np = 16 ] && echo 3 || echo 12)
    echo "$np ranks: started and stopped at main in $start s (target < $target s);" \
         "merged print: $print ms (median of 3; target < 300 ms)"
done
