#!/bin/sh
# A console session kept on its host (`drdb console --keep`, `drdb attach
# HOST ID`; docs/remote.md, "Keeping a session"), against the test's own
# sshd (tests/lib-sshd.sh; no mocks): a run of examples/jacobi (2 ranks, a
# 16x16 grid, 3 iterations) on the "node" 127.0.0.2/127.0.0.3.
#
# Covered: --keep says the session's id; the console's ssh killed with
# its ranks stopped at a breakpoint, `drdb attach` takes the kept GDBs
# over: status shows them stopped at the same line, the breakpoints are in
# `info breakpoints` with their drdb numbers, sets and condition, the
# display and the named set are back, `next` goes to the next line,
# `print` answers; the attach's end ends the session (nothing left on the
# node). A checkpoint taken before the drop is listed after the attach
# (it lives in the kept process) and rolled back to; so are the files of
# the ranks' shadows, which ran on the node before the drop, and status
# shows the shadows (the old console, its connection gone, says they were
# left there with the session, as last seen). The session ran
# `-- PROGRAM` (the same build at another path) with `set width 97`: a
# rank replayed again after the attach runs that program, with that
# width. Then a session of two hosts (--hosts, a rank on each), both
# connections killed: `drdb attach` on one host takes both hosts' ranks
# back (the other's session from the note). Then a kept session nobody
# attaches to: it outlives its connection, and nothing of it is left
# after its time limit.
#
# Expected answers by hand: the breakpoint is on jacobi.c's
# "double local = 0.0;", the loop's `for` on the next line; both ranks
# stand before event 8 (their MPI_Allreduce, after Init, Comm_rank,
# Comm_size and 4 nonblocking calls and a Waitall) of 23.
#
# usage: test-console-keep.sh DRDB MPIEXEC JACOBI JACOBI_SOURCE
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3") src=$4
. "$(dirname "$0")/../lib.sh"
n=0 status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/drdb-ckeep-XXXXXX")
sshd_pid= console=
cleanup() {
    [ -n "$console" ] && kill "$console" 2> /dev/null
    [ -n "$sshd_pid" ] && kill "$sshd_pid" 2> /dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap "" PIPE # a console that ended early fails its checks, not the test
skip_all() { echo "1..0 # SKIP $1"; exit 77; }
. "$(dirname "$0")/../lib-sshd.sh"
sshd_start || skip_all "$sshd_why"

# The drdb on the node, marked: what of this test runs there (lib-node.sh).
. "$(dirname "$0")/lib-node.sh"
node_drdb drdb-ckeep
# gone_from_node SECONDS: until nothing of the test runs on the node.
gone_from_node() {
    for _ in $(seq $(($1 * 10))); do
        left=$(on_node)
        [ -z "$left" ] && return 0
        sleep 0.1
    done
    return 1
}
set -- --ssh-option "Port=$port" --ssh-option "IdentityFile=$tmp/userkey" \
    --ssh-option IdentitiesOnly=yes \
    --ssh-option "UserKnownHostsFile=$tmp/known_hosts" \
    --remote-drdb "$tmp/drdb-node"

node_jacobi || { fail "recording jacobi"; echo "1..$n"; exit 1; }
run="$tmp/node/run"
line=$(grep -n 'double local = 0.0;' "$src" | cut -d: -f1)
cd "$tmp/here" || exit 1

# live_console HOST[,HOST] KEEP OUT: a console with --keep=KEEP on HOST
# (two hosts: --hosts, a rank on each), reading the fifo $tmp/in (fd 3),
# its output in $tmp/OUT; a breakpoint, another with a condition, a
# display, a named set, continue to the first, status, a checkpoint, the
# ranks' shadows run to their end; then its ssh connections killed and
# the console told to quit.
live_console() {
    h=$1 k=$2 o=$3
    shift 3
    rm -f "$tmp/in"
    mkfifo "$tmp/in"
    case $h in
    *,*) set -- "$@" --hosts "$h" "$run" ;;
    *) set -- "$@" "$h:$run" ;;
    esac
    "$drdb" console --keep="$k" --ranks 0-1 --timeout 60 "$@" \
        ${prog:+-- "$prog" 16 3} < "$tmp/in" > "$tmp/$o" 2> "$tmp/$o.err" &
    console=$!
    exec 3> "$tmp/in"
    printf 'break jacobi.c:%s\nbreak jacobi.c:%s if rank == 1\n' "$line" \
        "$((line + 2))" >&3
    printf 'display /x size\ndefset odd 1\nset width 97\ncontinue\n' >&3
    printf 'status\n' >&3
    for _ in $(seq 300); do
        [ "$(grep -c "^[01] .*stopped" "$tmp/$o")" -ge 2 ] && break
        kill -0 "$console" 2> /dev/null || break
        sleep 0.1
    done
    printf 'checkpoint\nshadow\nshadow wait\nstatus\n' >&3
    for _ in $(seq 300); do
        [ "$(grep -c "^ *shadow: finished" "$tmp/$o")" -ge 2 ] && break
        kill -0 "$console" 2> /dev/null || break
        sleep 0.1
    done
    for sshp in $(pgrep -P "$console" -x ssh); do
        kill -KILL "$sshp"
    done
    sleep 1
    printf 'status\nquit\n' >&3
    exec 3>&-
    wait "$console"
    console=
}

# ---- kept, the connection killed, attached ---------------------------------
# (with -- PROGRAM: the same build at another path, which a rank started
# after the attach must run too; and set width, which its GDB must get)
prog=$tmp/node/jacobi-again
cp "$jacobi" "$prog"
live_console 127.0.0.2 60 live "$@"
prog=
id=$(sed -n 's/^  kept on 127\.0\.0\.2 as session \([^:]*\): drdb attach 127\.0\.0\.2 \1$/\1/p' "$tmp/live")
[ -n "$id" ] && ok "--keep says the session's id and how to attach" ||
    fail "no 'kept on 127.0.0.2 as session ID: drdb attach 127.0.0.2 ID' line"
# the old console, its connection gone, on the kept shadows: left there,
# as last seen (not "ended by signal 9, 0 checkpoints, ... event -1")
has "the old console: the shadows left on the node with the kept session" \
    "$tmp/live" \
    "      shadow: left on 127.0.0.2 with the kept session $id (drdb attach 127.0.0.2 $id), 22 checkpoints, latest before event 22 of 23 when last seen"
[ "$(grep -c "^ *shadow: left on 127.0.0.2 with the kept session" "$tmp/live")" = 2 ] &&
    ! grep -q "shadow: ended by signal" "$tmp/live" &&
    ok "the old console: both ranks' shadows, none 'ended by signal'" ||
    { fail "the old console's shadows"; grep "shadow:" "$tmp/live" | sed 's/^/#   /'; }
# (each "nothing left" check below counts only after something was kept)
kept=
case "$(on_node)" in
*gdb*gdb*) ok "the killed connection: the ranks' GDBs go on on the node"
    kept=1 ;;
*) fail "on the node after the connection dropped: $(on_node)" ;;
esac
cat > "$tmp/a.drdb" <<EOF
status
info breakpoints
info display
info sets
next
print rank
print size
status
checkpoints
rollback 1
rollback s5
kill @1
replay @1
@1 gdb info inferiors
@1 gdb show width
EOF
timeout 120 "$drdb" attach --batch -x "$tmp/a.drdb" --timeout 60 "$@" \
    127.0.0.2 "$id" > "$tmp/a" 2> "$tmp/a.err"
echo $? > "$tmp/a.rc"
srcpaths "$tmp/a"
batch_after a status > "$tmp/a.st0"
hasre "attach: status shows both ranks stopped at the breakpoint's line" \
    "$tmp/a.st0" \
    "^0 \+stopped \+after 7/23 \+127\.0\.0\.2 \+main () at .*jacobi\.c:$line" \
    "^1 \+stopped \+after 7/23 \+127\.0\.0\.2 \+main () at .*jacobi\.c:$line"
said a "info breakpoints" 0,1 > "$tmp/a.ib"
hasre "attach: the session's breakpoints (GDB's table), their drdb numbers, condition" \
    "$tmp/a.ib" "^1 \+breakpoint \+keep \+y \+0x[0-9a-f]* \+in main at .*jacobi\.c:$line$" \
    "^2 \+breakpoint \+keep \+y \+0x[0-9a-f]* \+in main at .*jacobi\.c:$((line + 2))$" \
    "^$(printf '\t')stop only if rank == 1$"
batch_after a "info display" > "$tmp/a.id"
hasre "attach: the session's display" "$tmp/a.id" "^1: \+y \+/x size$"
batch_after a "info sets" > "$tmp/a.is"
has "attach: the session's named set" "$tmp/a.is" "odd = 1"
hasre "attach: next goes on from there to the loop's line" "$tmp/a" \
    "^\[0,1\] $((line + 1))$(printf '\t') *for (int i = 1; " \
    "^0 \+stopped .*main () at SRC/examples/jacobi\.c:$((line + 1)), step$" \
    "^1 \+stopped .*main () at SRC/examples/jacobi\.c:$((line + 1)), step$"
has "attach: print on the adopted GDBs" "$tmp/a" \
    "[0] \$1 = 0" "[1] \$1 = 1" "[0,1] \$2 = 2"
batch_after a checkpoints > "$tmp/a.ck"
hasre "attach: the ranks' checkpoints, in their kept processes" \
    "$tmp/a.ck" "^  1 \+8 .* taken here (checkpoint), full$"
[ "$(grep -c "^  1 \+8 " "$tmp/a.ck")" = 2 ] ||
    fail "attach: not both ranks' checkpoint 1: $(cat "$tmp/a.ck")"
# the shadows ran to the end: a file before each event from 1 to 22
hasre "attach: the ranks' shadows' files, kept on the node" "$tmp/a.ck" \
    "^  s1 \+1 .*shadow file, full$" "^  s22 \+22 .*shadow file$"
has "attach: status shows the kept shadows" "$tmp/a.st0" \
    "      shadow: finished (status 0), 22 checkpoints, latest before event 22 of 23"
has "attach: rollback to a checkpoint taken before the drop" "$tmp/a" \
    "[0,1] main () at SRC/examples/jacobi.c:$line, rolled back to checkpoint 1 (after event 7)"
hasre "attach: rollback to a kept shadow's file" "$tmp/a" \
    "^\[0,1\] .*rolled back to checkpoint s5 (before event 5)$"
has "attach: says the program is the session's -- PROGRAM" "$tmp/a" \
    "  program: $tmp/node/jacobi-again (the kept session's, not the recorded one)"
batch_after a "@1 gdb info inferiors" > "$tmp/a.inf"
hasre "attach: rank 1 replayed again runs the session's -- PROGRAM" \
    "$tmp/a.inf" "jacobi-again"
batch_after a "@1 gdb show width" > "$tmp/a.w"
has "attach: rank 1's new GDB has the session's set width" "$tmp/a.w" \
    "[1] Number of characters gdb thinks are in a line is 97."
[ "$(cat "$tmp/a.rc")" = 0 ] && ok "the attached batch succeeds" ||
    fail "attach exit $(cat "$tmp/a.rc"): $(cat "$tmp/a.err")"
[ -n "$kept" ] && gone_from_node 10 &&
    ok "the attach's end ends the session on the node" ||
    fail "the attach's end: kept '$kept', left on the node: $(on_node)"

# ---- two hosts kept, both connections killed, attached from one ------------
live_console 127.0.0.2,127.0.0.3 60 live3 "$@"
id2=$(sed -n 's/^  kept on 127\.0\.0\.2 as session \([^:]*\): .*/\1/p' "$tmp/live3")
id3=$(sed -n 's/^  kept on 127\.0\.0\.3 as session \([^:]*\): .*/\1/p' "$tmp/live3")
[ -n "$id2" ] && [ -n "$id3" ] && ok "two hosts: each says its kept session" ||
    fail "two hosts: no 'kept on' line for each host: $(grep kept "$tmp/live3")"
printf 'status\nprint rank\nnext\n' > "$tmp/b.drdb"
timeout 120 "$drdb" attach --batch -x "$tmp/b.drdb" --timeout 60 "$@" \
    127.0.0.2 "$id2" > "$tmp/b" 2> "$tmp/b.err"
echo $? > "$tmp/b.rc"
batch_after b status > "$tmp/b.st"
hasre "two hosts: attach on one takes both hosts' ranks back, as they were" \
    "$tmp/b.st" \
    "^0 \+stopped \+after 7/23 \+127\.0\.0\.2 \+main () at .*jacobi\.c:$line" \
    "^1 \+stopped \+after 7/23 \+127\.0\.0\.3 \+main () at .*jacobi\.c:$line"
has "two hosts: print on both adopted GDBs" "$tmp/b" "[0] \$1 = 0" \
    "[1] \$1 = 1"
[ "$(cat "$tmp/b.rc")" = 0 ] && ok "two hosts: the attached batch succeeds" ||
    fail "two hosts: attach exit $(cat "$tmp/b.rc"): $(cat "$tmp/b.err")"
gone_from_node 10 && ok "two hosts: the attach's end ends both sessions" ||
    fail "two hosts: left on the node after the attach: $(on_node)"

# ---- kept, nobody attaches: its time limit ----------------------------------
live_console 127.0.0.3 3 live2 "$@"
kept=
case "$(on_node)" in
*gdb*gdb*) ok "kept 3 s: its GDBs outlive the connection"; kept=1 ;;
*) fail "kept 3 s: on the node after the connection dropped: $(on_node)" ;;
esac
sleep 3
[ -n "$kept" ] && gone_from_node 10 &&
    ok "after the time limit, nothing of it is left on the node" ||
    fail "after the time limit: kept '$kept', left on the node: $(on_node)"

echo "1..$n"
exit $status
