#!/bin/sh
# drdb check finds nothing in correct programs: every program of
# tests/progs/ and examples/ recorded at 4 ranks (PROG@NP: at NP; =ST: its
# run may also end with exit status ST, which drdb record passes on), then
# `drdb check --checks PATTERN`: no finding, exit status 0, the count line
# (docs/check.md: no false positives).
# usage: test-check-clean.sh PATTERN DRDB MPIEXEC PROG[@NP][=ST]...
set -u
pattern=$1 drdb=$(realpath "$2") mpiexec=$3
shift 3
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

for arg in "$@"; do
    st=0
    case $arg in *=*) st=${arg##*=} arg=${arg%=*} ;; esac
    prog=${arg%@*} np=4
    [ "$prog" = "$arg" ] || np=${arg##*@}
    name=$(basename "$prog")
    timeout 300 "$drdb" record -o "$tmp/$name" -- "$mpiexec" -n "$np" \
        "$prog" > "$tmp/$name.rec" 2>&1
    rc=$?
    if [ $rc != 0 ] && [ $rc != "$st" ]; then
        fail "$name -n $np: record (exit status $rc)"
        sed 's/^/#   /' "$tmp/$name.rec" | tail -10
        continue
    fi
    timeout 300 "$drdb" check --checks "$pattern" "$tmp/$name" \
        > "$tmp/$name.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && [ "$(tail -n 1 "$tmp/$name.out")" = \
            "0 errors, 0 warnings, 0 portability" ]; then
        ok "$name -n $np: $pattern finds nothing"
    else
        fail "$name -n $np: $pattern (exit status $rc)"
        sed 's/^/#   /' "$tmp/$name.out" | tail -20
    fi
done
echo "1..$n"
exit $status
