#!/bin/sh
# Every MPI_/MPIX_ function (and PMPI_ twin) that the installed libmpich.so.12
# exports must be in drdb's function table, and every table entry must be
# exported: the recorder wraps them all and the replay stub must provide them.
# usage: test-mpich-exports.sh DRDB LIBMPICH
set -eu
drdb=$1 lib=$2
[ -r "$lib" ] || { echo "not ok 1 - cannot read '$lib'"; echo "1..1"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$drdb" functions --names | sort > "$tmp/table"
# Defined text symbols only: MPI_F_STATUS_IGNORE & co. are data, not functions.
nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' |
    grep -E '^P?MPIX?_' | sed 's/^P//' | sort -u > "$tmp/exported"

status=0
missing=$(comm -13 "$tmp/table" "$tmp/exported")
extra=$(comm -23 "$tmp/table" "$tmp/exported")
if [ -n "$missing" ]; then
    echo "not ok 1 - exported by $lib but not in log/mpi-functions.spec:"
    echo "$missing" | sed 's/^/#   /'
    status=1
else
    echo "ok 1 - all $(wc -l < "$tmp/exported") exported functions are in the table"
fi
if [ -n "$extra" ]; then
    echo "not ok 2 - in the table but not exported by $lib:"
    echo "$extra" | sed 's/^/#   /'
    status=1
else
    echo "ok 2 - every table entry is exported"
fi
# Every MPI_ function has its PMPI_ twin (the recorder calls it).
nopmpi=$(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | grep -E '^MPI_' |
    sed 's/^/P/' | sort > "$tmp/want"; nm -D --defined-only "$lib" |
    awk '$2 == "T" { print $3 }' | grep -E '^PMPI_' | sort > "$tmp/have";
    comm -23 "$tmp/want" "$tmp/have")
if [ -n "$nopmpi" ]; then
    echo "not ok 3 - MPI_ functions without a PMPI_ twin:"; echo "$nopmpi" | sed 's/^/#   /'
    status=1
else
    echo "ok 3 - every MPI_ function has a PMPI_ twin"
fi
echo "1..3"
exit $status
