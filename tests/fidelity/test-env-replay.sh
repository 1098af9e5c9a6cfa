#!/bin/sh
# Libc results in replay (issue 16, class 8), beyond test-fidelity.sh:
#  - the host name replays on "another machine": each rank of env-host is
#    replayed in a new UTS namespace with another host name (skipped
#    where unshare --uts is not allowed);
#  - a replay that makes one more time() call than the recording, or
#    calls getpid() where the recording has time(), stops with status 97
#    and names the calls;
#  - drdb record --no-libc writes no rank-R.sys and its replay runs the
#    calls live.
#
# usage: test-env-replay.sh DRDB MPIEXEC ENV_HOST ENV_SRAND
set -u
drdb=$1 mpiexec=$2 host=$3 srand=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

"$drdb" record -o "$tmp/host" -- "$mpiexec" -n 2 -outfile-pattern \
    "$tmp/host.rec.%r" "$host" > "$tmp/host.log" 2>&1 ||
    fail "env-host: recording failed"
if unshare --uts true 2>/dev/null; then
    for r in 0 1; do
        unshare --uts sh -c "hostname drdb-elsewhere && hostname &&
            exec '$drdb' replay --quiet --rank $r '$tmp/host'" \
            > "$tmp/host.rpl.$r" 2> "$tmp/host.rpl.$r.err"
        # the first line is the namespace's own name: not the recorded one
        if [ "$(head -n 1 "$tmp/host.rpl.$r")" != drdb-elsewhere ]; then
            fail "env-host rank $r: the namespace's host name was not set"
        elif tail -n +2 "$tmp/host.rpl.$r" | cmp -s - "$tmp/host.rec.$r"; then
            ok "env-host rank $r: replayed under another host name, the recorded names"
        else
            fail "env-host rank $r: replayed output differs"
            tail -n +2 "$tmp/host.rpl.$r" | diff "$tmp/host.rec.$r" - |
                sed 's/^/#   /' | head -10
        fi
    done
else
    skip "env-host under another host name: unshare --uts is not allowed here"
fi

"$drdb" record -o "$tmp/srand" -- "$mpiexec" -n 2 "$srand" \
    > "$tmp/srand.log" 2>&1 || fail "env-srand: recording failed"
ENV_SRAND_EXTRA=1 "$drdb" replay --quiet --rank 1 "$tmp/srand" \
    > "$tmp/extra" 2> "$tmp/extra.err"
echo "rc $?" >> "$tmp/extra"
has "one time() more than recorded: status 97" "$tmp/extra" "rc 97"
hasre "one time() more: the call is named" "$tmp/extra.err" \
    "replay diverged: the program calls time() (libc call 4 of thread 0) but the recorded thread made no more calls"
ENV_SRAND_PID_FIRST=1 "$drdb" replay --quiet --rank 0 "$tmp/srand" \
    > "$tmp/swap" 2> "$tmp/swap.err"
echo "rc $?" >> "$tmp/swap"
has "getpid() where the record has time(): status 97" "$tmp/swap" "rc 97"
hasre "getpid() for time(): both named" "$tmp/swap.err" \
    "libc call 1 of thread 0: the recorded run called time(0), the program called getpid(0)"

"$drdb" record --no-libc -o "$tmp/off" -- "$mpiexec" -n 2 "$srand" \
    > "$tmp/off.log" 2>&1 || fail "env-srand --no-libc: recording failed"
if ls "$tmp/off" | grep -q '\.sys'; then
    fail "--no-libc: libc streams were written: $(ls "$tmp/off" | tr '\n' ' ')"
else
    ok "--no-libc: no libc stream written"
fi
"$drdb" log info "$tmp/off" > "$tmp/off.info" 2>&1
hasre "--no-libc: drdb log info says there are no libc results" \
    "$tmp/off.info" "libc results: none (recorded with --no-libc"
"$drdb" log info "$tmp/srand" > "$tmp/on.info" 2>&1
hasre "drdb log info counts the libc results" "$tmp/on.info" \
    "libc results: [0-9][0-9]* calls in 2 ranks, 1 thread at most"
"$drdb" log libc "$tmp/srand" --rank 1 > "$tmp/libc" 2>&1
hasre "drdb log libc lists the calls" "$tmp/libc" "^ *1  time  *[0-9]* *0  $" \
    "^ *2  getpid "
echo "1..$n"
exit $status
