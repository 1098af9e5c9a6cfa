#!/bin/sh
# drdb replay --host against a real sshd (no mocks; docs/remote.md): the
# test starts its own sshd on 127.0.0.2 and 127.0.0.3 (two "hosts"), on a
# free port, with a host key and an authorized key made in its temporary
# directory and a known_hosts file given to ssh (-o UserKnownHostsFile);
# nothing of the machine's SSH configuration changes. When sshd cannot
# start, the test is skipped (77) with the reason.
#
# Covered: a rank replayed on a host from a copy of a recorded run in
# another directory, output and exit status identical to the local replay
# (also as HOST:RUNDIR, and through a local agent); a run path holding
# spaces, quotes, ';', $(...), backticks and a newline works as a path
# and injects nothing; host names that are ssh options or hold a space are
# refused; an unreachable host, a wrong key, a remote drdb that does not
# exist and a version mismatch each give their one line; killing the ssh
# connection mid-replay leaves nothing running on the node. Keeping a
# session (docs/remote.md, "Keeping a session"): test-keep's cases over
# ssh (the connection killed, attach, the held output, the time limit),
# and drdb attach --list / --end on a session left kept.
#
# usage: test-remote.sh DRDB MPIEXEC SENDRECV CRASH TEST-KEEP
set -u
drdb=$(realpath "$1") mpiexec=$2 sendrecv=$(realpath "$3")
crash=$(realpath "$4") test_keep=$(realpath "$5")
. "$(dirname "$0")/../lib.sh"
n=0 status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/drdb-remote-XXXXXX")
. "$(dirname "$0")/../lib-sshd.sh"
cleanup() {
    sshd_stop
    rm -rf "$tmp"
}
trap cleanup EXIT
skip_all() { echo "1..0 # SKIP $1"; exit 77; }

# ---- the test's own sshd (tests/lib-sshd.sh) ---------------------------------
sshd_start || skip_all "$sshd_why"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/otherkey" -C test-other ||
    skip_all "ssh-keygen failed"

# ssh's options, as a user's ~/.ssh/config would give them (ssh takes the
# first value of each option: the port is given per call).
set -- --ssh-option "IdentityFile=$tmp/userkey" --ssh-option IdentitiesOnly=yes \
    --ssh-option "UserKnownHostsFile=$tmp/known_hosts" --remote-drdb "$drdb"
opts_port="--ssh-option Port=$port"

# ---- a run, and its copy at a path only the "node" uses ---------------------
mkdir "$tmp/rec"
if ! (cd "$tmp/rec" && timeout 120 "$drdb" record -o run -- "$mpiexec" \
        -n 2 "$sendrecv" > rec.log 2>&1); then
    fail "recording sendrecv"
    sed 's/^/# /' "$tmp/rec/rec.log" | tail -5
    echo "1..$n"
    exit 1
fi
nasty="$tmp/node2/sp ace 'q\" ;\$(touch $tmp/injected1)\`touch $tmp/injected2\`
nl"
mkdir -p "$nasty"
cp -r "$tmp/rec/run" "$nasty/run"
rm -rf "$tmp/rec/run" # the copy is the only one
run="$nasty/run"

for r in 0 1; do
    timeout 60 "$drdb" replay --rank $r "$run" > "$tmp/local.$r" \
        2> "$tmp/local.$r.err"
    echo $? > "$tmp/local.$r.rc"
done
[ -s "$tmp/local.1" ] && [ "$(cat "$tmp/local.1.rc")" = 0 ] &&
    ok "the local replay of the copied run" ||
    fail "the local replay of the copied run (rc $(cat "$tmp/local.1.rc"))"

# same NAME RANK: the replay in $tmp/NAME (.rc) is the local one of RANK.
same() {
    if [ "$(cat "$tmp/$1.rc")" = "$(cat "$tmp/local.$2.rc")" ] &&
            cmp -s "$tmp/$1" "$tmp/local.$2"; then
        ok "$3"
    else
        fail "$3 (rc $(cat "$tmp/$1.rc"), local $(cat "$tmp/local.$2.rc"))"
        diff "$tmp/local.$2" "$tmp/$1" | head -5 | sed 's/^/#   /'
        sed 's/^/#   /' "$tmp/$1.err" | tail -5
    fi
}
# remote NAME ARGS...: drdb replay ARGS, output in $tmp/NAME (.err, .rc).
remote() {
    _name=$1
    shift
    timeout 60 "$drdb" replay "$@" > "$tmp/$_name" 2> "$tmp/$_name.err"
    echo $? > "$tmp/$_name.rc"
}
remote h2 --host 127.0.0.2 $opts_port "$@" --rank 1 "$run"
same h2 1 "rank 1 replayed on 127.0.0.2 from a path with spaces, quotes, ;, \$(), backticks and a newline: output and status as local"
remote h3 $opts_port "$@" --rank 0 "127.0.0.3:$run"
same h3 0 "rank 0 replayed on 127.0.0.3 given as HOST:RUNDIR: as local"
remote lh --host localhost --rank 1 "$run"
same lh 1 "a local agent (--host localhost): as local"
# --stdin -: this side's standard input is the program's there.
echo "typed here" | timeout 60 "$drdb" replay --host 127.0.0.2 $opts_port "$@" \
    --stdin - --rank 0 "$run" -- /bin/cat > "$tmp/stdin" 2> "$tmp/stdin.err"
has "--stdin -: standard input relayed to the node" "$tmp/stdin" "typed here"
if [ ! -e "$tmp/injected1" ] && [ ! -e "$tmp/injected2" ]; then
    ok "the path's \$(...) and backticks ran nothing"
else
    fail "the run path's \$(...) or backticks ran a command"
fi

# A divergence (another program than the recorded one): the report and the
# exit status of a local replay.
timeout 60 "$drdb" replay --rank 1 "$run" -- "$crash" none > "$tmp/local.d" \
    2> "$tmp/local.d.err"
echo $? > "$tmp/local.d.rc"
remote hd --host 127.0.0.2 $opts_port "$@" --rank 1 "$run" -- "$crash" none
if [ "$(cat "$tmp/hd.rc")" = 97 ] && [ "$(cat "$tmp/local.d.rc")" = 97 ] &&
        cmp -s "$tmp/hd.err" "$tmp/local.d.err" && cmp -s "$tmp/hd" "$tmp/local.d"
then
    ok "a divergence on the node: the report and status 97 of a local replay"
else
    fail "a divergence on the node (rc $(cat "$tmp/hd.rc"), local $(cat "$tmp/local.d.rc"))"
    diff "$tmp/local.d.err" "$tmp/hd.err" | head -8 | sed 's/^/#   /'
fi
# The agent's trust check (launch_check) before it starts anything: a run
# directory others can write is refused there, with the reasons.
chmod o+w "$run"
remote trust --host 127.0.0.2 $opts_port "$@" --rank 1 "$run"
chmod o-w "$run"
if [ "$(cat "$tmp/trust.rc")" = 2 ] && [ ! -s "$tmp/trust" ] &&
        grep -q "^drdb: 127.0.0.2 refused: program: $sendrecv " "$tmp/trust.err" &&
        grep -q "can be written by others (mode 7.2)" "$tmp/trust.err" &&
        grep -q "refusing to run" "$tmp/trust.err"; then
    ok "a run directory others can write is refused by the agent"
else
    fail "the agent's trust check (rc $(cat "$tmp/trust.rc"))"
    sed 's/^/#   /' "$tmp/trust.err" | tail -5
fi

# ---- drdb log on a run the node holds: the event index from the logs'
# metadata (copies without message data), the data fetched when shown --------
# rlog NAME ARGS...: drdb log with the ssh options, into $tmp/NAME (.err).
rlog() {
    _name=$1
    shift
    timeout 60 "$drdb" log $opts_port "$@" > "$tmp/$_name" 2> "$tmp/$_name.err"
}
# ("$@": the --ssh-option and --remote-drdb options of `drdb replay`,
# which `drdb log` takes before its command.)
"$drdb" log events "$run" > "$tmp/ev.local" 2>&1
rlog ev.remote "$@" events "127.0.0.2:$run"
"$drdb" log match "$run" --all > "$tmp/m.local" 2>&1
rlog m.remote "$@" match "127.0.0.3:$run" --all
q="SELECT rank, call, count(*), sum(bytes) FROM events GROUP BY rank, call"
"$drdb" log sql "$run" "$q" > "$tmp/q.local" 2>&1
rlog q.remote "$@" sql "127.0.0.2:$run" "$q"
if [ -s "$tmp/ev.local" ] && cmp -s "$tmp/ev.local" "$tmp/ev.remote" &&
        [ -s "$tmp/m.local" ] && cmp -s "$tmp/m.local" "$tmp/m.remote" &&
        [ -s "$tmp/q.local" ] && cmp -s "$tmp/q.local" "$tmp/q.remote"; then
    ok "drdb log events / match --all / sql of HOST:RUNDIR: the local answers"
else
    fail "drdb log events / match --all / sql of HOST:RUNDIR differ from local"
    for f in ev m q; do
        diff "$tmp/$f.local" "$tmp/$f.remote" | head -5 | sed 's/^/#   /'
        sed 's/^/#   /' "$tmp/$f.remote.err" | tail -3
    done
fi
rlog bench "$@" match "127.0.0.2:$run" --bench 20
hasre "building the index from the node's copies fetched no message data" \
    "$tmp/bench" "^fetched: *0 bytes of message data from 127.0.0.2\$"
# Every event of rank 1 in full: the data comes from the node.
events=$(awk '$1 == 1 { print $2 }' "$tmp/ev.local")
bad= shown=0 data=0
for e in $events; do
    "$drdb" log event "$run" "1:$e" > "$tmp/e.local" 2>&1
    rlog e.remote "$@" event "127.0.0.2:$run" "1:$e"
    cmp -s "$tmp/e.local" "$tmp/e.remote" || { bad=$e; break; }
    grep -q "^    data " "$tmp/e.remote" && data=$((data + 1))
    shown=$((shown + 1))
done
if [ -z "$bad" ] && [ "$shown" -gt 5 ] && [ "$data" -gt 0 ]; then
    ok "drdb log event of HOST:RUNDIR: each of rank 1's $shown events as local ($data with data)"
else
    fail "drdb log event of HOST:RUNDIR: $shown events as local, $data with data${bad:+, event 1:$bad differs}"
    diff "$tmp/e.local" "$tmp/e.remote" | head -6 | sed 's/^/#   /'
fi

# ---- a run split over two hosts' disks: rank 0's log in one directory read
# through 127.0.0.2, rank 1's in another through 127.0.0.3 (drdb.run in
# both, as a copy), debugged from a third directory: the same answers as
# the whole run, with no message data fetched for the index --------------
mkdir -m 700 "$tmp/partA" "$tmp/partB" "$tmp/third"
cp -p "$run/drdb.run" "$tmp/partA/" && cp -p "$run/drdb.run" "$tmp/partB/"
cp -p "$run/rank-0.log" "$tmp/partA/" && cp -p "$run/rank-1.log" "$tmp/partB/"
# slog NAME ARGS...: drdb log from the third directory on the split run.
slog() {
    _name=$1
    shift
    (cd "$tmp/third" && timeout 60 "$drdb" log $opts_port "$@") \
        > "$tmp/$_name" 2> "$tmp/$_name.err"
}
split="--also 127.0.0.3:$tmp/partB"
slog sev "$@" $split events "127.0.0.2:$tmp/partA"
slog sm "$@" $split match "127.0.0.2:$tmp/partA" --all
slog sq "$@" $split sql "127.0.0.2:$tmp/partA" "$q"
if cmp -s "$tmp/ev.local" "$tmp/sev" && cmp -s "$tmp/m.local" "$tmp/sm" &&
        cmp -s "$tmp/q.local" "$tmp/sq"; then
    ok "a run split over two hosts: events / match --all / sql as the whole run's"
else
    fail "a run split over two hosts: events / match --all / sql differ from the whole run's"
    for f in ev:sev m:sm q:sq; do
        diff "$tmp/${f%%:*}.local" "$tmp/${f#*:}" | head -4 | sed 's/^/#   /'
        sed 's/^/#   /' "$tmp/${f#*:}.err" | tail -3
    done
fi
slog sbench "$@" $split match "127.0.0.2:$tmp/partA" --bench 20
if grep -q "^fetched: *0 bytes of message data from 127.0.0.2\$" "$tmp/sbench" &&
        grep -q "^fetched: *0 bytes of message data from 127.0.0.3\$" "$tmp/sbench"; then
    ok "the split run's index fetched no message data from either host"
else
    fail "the split run's index: $(grep fetched "$tmp/sbench" | tr '\n' ' ')"
fi
# Rank 1's events with data come from 127.0.0.3, as the whole run shows them.
bad= data=0
for e in $events; do
    "$drdb" log event "$run" "1:$e" > "$tmp/e.local" 2>&1
    slog se "$@" $split event "127.0.0.2:$tmp/partA" "1:$e"
    cmp -s "$tmp/e.local" "$tmp/se" || { bad=$e; break; }
    grep -q "^    data " "$tmp/se" && data=$((data + 1))
done
[ -z "$bad" ] && [ "$data" -gt 0 ] &&
    ok "the split run: rank 1's events in full, data read from the other host" ||
    fail "the split run: event 1:$bad differs from the whole run's"
# A part whose host cannot be reached: one line naming it; the other
# host's rank is listed anyway.
slog sdown "$@" --also "127.0.0.4:$tmp/partB" events "127.0.0.2:$tmp/partA"
if grep -q "^drdb: 127.0.0.4:$tmp/partB: cannot reach 127.0.0.4.*; its ranks are left out\$" "$tmp/sdown.err" &&
        awk 'NR == 1 || $1 == 0' "$tmp/ev.local" | cmp -s - "$tmp/sdown"; then
    ok "a part on an unreachable host: one line naming it, the other part's rank listed"
else
    fail "a part on an unreachable host"
    sed 's/^/#   /' "$tmp/sdown.err" | tail -3
fi

# --hosts: the run's directory read on each host (here the same disk),
# each rank from the host mpiexec places it on (a host file: rank 0 on
# 127.0.0.2, rank 1 on 127.0.0.3).
printf '# two nodes\n127.0.0.2:1\n127.0.0.3\n' > "$tmp/hostfile"
slog hev "$@" --hosts "@$tmp/hostfile" events "$run"
slog hbench "$@" --hosts "@$tmp/hostfile" match "$run" --bench 5
if cmp -s "$tmp/ev.local" "$tmp/hev" &&
        grep -q "from 127.0.0.2\$" "$tmp/hbench" &&
        grep -q "from 127.0.0.3\$" "$tmp/hbench"; then
    ok "--hosts @FILE: the run read through both hosts' agents, the events as local"
else
    fail "--hosts @FILE"
    sed 's/^/#   /' "$tmp/hev.err" | tail -3
fi

# ---- host names that are not --------------------------------------------------
remote bad1 --host "-oProxyCommand=touch $tmp/proxied" $opts_port "$@" \
    --rank 0 "$run"
hasre "'-oProxyCommand=...' refused as a host name" "$tmp/bad1.err" \
    "is not a host name"
[ ! -e "$tmp/proxied" ] && [ "$(cat "$tmp/bad1.rc")" != 0 ] &&
    ok "no ProxyCommand ran" || fail "a ProxyCommand ran, or drdb exited 0"
remote bad2 --host "a b" $opts_port "$@" --rank 0 "$run"
hasre "'a b' refused as a host name" "$tmp/bad2.err" \
    "^drdb: 'a b' is not a host name"

# ---- faults: one line each, naming the host ---------------------------------
closed=$((port + 1))
remote unreach --ssh-option Port=$closed "$@" --rank 0 "127.0.0.2:$run"
hasre "an unreachable host (a closed port)" "$tmp/unreach.err" \
    "^drdb: cannot reach 127.0.0.2: .*Connection refused"
remote wrongkey $opts_port --ssh-option "IdentityFile=$tmp/otherkey" \
    --ssh-option IdentitiesOnly=yes \
    --ssh-option "UserKnownHostsFile=$tmp/known_hosts" --rank 0 \
    "127.0.0.2:$run"
hasre "a wrong key: authentication failed" "$tmp/wrongkey.err" \
    "^drdb: cannot log in to 127.0.0.2: authentication failed"
remote nodrdb $opts_port "$@" --remote-drdb "$tmp/no such/drdb" --rank 0 \
    "127.0.0.2:$run"
hasre "no drdb on the node (ssh's exit 127)" "$tmp/nodrdb.err" \
    "^drdb: drdb is not installed on 127.0.0.2 ('$tmp/no such/drdb' was not found there)"
# DRDB_TEST_VERSION (test-only, docs/remote.md) fakes a side's version.
printf '#!/bin/sh\nDRDB_TEST_VERSION=0.0.1 exec "%s" "$@"\n' "$drdb" \
    > "$tmp/drdb-old"
chmod +x "$tmp/drdb-old"
remote oldnode $opts_port "$@" --remote-drdb "$tmp/drdb-old" --rank 0 \
    "127.0.0.2:$run"
hasre "an older drdb on the node is named" "$tmp/oldnode.err" \
    "^drdb: drdb on 127.0.0.2 is version 0.0.1 (protocol [0-9]*), this drdb is .*: install the same drdb on both (127.0.0.2 is older)"
DRDB_TEST_VERSION=0.0.1 remote oldhere $opts_port "$@" --rank 0 \
    "127.0.0.2:$run"
hasre "an older drdb here is named" "$tmp/oldhere.err" \
    "^drdb: drdb on 127.0.0.2 is version .*, this drdb is 0.0.1 .*(this one is older)"
for f in unreach wrongkey nodrdb oldnode oldhere; do
    [ "$(cat "$tmp/$f.rc")" = 1 ] && [ "$(wc -l < "$tmp/$f.err")" = 1 ] ||
        fail "$f: exit status $(cat "$tmp/$f.rc") and one line, not: $(cat "$tmp/$f.err")"
done

# ---- the connection killed mid-replay ------------------------------------------
# Rank 1 of a run whose rank 1 was killed while sleeping: its replay sleeps
# there too. The agent is started through a link of a unique name (found
# with pgrep -f), the rank by its environment (DRDB_REPLAY_DIR).
if record_killed "$drdb" "$mpiexec" "$crash" 2 "$tmp/crashrun" 2; then
    ln -s "$drdb" "$tmp/drdb-mark$$"
    agent_pat="drdb-mark$$ agent"
    ranks_alive() { grep -ls "DRDB_REPLAY_DIR=$tmp/crashrun" \
        /proc/[0-9]*/environ 2> /dev/null | grep -v "/proc/$$/"; }
    "$drdb" replay $opts_port "$@" --remote-drdb "$tmp/drdb-mark$$" \
        --rank 1 "127.0.0.3:$tmp/crashrun" > "$tmp/kill.out" \
        2> "$tmp/kill.err" &
    job=$!
    for _ in $(seq 200); do
        grep -q sleeping "$tmp/kill.out" && break
        sleep 0.1
    done
    sshp=$(pgrep -P "$job" -x ssh)
    if grep -q sleeping "$tmp/kill.out" && [ -n "$sshp" ] &&
            pgrep -f "$agent_pat" > /dev/null && [ -n "$(ranks_alive)" ]; then
        ok "mid-replay: the rank and the agent run on the node"
        kill -KILL "$sshp"
        wait "$job"
        echo $? > "$tmp/kill.rc"
        hasre "a dropped connection says so" "$tmp/kill.err" \
            "^drdb: connection to 127.0.0.3 lost.*: the replay of '$tmp/crashrun' there ended with the connection"
        left=yes
        for _ in $(seq 100); do
            if ! pgrep -f "$agent_pat" > /dev/null && [ -z "$(ranks_alive)" ]
            then
                left=
                break
            fi
            sleep 0.1
        done
        [ -z "$left" ] && [ "$(cat "$tmp/kill.rc")" = 1 ] &&
            ok "nothing left running on the node after the connection dropped" ||
            fail "left running on the node: $(pgrep -af "$agent_pat") $(ranks_alive) (rc $(cat "$tmp/kill.rc"))"
    else
        fail "the remote replay of the sleeping rank did not start"
        sed 's/^/#   /' "$tmp/kill.err" | tail -5
        kill "$job" 2> /dev/null
        wait "$job"
    fi
else
    fail "recording a killed run"
fi

# ---- keeping a session over ssh ------------------------------------------------
# The node's session directory: in this test's directory (SetEnv).
mkdir -m 700 "$tmp/xdg"
kopts="Port=$port IdentityFile=$tmp/userkey IdentitiesOnly=yes
UserKnownHostsFile=$tmp/known_hosts SetEnv=XDG_RUNTIME_DIR=$tmp/xdg"
set -f
# shellcheck disable=SC2086 # one option a word
timeout 60 "$test_keep" "$drdb" 127.0.0.2 $kopts > "$tmp/keep.tap" 2>&1
krc=$?
if [ $krc = 0 ] && ! grep -q "^not ok" "$tmp/keep.tap" &&
        [ "$(grep -c "^ok" "$tmp/keep.tap")" = 3 ]; then
    ok "keeping over ssh: the ssh connection killed, the process kept, attached again with its output from meanwhile; the time limit; ids"
else
    fail "keeping over ssh (test-keep exit status $krc)"
    grep -v "^ok" "$tmp/keep.tap" | head -12 | sed 's/^/#   /'
fi
# shellcheck disable=SC2086
held=$(timeout 60 "$test_keep" --hold "$drdb" 127.0.0.2 $kopts 2> "$tmp/hold.err")
set +f
kid=${held% *} kpid=${held#* }
katt() { timeout 60 "$drdb" attach --ssh-option Port=$port \
    --ssh-option "SetEnv=XDG_RUNTIME_DIR=$tmp/xdg" "$@"; }
# ("$@": the --ssh-option and --remote-drdb options of the replays above.)
if [ -n "$kid" ] && [ -n "$kpid" ] && kill -0 "$kpid" 2> /dev/null; then
    katt "$@" --list 127.0.0.2 > "$tmp/klist" 2>&1
    if grep -q "^session $kid on 127.0.0.2: 1 process\$" "$tmp/klist" &&
            grep -q "^  note: hold note\$" "$tmp/klist" &&
            grep -q "^  rank 5 *pid $kpid *running\$" "$tmp/klist"; then
        ok "drdb attach --list: the session kept after its connection ended, its note and process"
    else
        fail "drdb attach --list"
        sed 's/^/#   /' "$tmp/klist" | head -8
    fi
    katt "$@" --end 127.0.0.2 "$kid" > "$tmp/kend" 2>&1
    for _ in $(seq 100); do
        kill -0 "$kpid" 2> /dev/null || break
        sleep 0.05
    done
    if grep -q "^session $kid on 127.0.0.2 ended\$" "$tmp/kend" &&
            ! kill -0 "$kpid" 2> /dev/null &&
            ! kill -0 "$kid" 2> /dev/null &&
            [ ! -e "$tmp/xdg/drdb-agent/$kid.sock" ]; then
        ok "drdb attach --end: the process, the agent and its socket are gone"
    else
        fail "drdb attach --end"
        sed 's/^/#   /' "$tmp/kend" | head -5
    fi
    katt --list 127.0.0.2 "$@" > "$tmp/klist2" 2>&1 # options after the host too
    has "no kept session left" "$tmp/klist2" "no kept session on 127.0.0.2"
else
    fail "a session left kept (test-keep --hold: '$held')"
    sed 's/^/#   /' "$tmp/hold.err" | head -5
fi

echo "1..$n"
exit $status
