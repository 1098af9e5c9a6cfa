#!/bin/sh
# A run split over two hosts' disks, debugged from a third directory
# (docs/remote.md, "A run on several hosts"), against the test's own sshd
# (tests/lib-sshd.sh; no mocks): examples/jacobi recorded with 2 ranks,
# rank 0's log (and a copy of drdb.run) in one directory that only
# 127.0.0.2 is asked for, rank 1's in another that only 127.0.0.3 is, no
# path shared between them, the console started in a third.
#
# Covered: each rank replays on the host that holds its log (status),
# events and match over both hosts' logs, goto-send from a receive on one
# host to its sender on the other, a checkpoint and rollback there, a
# breakpoint and a print merged over both hosts, rank 0's program output;
# a part whose host is unreachable leaves its ranks out with one line and
# the other host's rank replays.
#
# Expected answers are jacobi's, by hand: each rank posts Irecv up (3),
# Irecv down (4), Isend up (5), Isend down (6) and a Waitall (7) after
# Init, Comm_rank and Comm_size, then an Allreduce (8); with 2 ranks rank
# 1's receive from rank 0 (3, tag 1) takes rank 0's send (6).
#
# usage: test-remote-split.sh DRDB MPIEXEC JACOBI JACOBI_SOURCE
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3") src=$4
n=0 status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/drdb-rsplit-XXXXXX")
sshd_pid=
cleanup() {
    [ -n "$sshd_pid" ] && kill "$sshd_pid" 2> /dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
skip_all() { echo "1..0 # SKIP $1"; exit 77; }
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib-sshd.sh"
sshd_start || skip_all "$sshd_why"
set -- --ssh-option "Port=$port" --ssh-option "IdentityFile=$tmp/userkey" \
    --ssh-option IdentitiesOnly=yes \
    --ssh-option "UserKnownHostsFile=$tmp/known_hosts" --remote-drdb "$drdb"

mkdir -p "$tmp/rec" "$tmp/here"
if ! (cd "$tmp/rec" && timeout 120 "$drdb" record -o run -- "$mpiexec" \
        -n 2 -outfile-pattern "$tmp/rec/out.%r" "$jacobi" 16 3 \
        > rec.log 2>&1); then
    fail "recording jacobi"
    echo "1..$n"
    exit 1
fi
mkdir -m 700 "$tmp/nodeA" "$tmp/nodeB"
cp -p "$tmp/rec/run/drdb.run" "$tmp/nodeA/"
cp -p "$tmp/rec/run/drdb.run" "$tmp/nodeB/"
mv "$tmp/rec/run/rank-0.log" "$tmp/rec/run/rank-0.sys" "$tmp/nodeA/"
mv "$tmp/rec/run/rank-1.log" "$tmp/rec/run/rank-1.sys" "$tmp/nodeB/"
final=$(grep '^final sum' "$tmp/rec/out.0")
line=$(grep -n 'double local = 0.0;' "$src" | cut -d: -f1)

cd "$tmp/here" || exit 1
printf '%s\n' status events "match 1:3" "goto-send 1:3" status \
    "checkpoint @0" "next-event @0" "rollback @0 1" status \
    "break jacobi.c:$line" continue "print rank" "print size" delete \
    continue > "$tmp/s.drdb"
timeout 180 "$drdb" batch -k --ranks 0-1 --timeout 60 "$@" \
    --also "127.0.0.3:$tmp/nodeB" "127.0.0.2:$tmp/nodeA" "$tmp/s.drdb" \
    > "$tmp/s" 2> "$tmp/s.err"
echo $? > "$tmp/s.rc"
srcpaths "$tmp/s"
batch_after s status > "$tmp/s.st0"
hasre "each rank replays on the host that holds its log" "$tmp/s.st0" \
    '^0 \+stopped \+before 0/23 \+127\.0\.0\.2 \+main () at ' \
    '^1 \+stopped \+before 0/23 \+127\.0\.0\.3 \+main () at '
hasre "events: both hosts' logs in one index" "$tmp/s" \
    '^ *0 \+6 \+MPI_Isend \+1 ' '^ *1 \+5 \+MPI_Isend \+0 '
hasre "match 1:3: rank 1's receive on 127.0.0.3, rank 0's send on 127.0.0.2" "$tmp/s" \
    '^rank 1 event 3 MPI_Irecv from 0 tag 1 <- rank 0 event 6 MPI_Isend (128 bytes), completed by event 7 MPI_Waitall$'
batch_after s "goto-send 1:3" > "$tmp/s.gs"
hasre "goto-send 1:3: rank 0, on the other host, before its send" "$tmp/s.gs" \
    '^\[0\] main () at SRC/examples/jacobi\.c:[0-9]*, before event 6 (MPI_Isend)$'
hasre "a checkpoint and a rollback of rank 0 on 127.0.0.2" "$tmp/s" \
    '^\[0\] checkpoint 1 (before event 6)$' \
    '^\[0\] main () at SRC/examples/jacobi\.c:[0-9]*, rolled back to checkpoint 1 (before event 6)$'
has "a breakpoint and print merged over the two hosts" "$tmp/s" \
    "[0] \$1 = 0" "[1] \$1 = 1" "[0,1] \$2 = 2"
if said s continue 0,1 | grep -q "^Breakpoint 1, main (.*) at SRC/examples/jacobi.c:$line\$"; then
    ok "  ... the breakpoint's stop, in GDB's words (the same on both: each rank's stack where recorded)"
else
    fail "  ... no stop at the breakpoint on [0,1]"
    batch_after s continue | sed 's/^/#   /'
fi
if [ "$(grep -c '^\[0\] iteration [0-2] residual' "$tmp/s")" = 3 ] &&
        grep -qxF "[0] $final" "$tmp/s"; then
    ok "rank 0's program output from 127.0.0.2, as recorded"
else
    fail "rank 0's output (3 residual lines and '$final')"
fi
if [ "$(cat "$tmp/s.rc")" = 0 ]; then
    ok "the batch ran without a failure"
else
    fail "batch: exit $(cat "$tmp/s.rc")"
    sed 's/^/#   /' "$tmp/s.err" | tail -5
fi

# A part on a host that cannot be reached: one line, its rank left out;
# the other host's rank replays.
printf 'status\n' > "$tmp/d.drdb"
timeout 120 "$drdb" batch -k --ranks 0 --timeout 60 "$@" \
    --also "127.0.0.4:$tmp/nodeB" "127.0.0.2:$tmp/nodeA" "$tmp/d.drdb" \
    > "$tmp/d" 2> "$tmp/d.err"
if grep -q "^drdb: 127.0.0.4:$tmp/nodeB: cannot reach 127.0.0.4.*; its ranks are left out\$" "$tmp/d.err" &&
        grep -q '^0 \+stopped \+before 0/23 \+127\.0\.0\.2 ' "$tmp/d"; then
    ok "an unreachable part: one line naming it, the other host's rank replays"
else
    fail "an unreachable part"
    sed 's/^/#   /' "$tmp/d.err" | tail -3
fi

echo "1..$n"
exit $status
