#!/bin/sh
# bisect on a recorded run of tests/progs/bisect-corrupt.c (3000 iterations,
# the value of iteration 1717 bad): the events and source lines computed by
# hand from the program (its header comment), not from drdb:
#  - the first event before which `peak > 1e6` holds is 4 + 2*1717 = 3438
#    (MPI_Get_count, the line marked COUNT), the last where it does not
#    3437 (MPI_Recv, the line marked RECV); the rank is left at 3438; the
#    probes are about log2 of the 6004 events;
#  - over a query's events (the MPI_Recv ones): 3439 and 3437, also with
#    --events and --from/--to;
#  - the user's breakpoints do not stop a probe and are enabled after;
#  - errors: true already at --from, still false at --to, a COND GDB
#    rejects, a rank not replayed, a query with another rank's events, two
#    ranks, no checkpoints (DRDB_CKPT=off), no COND;
#  - Ctrl-C (SIGINT) during a slow bisect stops it, says where the rank is,
#    and the session goes on;
#  - a bisect that fails (no event where COND holds, a COND GDB rejects,
#    Ctrl-C) leaves the rank where it stood (status and drdb_event as
#    before it) and no checkpoint of its own (`checkpoints` as before it):
#    with a rank ahead of --from (rolled back to where it stood) and
#    behind it (the search re-ran the rank from the start of its log).
# usage: test-bisect.sh DRDB MPIEXEC BISECT_CORRUPT BISECT_CORRUPT_C
set -u
drdb=$1 mpiexec=$2 prog=$3 src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

recv=$(grep -n '/\* RECV \*/' "$src" | cut -d: -f1)
count=$(grep -n '/\* COUNT \*/' "$src" | cut -d: -f1)
file=SRC/tests/progs/bisect-corrupt.c

"$drdb" record -o "$tmp/run" -- "$mpiexec" -n 2 -outfile-pattern \
    "$tmp/out.%r" "$prog" 3000 1717 > "$tmp/record" 2>&1 ||
    fail "recording bisect-corrupt"
# the sum of i % 64 + 1 for every i < 3000 but 1717, plus 1e9
sum=$(awk 'BEGIN { for (i = 0; i < 3000; i++) if (i != 1717) s += i % 64 + 1;
    printf "%.0f", s + 1e9 }')
has "the program's own run" "$tmp/out.0" "rank 0: peak 1e+09 sum $sum"

# batch NAME [ENV=VALUE] -- LINES...: rank 0 replayed, -k, in $tmp/NAME
batch() {
    name=$1
    shift
    env=
    [ "$1" != -- ] && { env=$1; shift; }
    shift
    printf '%s\n' "replay @0" "$@" > "$tmp/$name.drdb"
    # shellcheck disable=SC2086
    env $env timeout 200 "$drdb" batch -k --ranks 0 --timeout 60 \
        "$tmp/run" "$tmp/$name.drdb" > "$tmp/$name" 2> "$tmp/$name.err"
    echo $? > "$tmp/$name.rc"
    srcpaths "$tmp/$name" "$tmp/$name.err"
}

batch range -- "break bisect-corrupt.c:$recv" "bisect @0 peak > 1e6" \
    "print peak" "print drdb_event" "info breakpoints" "continue"
has "bisect: the first event and the last, with their source lines" \
    "$tmp/range" \
    "bisect: rank 0: 'peak > 1e6'" \
    "  first true: before event 3438 (MPI_Get_count), main () at $file:$count" \
    "  last false: before event 3437 (MPI_Recv), main () at $file:$recv" \
    "[0] \$1 = 1000000000" "[0] \$2 = 3438"
probes=$(sed -n 's/^  \([0-9]*\) probes, [0-9.]* s; rank 0 stopped before event 3438$/\1/p' "$tmp/range")
[ -n "$probes" ] && [ "$probes" -ge 13 ] && [ "$probes" -le 16 ] &&
    ok "bisect: $probes probes for 6004 events" ||
    fail "bisect: probes '$probes' (want 13-16)"
# the breakpoint did not stop a probe; enabled again, it stops `continue`
hasre "the user's breakpoint: enabled after, and it works" "$tmp/range" \
    "^1 *breakpoint *keep *y *0x[0-9a-f]* *in main at $file:$recv\$" \
    "^Breakpoint 1, main (.*) at $file:$recv\$"

q="{SELECT rank, seq FROM events WHERE rank = 0 AND call = 'MPI_Recv'}"
batch query -- "bisect @0 peak > 1e6 $q" \
    "bisect @0 peak > 1e6 --events $q --from 3000 --to 4000" \
    "bisect @0 peak > 1e6 --events={SELECT rank, seq FROM events WHERE call = 'MPI_Get_count'}"
has "bisect over a query's events" "$tmp/query" \
    "  first true: before event 3439 (MPI_Recv), main () at $file:$recv" \
    "  last false: before event 3437 (MPI_Recv), main () at $file:$recv" \
    "  first true: before event 3438 (MPI_Get_count), main () at $file:$count" \
    "  last false: before event 3436 (MPI_Get_count), main () at $file:$count"
[ "$(grep -c '^  first true: before event 3439 ' "$tmp/query")" = 2 ] &&
    ok "bisect --events with --from and --to" ||
    fail "bisect --events --from --to"

batch errors -- "bisect @0 peak > 1e6 --from 3500" \
    "bisect @0 peak > 1e6 --to 3000" "bisect @0 nosuch > 1" \
    "bisect @1 peak > 1e6" \
    "bisect @0 peak > 1e6 {SELECT rank, seq FROM events WHERE call = 'MPI_Send'}" \
    "bisect @0 peak > 1e6 {SELECT rank, seq FROM events WHERE seq < 0}" \
    "bisect @0" "bisect @0 peak > 1e6 --from 7000" "help bisect"
has "bisect: its errors" "$tmp/errors.err" \
    "drdb: bisect: 'peak > 1e6' is true already before event 3500, the first it tries: nothing to bisect (an earlier --from?)" \
    "drdb: bisect: 'peak > 1e6' is still false before event 3000, the last it tries: nothing to find (a later --to?)" \
    "drdb: bisect: 'nosuch > 1' on rank 0 before event 0: No symbol \"nosuch\" in current context: give a GDB expression valid in the program's frame at every event it tries" \
    "drdb: [1] not replayed: left out ('replay @SET' starts ranks)" \
    "drdb: {SELECT rank, seq FROM events WHERE call = 'MPI_Send'}: a row for rank 1: only rank 0's events (WHERE rank = 0)" \
    "drdb: {SELECT rank, seq FROM events WHERE seq < 0}: no rows, so no event: nothing to run it on" \
    "drdb: bisect @R COND: which condition? (a GDB expression, e.g. 'x > 1e3')" \
    "drdb: bisect --from N: an event of rank 0 (0-6003), not '7000'"
has "help bisect" "$tmp/errors" \
    "usage: [@SET] bisect @R COND [--from N] [--to M] [{SELECT rank, seq ...}]"

printf '%s\n' "replay @0,1" "bisect @0,1 peak > 1e6" > "$tmp/two.drdb"
"$drdb" batch --ranks 0,1 --timeout 60 "$tmp/run" "$tmp/two.drdb" \
    > "$tmp/two" 2> "$tmp/two.err"
has "bisect: one rank" "$tmp/two.err" \
    "drdb: bisect works on one rank: bisect @R COND"

batch nockpt DRDB_CKPT=off -- "bisect @0 peak > 1e6"
has "bisect without checkpoints: what to do" "$tmp/nockpt.err" \
    "drdb: bisect needs checkpoints on rank 0: a single-threaded process, and a console started without DRDB_CKPT=off (docs/checkpoints.md)"

# ---- a failed bisect leaves the rank where it stood, and none of the
# checkpoints it took. "peak > 1e12" holds nowhere: the search runs the
# whole range (taking its checkpoints) and finds nothing. Compared: what
# `status`, `print drdb_event` and `checkpoints` say before and after.
# same_around NAME WHAT CMD: CMD's output before the bisect (its first) and
# after it (its second) are the same (a value GDB prints with its own
# number in its value history, $N, compared without it)
same_around() {
    batch_every "$1" "$3" | sed 's/ \$[0-9]* = / = /' > "$tmp/$1.every"
    n1=$(grep -c . "$tmp/$1.every")
    half=$((n1 / 2))
    if [ "$n1" -gt 0 ] && [ $((half * 2)) = "$n1" ] &&
        [ "$(head -n $half "$tmp/$1.every")" = "$(tail -n $half "$tmp/$1.every")" ]; then
        ok "$2"
    else
        fail "$2"; sed 's/^/#   /' "$tmp/$1.every"
    fi
}
# ahead of --from: rank 0 before event 100 with a checkpoint of the user's
batch failfwd -- "goto 100" checkpoint status "print drdb_event" checkpoints \
    "bisect @0 peak > 1e12 --from 1000 --to 4000" \
    status "print drdb_event" checkpoints
has "a failed bisect: said" "$tmp/failfwd.err" \
    "drdb: bisect: 'peak > 1e12' is still false before event 4000, the last it tries: nothing to find (a later --to?)"
same_around failfwd "a failed bisect: the rank where it stood (status)" status
same_around failfwd "a failed bisect: the rank at the same event" \
    "print drdb_event"
same_around failfwd "a failed bisect: the user's checkpoint kept, none of its own" \
    checkpoints
# behind --from: rank 0 before event 2000, the search from event 0 re-runs
# it from the start of its log
batch failback -- "goto 2000" status "print drdb_event" checkpoints \
    "bisect @0 peak > 1e12" status "print drdb_event" checkpoints
same_around failback "a failed bisect that re-ran the rank: back where it stood" \
    status
same_around failback "a failed bisect that re-ran the rank: the same event" \
    "print drdb_event"
same_around failback "a failed bisect that re-ran the rank: no checkpoint of its own" \
    checkpoints
# a condition GDB rejects, once the first probe ran the rank ahead
batch failcond -- "goto 100" status checkpoints \
    "bisect @0 nosuch > 1 --from 1000" status checkpoints
same_around failcond "a condition GDB rejects: the rank where it stood" status
same_around failcond "a condition GDB rejects: no checkpoint of its own" \
    checkpoints

# Ctrl-C: the replay made slow (work between the calls), SIGINT once the
# search has said how far it is.
printf '%s\n' "replay @0" "goto 5" "status" "bisect @0 peak > 1e6" "status" \
    "print peak > 0" > "$tmp/int.drdb"
timeout 200 "$drdb" batch -k --ranks 0 --timeout 150 "$tmp/run" \
    "$tmp/int.drdb" -- "$prog" 3000 1717 1000000 > "$tmp/int" \
    2> "$tmp/int.err" &
pid=$!
for _ in $(seq 1500); do
    grep -q '^drdb: bisect: [0-9]* probes' "$tmp/int.err" && break
    sleep 0.1
done
kill -INT $pid
wait $pid
srcpaths "$tmp/int" "$tmp/int.err"
hasre "Ctrl-C stops a bisect between probes" "$tmp/int.err" \
    "^drdb: bisect interrupted after [0-9]* probes (.* s): the first event is after [0-9]*, at most [0-9]*; rank 0 is back where it was:\$"
# back before event 5, where it stood; then the next command runs
has_after int "bisect @0 peak > 1e6" "after Ctrl-C: the rank back where it stood" \
    "^\[0\] main \(\) at $file:$recv, before event 5 \(MPI_Recv\)\$"
same_around int "after Ctrl-C: status as before the bisect" status
hasre "after Ctrl-C: the session goes on" "$tmp/int" "^\[0\] \$1 = 1\$"

echo "1..$n"
exit $status
