#!/bin/sh
# The console with its ranks replayed on another host (docs/remote.md),
# against the test's own sshd (tests/lib-sshd.sh; no mocks): a run of
# examples/jacobi (2 ranks, a 16x16 grid, 3 iterations) at a path only the
# "node" 127.0.0.2/127.0.0.3 uses, debugged from another directory as
# HOST:RUNDIR.
#
# Covered: the ranks reach main there, status names their host; a
# breakpoint, continue and print merged over the ranks; events and match;
# goto and goto-send; a checkpoint and a rollback; the program's output
# per rank (shadows: test-remote-shadow.sh). Ranks not started yet
# (--start lazy) there. Then a session of the run in
# two parts, rank 0 here and rank 1 on the node, whose ssh connection is
# killed: rank 1 is lost with the host named, rank 0 goes on, nothing of
# the session is left running on the node, and `replay` reconnects and
# starts rank 1 again with the session's breakpoint.
#
# Expected answers are jacobi's, by hand: each rank posts Irecv up, Irecv
# down, Isend up, Isend down (16 doubles, 128 bytes each) and a Waitall
# after Init, Comm_rank and Comm_size (events 0-2), then an Allreduce
# (event 8).
#
# usage: test-remote-console.sh DRDB MPIEXEC JACOBI JACOBI_SOURCE
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3") src=$4
. "$(dirname "$0")/../lib.sh"
n=0 status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/drdb-rcon-XXXXXX")
sshd_pid= console=
cleanup() {
    [ -n "$console" ] && kill "$console" 2> /dev/null
    [ -n "$sshd_pid" ] && kill "$sshd_pid" 2> /dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# A console that ended early: writing its commands fails, never kills us.
trap '' PIPE
skip_all() { echo "1..0 # SKIP $1"; exit 77; }
. "$(dirname "$0")/../lib-sshd.sh"
sshd_start || skip_all "$sshd_why"

# The drdb on the node, marked: what of this test runs there (lib-node.sh).
. "$(dirname "$0")/lib-node.sh"
node_drdb drdb-rcon
set -- --ssh-option "Port=$port" --ssh-option "IdentityFile=$tmp/userkey" \
    --ssh-option IdentitiesOnly=yes \
    --ssh-option "UserKnownHostsFile=$tmp/known_hosts" \
    --remote-drdb "$tmp/drdb-node"

node_jacobi || { fail "recording jacobi"; echo "1..$n"; exit 1; }
run="$tmp/node/run"
final=$(grep '^final sum' "$tmp/node/out.0")
line=$(grep -n 'double local = 0.0;' "$src" | cut -d: -f1)

# ---- a batch session on 127.0.0.2 ---------------------------------------------
cd "$tmp/here" || exit 1
cat > "$tmp/b.drdb" <<EOF
status
break jacobi.c:$line
continue
print size
print rank
status
events
match 0:4
goto 6
goto-send 1:7
checkpoint
next-event
rollback 1
status
delete
continue
continue
EOF
timeout 120 "$drdb" batch -k --ranks 0-1 --timeout 60 "$@" \
    "127.0.0.2:$run" "$tmp/b.drdb" > "$tmp/b" 2> "$tmp/b.err"
echo $? > "$tmp/b.rc"
srcpaths "$tmp/b"
batch_after b status > "$tmp/b.st0"
hasre "the ranks reach main on the host; status names it" "$tmp/b.st0" \
    '^0 \+stopped \+before 0/23 \+127\.0\.0\.2 \+main () at ' \
    '^1 \+stopped \+before 0/23 \+127\.0\.0\.2 \+main () at '
has "a breakpoint, continue, print: merged over the remote ranks" "$tmp/b" \
    "[0,1] \$1 = 2" "[0] \$2 = 0" "[1] \$2 = 1"
# stop NAME TAG: whether [TAG]'s answers in $tmp/NAME have GDB's report of
# breakpoint 1 stopping main at the loop's first line
stop() { blocks "$tmp/$1" "$2" |
    grep -q "^Breakpoint 1, main (.*) at SRC/examples/jacobi.c:$line\$"; }
stop b 0,1 && ok "  ... the stop at the breakpoint, in GDB's words" ||
    fail "  ... no stop of [0,1] at the breakpoint"
hasre "events: the index from the node, where each rank stands" "$tmp/b" \
    '^ *0 \+8 \+MPI_Allreduce .*<= here$' '^ *1 \+8 \+MPI_Allreduce .*<= here$' \
    '^ *1 \+5 \+MPI_Isend \+0 \+0 #0 \+16 '
has "match: rank 0's receive from rank 1 and its send" "$tmp/b" \
    "rank 0 event 4 MPI_Irecv from 1 tag 0 <- rank 1 event 5 MPI_Isend (128 bytes), completed by event 7 MPI_Waitall"
hasre "goto: both ranks before their event 6 there" "$tmp/b" \
    '^\[0,1\] main () at SRC/examples/jacobi\.c:[0-9]*, before event 6 (MPI_Isend)$'
batch_after b "goto-send 1:7" > "$tmp/b.gs"
hasre "goto-send 1:7: rank 0, its sender on the same host, before its send" \
    "$tmp/b.gs" '^\[0\] main () at SRC/examples/jacobi\.c:[0-9]*, before event 6 (MPI_Isend)$'
hasre "a checkpoint and a rollback to it through the stub there" "$tmp/b" \
    '^\[0,1\] checkpoint 1 (before event 6)$' \
    '^\[0,1\] main () at SRC/examples/jacobi\.c:[0-9]*, before event 7 (MPI_Waitall)$' \
    '^\[0,1\] main () at SRC/examples/jacobi\.c:[0-9]*, rolled back to checkpoint 1 (before event 6)$' \
    '^[01] \+stopped \+before 6/23 \+127\.0\.0\.2 '
[ "$(grep -c '^\[0\] iteration [0-2] residual' "$tmp/b")" = 3 ] &&
    ok "program output of rank 0 relayed from the node, with its rank" ||
    fail "rank 0's 3 residual lines (output from the node)"
has "the program's last line and its end, as the recorded run's" "$tmp/b" \
    "[0] $final" "[0,1] [Inferior 1 (process *) exited normally]"
[ "$(cat "$tmp/b.rc")" = 0 ] && ok "the batch succeeded" ||
    fail "batch: exit $(cat "$tmp/b.rc"), failures: $(grep failed "$tmp/b.err")"
gone
# (the session ran there: its status named the host)
grep -q '127\.0\.0\.2' "$tmp/b.st0" && [ -z "$left" ] &&
    ok "after the session, nothing of it runs on the node" ||
    fail "after the session that ran there, left running on the node: $left"

# ---- ranks not started yet (--start lazy) on the host: the logs there
# answer; a command that needs a GDB starts it there
printf '%s\n' status "break jacobi.c:$line" "@1 continue" status > "$tmp/l.drdb"
timeout 120 "$drdb" batch --start lazy --ranks 0-1 --timeout 60 "$@" \
    "127.0.0.2:$run" "$tmp/l.drdb" > "$tmp/l" 2> "$tmp/l.err"
srcpaths "$tmp/l"
hasre "--start lazy: the host's ranks in the session, not started" "$tmp/l" \
    '^0 \+not started \+before 0/23 \+127\.0\.0\.2 ' \
    '^1 \+not started \+before 0/23 \+127\.0\.0\.2 '
has "a breakpoint on them: rank 0's GDB started there, rank 1 promised it" \
    "$tmp/l" "[1] set when its GDB starts"
stop l 1 && ok "  ... and rank 1 stops at it" || fail "  ... rank 1 did not stop at it"
hasre "status: both started there, only as commands needed" "$tmp/l" \
    '^0 \+stopped \+before 0/23 \+127\.0\.0\.2 \+main () at ' \
    '^1 \+stopped \+after [0-9]*/23 \+127\.0\.0\.2 \+main () at .*breakpoint$'
gone
[ -z "$left" ] && ok "after the lazy session, nothing of it runs on the node" ||
    fail "after the lazy session, left running on the node: $left"

# ---- the connection killed mid-session, in a session with a local rank ---
# The run in two parts (as nodes write them): rank 0's log here, rank 1's
# on 127.0.0.3; each part with the run's description.
mkdir "$tmp/p0" "$tmp/p1"
for f in "$run"/*; do
    case "${f##*/}" in
    rank-0.*) cp "$f" "$tmp/p0/" ;;
    rank-1.*) cp "$f" "$tmp/p1/" ;;
    replay-out) ;;
    *) cp "$f" "$tmp/p0/" && cp "$f" "$tmp/p1/" ;;
    esac
done
mkfifo "$tmp/in"
"$drdb" console --ranks 0-1 --timeout 60 "$@" --also "127.0.0.3:$tmp/p1" \
    "$tmp/p0" < "$tmp/in" > "$tmp/live" 2> "$tmp/live.err" &
console=$!
exec 3> "$tmp/in"
printf 'break jacobi.c:%s\nstatus\n' "$line" >&3
live_wait 2 '^[01] \+stopped ' || fail "the live session did not start"
hasre "a session with a local rank and a remote one: status names each's host" \
    "$tmp/live" '^0 \+stopped \+before 0/23 \+local \+main () at ' \
    '^1 \+stopped \+before 0/23 \+127\.0\.0\.3 \+main () at '
alive=$(on_node)
case "$alive" in
*drdb*gdb*|*gdb*drdb*) ;;
*) alive= ;;
esac
case "$(on_node)" in
*jacobi*) ;;
*) alive= ;;
esac
[ -n "$alive" ] && ok "mid-session: the agent, rank 1's GDB and program run on the node" ||
    fail "mid-session on the node: $(on_node)"
sshp=$(pgrep -P "$console" -x ssh)
[ -n "$sshp" ] && kill -KILL "$sshp"
sleep 1
printf 'status\n@0 continue\n' >&3
live_wait 4 '^[01] ' || true
hasre "the killed connection: the host's rank lost, the host named; the local one goes on" \
    "$tmp/live" '^1 \+lost .*127\.0\.0\.3 \+connection to 127\.0\.0\.3 lost$' \
    '^0 \+stopped \+before 0/23 \+local \+main () at '
hasre "  ... said once, for that rank" "$tmp/live.err" \
    '^drdb: rank 1 is lost: connection to 127\.0\.0\.3 lost; the other ranks go on$'
grep -q 'rank 1 is lost' "$tmp/live.err" &&
    ! grep -q 'rank 0 is lost' "$tmp/live.err" &&
    ok "  ... the local rank was not lost" ||
    fail "  ... rank 1 alone lost: $(grep 'is lost' "$tmp/live.err")"
gone
[ -n "$alive" ] && [ -z "$left" ] &&
    ok "nothing left running on the node after the connection dropped" ||
    fail "left running on the node: $left"
printf 'replay @1\n@1 continue\nstatus\nquit\n' >&3
exec 3>&-
wait "$console"
echo $? > "$tmp/live.rc"
console=
srcpaths "$tmp/live"
stop live 0 && ok "the local rank runs on after the loss (its breakpoint)" ||
    fail "the local rank did not stop at its breakpoint after the loss"
stop live 1 &&
    ok "replay reconnects and starts rank 1 again, with the session's breakpoint" ||
    fail "rank 1 started again did not stop at the session's breakpoint"
hasre "  ... and it stands on the host again" "$tmp/live" \
    '^0 \+stopped \+after 7/23 \+local ' '^1 \+stopped \+after 7/23 \+127\.0\.0\.3 '
gone
stop live 1 && [ -z "$left" ] && ok "after quit, nothing of the session runs on the node" ||
    fail "left running on the node after quit: $left"

echo "1..$n"
exit $status
