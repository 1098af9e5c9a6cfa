#!/bin/sh
# othello-picture.sh - the picture of docs/pictures.md: records
# examples/othello until its planted bug shows ($ATTEMPTS, default 60), finds
# the receive that took the late Result (the console stops rank 0 where
# examples/othello.drdb does and reads its position), and draws the events
# around it: OUT.svg and OUT.html. Nothing is committed: run it from the
# source tree after building.
#   docs/othello-picture.sh [BUILD [OUT]]      (default: build, othello)
set -u
build=${1:-build} out=${2:-othello}
drdb=$build/frontend/drdb prog=$build/examples/othello
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run=$tmp/run
for i in $(seq "${ATTEMPTS:-60}"); do
    rm -rf "$run"
    "$drdb" record -o "$run" -- mpiexec -n 4 "$prog" > "$tmp/out" 2>&1
    [ $? = 3 ] && break
    echo "attempt $i: no bug" >&2
done
grep BUG "$tmp/out" || {
    echo "the bug did not show in ${ATTEMPTS:-60} attempts: run again" >&2
    exit 1
}
# the line othello.c marks for examples/othello.drdb's breakpoint
src=$(dirname "$0")/../examples/othello.c
line=$(($(grep -n 'examples/othello.drdb stops rank 0 on the next line' \
    "$src" | cut -d: -f1) + 1))
printf '%s\n' "@0 break othello.c:$line if res.seq != kid[src].seq" \
    "@0 continue" status > "$tmp/stop.drdb"
"$drdb" batch --ranks 0 "$run" "$tmp/stop.drdb" > "$tmp/status" 2>&1
# "0     stopped   692/712 ...": the receive completed just before 692
next=$(awk '$1 == "0" && $2 == "stopped" { split($3, a, "/"); print a[1] }' \
    "$tmp/status")
[ -n "$next" ] || { cat "$tmp/status" >&2; exit 1; }
recv=$((next - 1))
"$drdb" log match "$run" "0:$recv"
for kind in svg html; do
    "$drdb" log graph "$run" --around "0:$recv" --window 6 --logical \
        --tag-names 1=Search,2=Control,3=Stop,4=Result,5=Stats \
        -o "$out.$kind" || exit 1
done
