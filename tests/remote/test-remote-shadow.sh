#!/bin/sh
# Shadows of remote ranks (docs/remote.md), against the test's own sshd
# (tests/lib-sshd.sh; no mocks): a run of examples/jacobi (2 ranks, a
# 16x16 grid, 3 iterations) at a path only the "node" 127.0.0.2 uses,
# its rank 0 debugged from another directory as HOST:RUNDIR.
#
# Covered: `shadow` starts the shadow on the node, by its agent, in a
# private directory there; `shadow wait` and `status` see it finish;
# `checkpoints` lists its files (read on the node); `rollback s2` restores
# one in the remote rank, which then stands where the program is before
# that event; after the session, nothing of the shadow is left on the
# node (its directory gone, no process). Then a session whose ssh
# connection is killed: the shadow's directory goes with the agent, the
# console says the shadow ended with it, and once `replay` connected
# again, drops it saying so once.
#
# Expected answers are jacobi's, by hand: events 0-2 are Init, Comm_rank,
# Comm_size; iteration IT (0-2) is events 3+6*IT to 8+6*IT: Irecv, Irecv,
# Isend, Isend, Waitall, Allreduce; then Reduce (21) and Finalize (22).
#
# usage: test-remote-shadow.sh DRDB MPIEXEC JACOBI JACOBI_SOURCE
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3") src=$4
. "$(dirname "$0")/../lib.sh"
n=0 status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/drdb-rshadow-XXXXXX")
sshd_pid= console=
cleanup() {
    [ -n "$console" ] && kill "$console" 2> /dev/null
    [ -n "$sshd_pid" ] && kill "$sshd_pid" 2> /dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
# (a console that ended early: a write to it fails, the test goes on)
trap '' PIPE
skip_all() { echo "1..0 # SKIP $1"; exit 77; }
. "$(dirname "$0")/../lib-sshd.sh"
sshd_start || skip_all "$sshd_why"

# The drdb on the node: this one, marked (lib-node.sh).
. "$(dirname "$0")/lib-node.sh"
node_drdb drdb-rshadow

mkdir -p "$tmp/node" "$tmp/here"
if ! (cd "$tmp/node" && timeout 120 "$drdb" record -o run -- "$mpiexec" \
        -n 2 "$jacobi" 16 3 > rec.log 2>&1); then
    fail "recording jacobi"
    echo "1..$n"
    exit 1
fi
run="$tmp/node/run"

cd "$tmp/here" || exit 1
cat > "$tmp/b.drdb" <<EOF
set checkpoint-every 4
shadow
shadow wait
status
checkpoints
rollback s2
print it
status
EOF
set -- --ssh-option "Port=$port" --ssh-option "IdentityFile=$tmp/userkey" \
    --ssh-option IdentitiesOnly=yes \
    --ssh-option "UserKnownHostsFile=$tmp/known_hosts" \
    --remote-drdb "$tmp/drdb-node"
timeout 120 "$drdb" batch -k --ranks 0 --timeout 60 "$@" \
    "127.0.0.2:$run" "$tmp/b.drdb" > "$tmp/b" 2> "$tmp/b.err"
rc=$?
[ "$rc" = 0 ] && ok "the batch session succeeded" ||
    { fail "batch: exit $rc"; show "$tmp/b" "$tmp/b.err"; }

# The shadow's directory, on the node: TMPDIR/drdb-shadow-PID-XXXXXX/rank-0.
dir=$(sed -n 's|^\[0\] shadow started: checkpoints to 127\.0\.0\.2:||p' "$tmp/b")
case "$dir" in
/*/drdb-shadow-*-*/rank-0) ok "the shadow started on the node, in a directory of its own" ;;
*) fail "the shadow's start: '$dir'"; show "$tmp/b" "$tmp/b.err" ;;
esac
hasre "status: the shadow finished, its checkpoints counted" "$tmp/b" \
    '^ *shadow: finished (status 0), [1-9][0-9]* checkpoints\?, latest before event [0-9]* of 23$'
# s2's event, from the listing.
ev=$(awk '$1 == "s2" && /shadow file/ { print $2 }' "$tmp/b")
nfiles=$(grep -c '^ *s[0-9]* .*shadow file' "$tmp/b")
[ -n "$ev" ] && [ "$ev" -gt 0 ] && [ "$ev" -lt 23 ] && [ "$nfiles" -ge 2 ] &&
    ok "checkpoints lists the shadow's files from the node ($nfiles; s2 before event $ev)" ||
    { fail "checkpoints: no shadow file s2 (event '$ev', $nfiles files)"; show "$tmp/b"; }
# Where the program is before event EV: the line of its MPI call (the
# loop's six, in order) and its iteration.
if [ -n "$ev" ] && [ "$ev" -ge 3 ] && [ "$ev" -le 20 ]; then
    it=$(( (ev - 3) / 6 ))
    line=$(grep -n 'MPI_Irecv(\|MPI_Isend(\|MPI_Waitall(\|MPI_Allreduce(' \
        "$src" | sed -n "$(( (ev - 3) % 6 + 1 ))p" | cut -d: -f1)
    srcpaths "$tmp/b"
    has "rollback s2: rank 0 restored on the node before event $ev (line $line)" \
        "$tmp/b" "[0] main () at SRC/examples/jacobi.c:$line, rolled back to checkpoint s2 (before event $ev)"
    hasre "  ... in iteration $it of the program" "$tmp/b" "^\\[0\\] \\\$[0-9]* = $it\$"
    hasre "  ... and status says so" "$tmp/b" \
        "^0 \\+stopped \\+before $ev/23 \\+127\\.0\\.0\\.2 "
else
    fail "rollback s2: event '$ev' is not inside the iterations"
fi

left=
for _ in $(seq 50); do
    left=$(on_node)
    [ -z "$left" ] && break
    sleep 0.1
done
[ -n "$dir" ] && [ -z "$left" ] &&
    ok "after the session, no process of it (nor its shadow) on the node" ||
    fail "no shadow ran, or left running on the node: $left"
root=${dir%/rank-0}
[ -n "$dir" ] && [ ! -e "$dir" ] && [ ! -e "$root" ] &&
    ok "after the session, the shadow's directory is gone from the node" ||
    fail "left on the node: $(ls -d "$root" 2>&1)"

# ---- the connection killed: the shadow's directory goes ----------------------
mkfifo "$tmp/in"
"$drdb" console --ranks 0 --timeout 60 "$@" "127.0.0.3:$run" \
    < "$tmp/in" > "$tmp/live" 2> "$tmp/live.err" &
console=$!
exec 3> "$tmp/in"
printf 'shadow\nshadow wait\nstatus\n' >&3
for _ in $(seq 300); do
    grep -q '^ *shadow: finished' "$tmp/live" && break
    kill -0 "$console" 2> /dev/null || break
    sleep 0.1
done
dir2=$(sed -n 's|^\[0\] shadow started: checkpoints to 127\.0\.0\.3:||p' "$tmp/live")
[ -n "$dir2" ] && [ -d "$dir2" ] && ok "a live session's shadow on 127.0.0.3: $dir2" ||
    { fail "the live session's shadow"; show "$tmp/live" "$tmp/live.err"; }
sshp=$(pgrep -P "$console" -x ssh)
[ -n "$sshp" ] && kill -KILL "$sshp"
for _ in $(seq 100); do
    [ -n "$dir2" ] && [ ! -e "${dir2%/rank-0}" ] && break
    sleep 0.1
done
[ -n "$dir2" ] && [ ! -e "${dir2%/rank-0}" ] &&
    ok "the connection killed: the shadow's directory is gone from the node (the agent's end, or the next drdb's sweep)" ||
    fail "the connection killed: left on the node: ${dir2%/rank-0}"
# What the console says of the shadow then: it ended with the agent (not
# "ended by signal 9, 0 checkpoints, latest before event -1"); `replay @0`
# connects again, to a new agent that has no such shadow: the old entry
# goes, said once (not "no such shadow on this agent" at each command).
printf 'status\n' >&3
live_wait 1 '^ *shadow: ended with the connection'
printf 'replay @0\nstatus\ncheckpoints\nstatus\nprint rank\n' >&3
live_wait 1 '^\[0\] rank = '
has "the connection lost: the shadow ended with its agent, said so" \
    "$tmp/live" \
    "      shadow: ended with the connection to 127.0.0.3 (its agent ends what it started), and its checkpoint files with it"
if grep -q "shadow: ended by signal\|latest before event -1" "$tmp/live"; then
    fail "the connection lost: no 'ended by signal', no 'event -1'"
    grep "shadow:" "$tmp/live" | sed 's/^/#   /'
else
    ok "the connection lost: no 'ended by signal', no 'event -1'"
fi
[ "$(grep -c '^drdb: rank 0: its shadow on 127.0.0.3 ended with the agent of the connection that was lost, and its checkpoint files with it$' "$tmp/live.err")" = 1 ] &&
    ok "connected again: the old shadow dropped, said once" ||
    { fail "connected again: the old shadow dropped, said once"
      sed 's/^/#   /' "$tmp/live.err" | tail -12; }
if grep -q "no such shadow" "$tmp/live.err"; then
    fail "connected again: no 'no such shadow on this agent'"
else
    ok "connected again: no 'no such shadow on this agent'"
fi
printf 'quit\n' >&3 2> /dev/null
exec 3>&-
wait "$console"
console=

echo "1..$n"
exit $status
