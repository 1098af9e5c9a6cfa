#!/bin/sh
# othello-picture.sh - the picture of docs/pictures.md (the paper's Figure
# 4): records examples/othello until its planted bug shows ($ATTEMPTS,
# default 60; or takes the run RUN=DIR names, one recorded when the bug
# showed), finds the receive that took the late Result (the console stops
# rank 0 where examples/othello.drdb does and reads its position), and
# draws the events around it in logical time, with the Search that crossed
# the Result (the window widened to hold it): OUT.svg and OUT.html, by
# default docs/othello.svg and docs/othello.html, which docs/pictures.md
# shows. Nothing is committed (.gitignore lists them): run it after
# building, from anywhere, or `ninja -C BUILD othello-picture`.
#   docs/othello-picture.sh [BUILD [OUT]]   (default: build, docs/othello)
set -u
docs=$(cd "$(dirname "$0")" && pwd)
build=${1:-$docs/../build} out=${2:-$docs/othello}
drdb=$build/frontend/drdb prog=$build/examples/othello
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -n "${RUN:-}" ]; then
    run=$RUN
else
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
fi
# the line othello.c marks for examples/othello.drdb's breakpoint
src=$docs/../examples/othello.c
line=$(($(grep -n 'examples/othello.drdb stops rank 0 on the next line' \
    "$src" | cut -d: -f1) + 1))
printf '%s\n' "@0 break othello.c:$line if res.seq != kid[src].seq" \
    "@0 continue" status > "$tmp/stop.drdb"
"$drdb" batch --ranks 0 "$run" "$tmp/stop.drdb" > "$tmp/status" 2>&1
# "0     stopped      after 691/712 ...": the receive is event 691
recv=$(awk '$1 == "0" && $2 == "stopped" && $3 == "after" {
    split($4, a, "/"); print a[1] }' "$tmp/status")
[ -n "$recv" ] || { cat "$tmp/status" >&2; exit 1; }
"$drdb" log match "$run" "0:$recv"
# The window: 6 events, or more to hold the Search that crossed the
# Result: sent by rank 0 to the searcher before the receive completed,
# received there after the Result left (the first such)
set -- $("$drdb" log sql --csv "$run" "SELECT r.recv_seq, r.send_seq,
    x.send_seq, x.recv_seq FROM matches r JOIN matches x ON x.tag = 1
    AND x.send_rank = 0 AND x.recv_rank = r.send_rank
    AND x.send_seq < r.recv_done AND x.recv_seq > r.send_seq
    WHERE r.recv_rank = 0 AND r.recv_done = $recv AND r.tag = 4
    ORDER BY x.recv_seq LIMIT 1" | tail -n +2 | tr , ' ')
k=6
if [ $# = 4 ]; then
    [ $(($1 - $3)) -gt $k ] && k=$(($1 - $3))
    [ $(($4 - $2)) -gt $k ] && k=$(($4 - $2))
fi
for kind in svg html; do
    "$drdb" log graph "$run" --around "0:$recv" --window $k --logical \
        --tag-names 1=Search,2=Control,3=Stop,4=Result,5=Stats \
        -o "$out.$kind" || exit 1
done
