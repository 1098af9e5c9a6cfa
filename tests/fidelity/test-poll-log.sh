#!/bin/sh
# Polling loops are logged compactly (issue 16, class 11): each program is
# recorded, and rank 0's line of `drdb log info` must count every MPI call
# the program made (the calls column: a collapsed polling cycle still
# stands for each of its calls) while its log stays small: a bound the
# recorder that logged each poll alternating with another (about 30 bytes
# a call) cannot meet. `drdb log` shows a cycle's calls, and the console's
# event numbers and `goto` still count every call: before the event after
# a cycle, the program has made every poll of it. The replays themselves
# are test-fidelity.sh's. THR_POLL: the same under MPI_THREAD_MULTIPLE,
# one thread polling while another communicates.
#
# usage: test-poll-log.sh DRDB MPIEXEC POLL_ALT POLL_IPROBE POLL_WTIME THR_POLL
set -u
drdb=$1 mpiexec=$2 alt=$3 iprobe=$4 wtime=$5 thrpoll=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

# record NAME PROG: $tmp/NAME.out (the program's), NAME.info (log info's).
record() {
    "$drdb" record -o "$tmp/$1.run" -- "$mpiexec" -n 4 "$2" \
        > "$tmp/$1.out" 2> "$tmp/$1.err" &&
        "$drdb" log info "$tmp/$1.run" > "$tmp/$1.info" 2>&1
}
# col NAME FIELD: rank 0's FIELD-th column in log info.
col() { awk -v f="$2" '$1 == "0" && $NF == "complete" { print $f }' "$tmp/$1.info"; }

# check NAME CALLS MAXBYTES: rank 0 logged exactly CALLS calls in at most
# MAXBYTES bytes.
check() {
    calls=$(col "$1" 7) bytes=$(col "$1" 3)
    if [ "$calls" != "$2" ]; then
        fail "$1: rank 0's log counts ${calls:-no} calls, the program made $2"
        sed 's/^/#   /' "$tmp/$1.info" | tail -8
    else
        ok "$1: rank 0's log counts the $2 calls the program made"
    fi
    if [ -n "$bytes" ] && [ "$bytes" -le "$3" ]; then
        ok "$1: $bytes log bytes for $2 calls (at most $3)"
    else
        fail "$1: ${bytes:-no} log bytes for $2 calls (more than $3)"
    fi
}

# Testany, Test, Testany, Test, ...: 2 calls a poll, and 8 others (Init,
# Comm_rank, Comm_size, two Irecv, a Send, Barrier, Finalize). Bound: 4 KiB and a
# byte for every 20 polls.
if record alt "$alt"; then
    polls=$(sed -n 's/.* polls=\([0-9]*\)$/\1/p' "$tmp/alt.out")
    check alt $((2 * polls + 8)) $((4096 + polls / 20))
else
    fail "alt: recording failed"; sed 's/^/#   /' "$tmp/alt.err" | tail -5
fi

# The dump: Init, Comm_rank, Comm_size, two Irecv (0-4), the cycle of
# polls until a arrives (5), its Testany (6), the Send that lets b go (7),
# the cycle until b arrives (8), its Test (9), Barrier, Finalize.
"$drdb" log dump "$tmp/alt.run" --rank 0 > "$tmp/dump" 2>&1
hasre "log dump: a polling cycle is one event, its calls named" "$tmp/dump" \
    '^       5  MPI_Testany .*  x[0-9]* (cycle: MPI_Testany MPI_Test)$' \
    '^       6  MPI_Testany  *1  *5 ' \
    '^       8  MPI_Test .*  x[0-9]* (cycle: MPI_Test MPI_Testany)$' \
    '^       9  MPI_Test  *2  *6 '
"$drdb" log event "$tmp/alt.run" 0:5 > "$tmp/event" 2>&1
hasre "log event: the runs and each call of the cycle" "$tmp/event" \
    '^  repeat    [0-9]* runs of a polling cycle of 2 calls ([0-9]* calls)$' \
    '^  call 1 of the cycle: MPI_Testany$' '^  call 2 of the cycle: MPI_Test$'
# The console: before event 6 every poll of the cycle was made, as many as
# the program counted when a arrived; the same for b at event 9.
pa=$(sed -n 's/^a arrived after \([0-9]*\) polls.*/\1/p' "$tmp/alt.out")
pb=$(sed -n 's/^b arrived after \([0-9]*\) polls.*/\1/p' "$tmp/alt.out")
printf '%s\n' "goto 6" "print polls" status "goto 9" "print polls" \
    > "$tmp/goto.drdb"
timeout 200 "$drdb" batch --ranks 0 --timeout 60 "$tmp/alt.run" \
    "$tmp/goto.drdb" > "$tmp/goto" 2>&1
has "goto after a cycle: the rank made each of its polls" "$tmp/goto" \
    "[0] \$1 = $pa" "[0] \$2 = $pb"
hasre "status: the event number counts the cycle as one event" "$tmp/goto" \
    '^0  *stopped  *before 6/12  '

# Iprobe on two tags: at least a call a poll; the same bound.
if record iprobe "$iprobe"; then
    polls=$(sed -n 's/^polls=\([0-9]*\)$/\1/p' "$tmp/iprobe.out")
    calls=$(col iprobe 7) bytes=$(col iprobe 3)
    if [ -n "$calls" ] && [ "$calls" -gt "$polls" ] && [ "$bytes" -le $((4096 + polls / 20)) ]; then
        ok "iprobe: $calls calls for $polls polls in $bytes log bytes"
    else
        fail "iprobe: ${calls:-no} calls for $polls polls in ${bytes:-no} log bytes"
        sed 's/^/#   /' "$tmp/iprobe.info" | tail -8
    fi
else
    fail "iprobe: recording failed"; sed 's/^/#   /' "$tmp/iprobe.err" | tail -5
fi

# Polls and MPI_Wtime: Test + Wtime a poll (P1), Iprobe + 2 Wtime (P2),
# Wtime alone (P3, and the read that ends the wait), and 10 others (Init,
# Comm_rank, Comm_size, two Wtime, Irecv, Recv, Wtick, Barrier, Finalize). Every
# Wtime value is logged, so the bound is per call: 8 bytes (a record of
# its own takes about 25).
if record wtime "$wtime"; then
    set -- $(sed -n 's/.*polls=\([0-9]*\).*/\1/p' "$tmp/wtime.out")
    calls=$((2 * $1 + 3 * $2 + $3 + 1 + 10))
    check wtime $calls $((4096 + 8 * calls))
else
    fail "wtime: recording failed"; sed 's/^/#   /' "$tmp/wtime.err" | tail -5
fi

# MPI_THREAD_MULTIPLE: thread 1 polls (MPI_Test, MPI_Iprobe) while thread
# 0 computes and communicates; each of thread 0's records breaks thread
# 1's cycle (the order across threads is kept), so a few records a round.
# The program counts its calls; the bound is the others' (a recorder that
# logs each poll under MULTIPLE writes about 30 bytes a call).
if record thrpoll "$thrpoll"; then
    calls=$(sed -n 's/^rank 0 calls=\([0-9]*\)$/\1/p' "$tmp/thrpoll.out")
    check thrpoll "$calls" $((4096 + calls / 20))
else
    fail "thrpoll: recording failed"; sed 's/^/#   /' "$tmp/thrpoll.err" | tail -5
fi

echo "1..$n"
exit $status
