#!/bin/sh
# The event index of a run in two parts from two agents at once (issue 17,
# docs/remote.md "The event index through agents"): sendrecv recorded
# with 2 ranks, rank 0's log in one directory and rank 1's in another,
# each read through its own local agent, both agents behind gate-agent.c,
# which holds an agent's HELLO until both agents were started and its
# copies until both were asked for one. A client that connects to, or
# asks, one host after the other is held 8 s at each gate, and the gate
# leaves a stuck-* file: both must be in flight at once. Then, in the
# same session: no message data crosses (every data field elided: the
# 32-byte ring messages included), and the answers are the local ones.
#
# Then the options naming a run on a host, one group for every command
# (docs/remote.md "Options"): --host HOST gives what HOST:RUNDIR gives,
# after the command or before drdb log's command; the host said twice,
# and replay's refusal of --hosts.
#
# Expected answers, by hand from sendrecv.c with 2 ranks: after Init,
# Comm_rank and Comm_size (events 0-2) each rank's first Sendrecv (event
# 3, tag 1, 8 ints) receives the other's; the first Sendrecv_replace (5
# ints, tag 2) is event 19.
#
# usage: test-remote-index.sh DRDB MPIEXEC SENDRECV GATE_AGENT
set -u
drdb=$(realpath "$1") mpiexec=$2 sendrecv=$(realpath "$3") gate=$(realpath "$4")
n=0 status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/drdb-rindex-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"

if ! (cd "$tmp" && timeout 120 "$drdb" record -o run -- "$mpiexec" -n 2 \
        "$sendrecv" > rec.log 2>&1); then
    fail "recording sendrecv"
    echo "1..$n"
    exit 1
fi
mkdir -m 700 "$tmp/a" "$tmp/b" "$tmp/gate"
cp -p "$tmp/run/drdb.run" "$tmp/run/rank-0.log" "$tmp/a/"
cp -p "$tmp/run/drdb.run" "$tmp/run/rank-1.log" "$tmp/b/"

# glog NAME ARGS...: drdb log on the two parts through gated agents.
glog() {
    _name=$1
    shift
    rm -f "$tmp/gate"/*
    GATE_DRDB=$drdb GATE_DIR=$tmp/gate GATE_N=2 timeout 120 "$drdb" log \
        --remote-drdb "$gate" --also "localhost:$tmp/b" "$@" \
        > "$tmp/$_name" 2> "$tmp/$_name.err"
    echo $? > "$tmp/$_name.rc"
    ls "$tmp/gate" > "$tmp/$_name.gate"
}

glog m match "localhost:$tmp/a" --all
if [ "$(cat "$tmp/m.rc")" = 0 ] && grep -qx 'index\.[0-9]*' "$tmp/m.gate" &&
    ! grep -q '^stuck' "$tmp/m.gate"; then
    ok "both hosts connected and asked for their copies at once"
else
    fail "the hosts one after the other (rc $(cat "$tmp/m.rc"); gate: $(tr '\n' ' ' < "$tmp/m.gate"))"
    sed 's/^/#   /' "$tmp/m.err" | tail -5
fi
has "the index over both agents' copies" "$tmp/m" \
    'rank 0 event 3 MPI_Sendrecv from 1 tag 1 <- rank 1 event 3 MPI_Sendrecv (32 bytes)' \
    'rank 1 event 3 MPI_Sendrecv from 0 tag 1 <- rank 0 event 3 MPI_Sendrecv (32 bytes)' \
    'rank 0 event 19 MPI_Sendrecv_replace from 1 tag 2 <- rank 1 event 19 MPI_Sendrecv_replace (20 bytes)'
"$drdb" log match "$tmp/run" --all > "$tmp/m.local" 2>&1
if cmp -s "$tmp/m.local" "$tmp/m"; then
    ok "match --all through the two agents: the local answers"
else
    fail "match --all through the two agents differs from local"
    diff "$tmp/m.local" "$tmp/m" | head -5 | sed 's/^/#   /'
fi

glog bench match "localhost:$tmp/a" --bench 5
has "no message data crossed, from either host" "$tmp/bench" \
    "payload:       0 bytes of message data received from localhost"
if [ "$(grep -c '^payload: *0 bytes' "$tmp/bench")" = 2 ] &&
    awk '/^copies:/ { c += $2 } /^wire:/ { w += $2 }
         END { exit !(c > 0 && w > c && w < c + 8192) }' "$tmp/bench"; then
    ok "--bench counts each host's payload (0) and bytes on the wire (the copies and frames)"
else
    fail "--bench's payload and wire counts"
    sed 's/^/#   /' "$tmp/bench"
fi

# --host HOST: the same answers as HOST:RUNDIR and as the run read here
run=$tmp/run
"$drdb" log events "$run" > "$tmp/ev.local" 2>&1
"$drdb" log events --host localhost "$run" > "$tmp/ev.host" 2>&1
"$drdb" log --host localhost events "$run" -c 9 > "$tmp/ev.before" 2>&1
"$drdb" log events "localhost:$run" -c 9 > "$tmp/ev.colon" 2>&1
if cmp -s "$tmp/ev.local" "$tmp/ev.host" &&
    cmp -s "$tmp/ev.before" "$tmp/ev.colon" &&
    [ "$(wc -l < "$tmp/ev.colon")" = 10 ]; then
    ok "log events --host localhost: the local listing; before the command as HOST:RUNDIR"
else
    fail "log events --host localhost"
    diff "$tmp/ev.local" "$tmp/ev.host" | head -5 | sed 's/^/#   /'
    sed 's/^/#   /' "$tmp/ev.before" | head -5
fi
"$drdb" check "$run" > "$tmp/ck.local" 2>&1; l=$?
"$drdb" check --host localhost "$run" > "$tmp/ck.host" 2>&1; h=$?
if [ $l = $h ] && cmp -s "$tmp/ck.local" "$tmp/ck.host"; then
    ok "check --host localhost: the local findings (exit $l)"
else
    fail "check --host localhost (exit $h, local $l)"
    diff "$tmp/ck.local" "$tmp/ck.host" | head -5 | sed 's/^/#   /'
fi
"$drdb" log events --host localhost "localhost:$run" > "$tmp/twice" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "say the host once" "$tmp/twice" &&
    ok "--host and HOST:RUNDIR at once: refused" ||
    { fail "--host and HOST:RUNDIR at once (rc $rc)"; sed 's/^/#   /' "$tmp/twice"; }
"$drdb" replay --hosts a,b "$run" > "$tmp/rh" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "drdb replay runs the ranks of one host: --host HOST" "$tmp/rh" &&
    ok "replay --hosts: refused, saying what to use" ||
    { fail "replay --hosts (rc $rc)"; sed 's/^/#   /' "$tmp/rh"; }
echo "1..$n"
exit $status
