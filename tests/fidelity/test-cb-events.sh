#!/bin/sh
# Callback entries in the event index's SQL tables and listings: a record
# saying MPI ran one of the program's callbacks is no call of an MPI
# function. On
# cb-comm.c (counted from its source): each rank calls
# MPI_Comm_create_keyval 8 times, and its copy_fn, which calls
# MPI_Comm_size once, runs 8 times: for a, b and c at each MPI_Comm_dup
# of MPI_COMM_WORLD (two of them), for the copied a and b at the dup of
# d1 (c's copy function declines to copy).
#
# usage: test-cb-events.sh DRDB MPIEXEC CB_COMM
set -u
drdb=$1 mpiexec=$2 prog=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

if ! "$drdb" record -o "$tmp/run" -- "$mpiexec" -n 2 "$prog" \
        > "$tmp/rec.log" 2>&1; then
    fail "recording cb-comm"
    sed 's/^/# /' "$tmp/rec.log" | tail -5
    echo "1..$n"
    exit 1
fi
# sql NAME QUERY: the answer as CSV in $tmp/NAME.
sql() {
    "$drdb" log sql --csv "$tmp/run" "$2" > "$tmp/$1" 2>&1
}
sql keyval "SELECT rank, count(*) FROM events
            WHERE call = 'MPI_Comm_create_keyval' GROUP BY rank ORDER BY rank"
has "the program's MPI_Comm_create_keyval calls, callback entries apart" \
    "$tmp/keyval" "0,8" "1,8"
sql insize "SELECT rank, count(*) FROM events
            WHERE call = 'MPI_Comm_size' AND depth = 1 GROUP BY rank
            ORDER BY rank"
has "calls made inside a callback: depth 1" "$tmp/insize" "0,8" "1,8"
sql kinds "SELECT count(*) FROM events WHERE callback IS NOT NULL
           AND call IS NULL AND callback IN ('copy', 'delete')
           AND rank = 0"
if [ "$(tail -n 1 "$tmp/kinds")" -ge 8 ] 2>/dev/null; then
    ok "callback entries say what MPI ran (copy, delete): $(tail -n 1 "$tmp/kinds")"
else
    fail "callback entries: $(cat "$tmp/kinds")"
fi
# The listings: entries are "(callback)" rows, and no call of their
# registering function.
"$drdb" log events "$tmp/run" --rank 0 --call MPI_Comm_create_keyval \
    > "$tmp/list" 2>&1
rows=$(awk 'NR > 1 && $3 == "MPI_Comm_create_keyval"' "$tmp/list" | wc -l)
[ "$rows" = 8 ] && [ "$(wc -l < "$tmp/list")" = 9 ] &&
    ok "drdb log events --call MPI_Comm_create_keyval: the 8 calls" ||
    fail "drdb log events --call MPI_Comm_create_keyval: $rows calls in $(wc -l < "$tmp/list") lines"
"$drdb" log events "$tmp/run" --rank 0 > "$tmp/all" 2>&1
hasre "a callback entry is listed as (callback), with what MPI ran" \
    "$tmp/all" "^ *0 *[0-9]*  (callback) .*\[callback 1: copy, keyval "
echo "1..$n"
exit $status
