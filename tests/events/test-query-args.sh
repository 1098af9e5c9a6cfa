#!/bin/sh
# Query results as the console's arguments (docs/queries.md, "Queries as
# arguments"): @{SELECT rank ...} as a rank set, {SELECT rank, seq ...} as
# events, on tests/events/sql-pattern.c's known pattern. Every expected
# rank and event number comes from that program's header, never from drdb.
# usage: test-query-args.sh DRDB MPIEXEC SQL_PATTERN
set -u
drdb=$(realpath "$1") mpiexec=$2 prog=$(realpath "$3")
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"

if "$drdb" record -o run -- "$mpiexec" -n 4 "$prog" > rec.out 2>&1; then
    ok "record sql-pattern"
else
    fail "record sql-pattern"; sed 's/^/# /' rec.out; exit 1
fi
# con NAME LINE...: a batch session on every rank running the lines; the
# source paths GDB shows as SRC/tests/... (srcpaths: wherever the build
# directory is).
con() {
    name=$1
    shift
    printf '%s\n' "$@" > "$name.drdb"
    timeout 300 "$drdb" batch --keep-going --ranks 0-3 --timeout 60 run \
        "$name.drdb" > "$name" 2> "$name.err"
    srcpaths "$name" "$name.err"
}

# ---- rank sets: the odd ranks; the ranks of the Bcast (all) above 1
con sets "focus @{SELECT rank FROM procs WHERE rank % 2 = 1}" "print 7" \
    "focus all" \
    "goto {SELECT rank, min(seq) FROM events WHERE call = 'MPI_Barrier' GROUP BY rank}" \
    "print rank @{SELECT DISTINCT rank FROM events WHERE call = 'MPI_Bcast' AND rank > 1}" \
    "@{SELECT rank FROM procs WHERE rank = 0} print rank"
has "focus @{SELECT ...}: the odd ranks" sets "focus: 1,3" "[1,3] \$1 = 7"
# the first Barrier: rank 0's event 15, the others' 11
has "goto {SELECT rank, min(seq) ...}: each rank before its first Barrier" \
    sets "[1-3] main () at SRC/tests/events/sql-pattern.c:56, before event 11 (MPI_Barrier)" \
    "[0] main () at SRC/tests/events/sql-pattern.c:56, before event 15 (MPI_Barrier)"
# (rank 3's value history holds print 7's already)
has "print x @{SELECT DISTINCT rank ...} as the last word" sets \
    "[2] \$1 = 2" "[3] \$2 = 3"
has "@{SELECT ...} before the command" sets "[0] \$1 = 0"

# ---- events: round 0's receives (tag 10): rank 0 event 4 from rank 3's
# send (event 4), ranks 1-3 event 3 from rank r - 1's (0: event 3, else 4)
con ev "match {SELECT rank, seq FROM events WHERE call = 'MPI_Recv' AND tag = 10}" \
    "event {SELECT 2, 16}" "goto-send {SELECT 1, 3}"
has "match {SELECT rank, seq ...}: one event per rank, in rank order" ev \
    "rank 0 event 4 MPI_Recv from 3 tag 10 <- rank 3 event 4 MPI_Send (4 bytes)" \
    "rank 1 event 3 MPI_Recv from 0 tag 10 <- rank 0 event 3 MPI_Send (4 bytes)" \
    "rank 2 event 3 MPI_Recv from 1 tag 10 <- rank 1 event 4 MPI_Send (4 bytes)" \
    "rank 3 event 3 MPI_Recv from 2 tag 10 <- rank 2 event 4 MPI_Send (4 bytes)"
has "event {SELECT 2, 16}: rank 2's Irecv" ev "rank 2 event 16: MPI_Irecv"
has "goto-send {SELECT 1, 3}: rank 0 before its first Send" ev \
    "[0] main () at SRC/tests/events/sql-pattern.c:39, before event 3 (MPI_Send)"

# ---- goto a query's events with ranks 2, 3 not replayed: they are left
# out (said), ranks 0 and 1 go to their event 3 (0: Send, 1: Recv)
printf '%s\n' "goto {SELECT rank, 3 FROM procs}" > part.drdb
timeout 300 "$drdb" batch --ranks 0,1 --timeout 60 run part.drdb > part \
    2> part.err
srcpaths part part.err
has "goto {...}: ranks not replayed are left out, the others go" part \
    "[0] main () at SRC/tests/events/sql-pattern.c:39, before event 3 (MPI_Send)" \
    "[1] main () at SRC/tests/events/sql-pattern.c:43, before event 3 (MPI_Recv)"
has "goto {...}: the left-out ranks are named" part.err \
    "drdb: [2,3] not replayed: left out ('replay @SET' starts ranks)"

# ---- errors: clear, and the command does not run
con bad "status @{SELECT rank FROM procs WHERE rank > 5}" \
    "status @{SELECT rank, events FROM procs}" "status @{SELECT 'x'}" \
    "status @{SELECT 7}" \
    "goto {SELECT rank, seq FROM events WHERE call = 'MPI_Send'}" \
    "match {SELECT rank FROM procs}" "status @{SELECT rank FRM procs}"
has "an empty result is an error" bad.err \
    "drdb: {SELECT rank FROM procs WHERE rank > 5}: no rows, so no rank: nothing to run it on" \
    "drdb: bad.drdb:1: 'status @{SELECT rank FROM procs WHERE rank > 5}' failed"
has "two columns for a rank set: named" bad.err \
    "drdb: {SELECT rank, events FROM procs}: returned 2 columns (rank, events); a rank set needs one integer column, the ranks"
has "a text column for a rank set: named" bad.err \
    "drdb: {SELECT 'x'}: returned 1 column ('x') with a value that is not an integer; a rank set needs one integer column, the ranks"
has "a rank outside the run" bad.err \
    "drdb: {SELECT 7}: rank 7 is not in the run (0-3)"
# rank 0 sends at events 3, 5, 7 (the ring) and 21
has "two events for one rank is an error" bad.err \
    "drdb: {SELECT rank, seq FROM events WHERE call = 'MPI_Send'}: two rows for rank 0: at most one event per rank (GROUP BY rank)"
has "one column for events: named" bad.err \
    "drdb: {SELECT rank FROM procs}: returned 1 column (rank); a list of events needs two integer columns, rank and event number"
has "an SQL error is SQLite's" bad.err 'drdb: near "procs": syntax error'

echo "1..$n"
exit $status
