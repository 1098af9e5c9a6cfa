#!/bin/sh
# drdb record's guards on log volume (docs/recording.md, "Log volume"):
# --max-log-size for each rank's log and total= for the run's, the
# warning when the logs' rate would fill the disk (a small tmpfs in a
# private mount namespace; skipped with the reason where one cannot be
# made), the rate in the summary, and bad sizes.
# usage: test-record-limits.sh DRDB MPIEXEC LOGRATE
set -u
drdb=$(realpath "$1") mpiexec=$2 prog=$(realpath "$3")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"
MiB=1048576

# size FILE: its bytes
size() { stat -c %s "$1"; }

# ---- each rank's log at most 1 MiB: 2 ranks exchanging 64 KiB for 3 s
# (about 6 MB of data per rank at 100 rounds/s: the limit is reached)
"$drdb" record -o per --no-compress --max-log-size 1M -- "$mpiexec" -n 2 "$prog" 3 65536 10000 \
    > per.out 2> per.err
rc=$?
big=0
for r in 0 1; do
    [ -f per/rank-$r.log ] && [ "$(size per/rank-$r.log)" -le $MiB ] &&
        [ "$(size per/rank-$r.log)" -gt $((MiB / 2)) ] || big=1
done
if [ "$rc" = 0 ] && [ "$big" = 0 ] && grep -q "^rank 1: [0-9]* rounds" per.out; then
    ok "--max-log-size 1M: each log at most 1 MiB, the program ran to its end, status 0"
else
    fail "--max-log-size 1M (rc $rc, sizes $(size per/rank-0.log 2>/dev/null) $(size per/rank-1.log 2>/dev/null))"
    sed 's/^/#   /' per.err | tail -5
fi
hasre "each rank says where its log stopped" per.err \
    "^drdb-record: warning: rank 1: the log reached the size limit (--max-log-size); recording stops at event [0-9]*, the program goes on\$"
has "the verdict names the ranks cut at the limit" per.err \
    "drdb: ranks 0,1: cut at --max-log-size: logged up to the limit, replayable that far"
hasre "the summary gives the logs' rate per rank" per.err \
    "^drdb: logs: [0-9.]* [kMG]*B for 2 ranks in [0-9.]* s of run: [0-9.]* [kMG]*B/s per rank\$"
"$drdb" log info per > info 2>&1
hasre "drdb log info: the log ends at the limit" info \
    "truncated (size limit): recording stopped at event [0-9]* (the log reached drdb record's --max-log-size)"
# The replay goes to the stop and says why it ends there (status 98).
timeout 120 "$drdb" replay --rank 1 per > rep.out 2> rep.err
rc=$?
if [ "$rc" = 98 ] && grep -q "the log ends here: recording stopped at event .*--max-log-size" rep.err; then
    ok "the replay runs to the limit and says so (status 98)"
else
    fail "the replay of a log cut at the limit (rc $rc)"
    sed 's/^/#   /' rep.err | tail -3
fi

# ---- the run's logs together at most 1.5 MiB (4 ranks)
"$drdb" record -o tot --no-compress --max-log-size total=1536K -- "$mpiexec" -n 4 "$prog" 3 65536 10000 \
    > tot.out 2> tot.err
rc=$?
sum=0
for f in tot/rank-*.log; do sum=$((sum + $(size "$f"))); done
if [ "$rc" = 0 ] && [ "$sum" -le $((3 * MiB / 2)) ] && [ "$sum" -gt $MiB ] &&
        [ "$(grep -c "the log reached the size limit" tot.err)" = 4 ]; then
    ok "--max-log-size total=1536K: the 4 logs take $sum bytes together, each stopped"
else
    fail "--max-log-size total=1536K (rc $rc, $sum bytes)"
    sed 's/^/#   /' tot.err | tail -5
fi
[ ! -e tot/.drdb.budget ] && ok "the run's budget file is gone after the run" ||
    fail "the budget file stayed in the run directory"
# Without a limit nothing is cut, and nothing warns on a roomy disk.
"$drdb" record -o free -- "$mpiexec" -n 2 "$prog" 1 4096 10000 > free.out 2> free.err
if [ $? = 0 ] && ! grep -q "size limit\|warning" free.err; then
    ok "without --max-log-size: no cut, no warning"
else
    fail "a run without limits"
    sed 's/^/#   /' free.err | tail -3
fi

# ---- bad sizes: a clear line, exit status 2, no run directory made
for bad in 10k abc total= -5M 1Q; do
    "$drdb" record -o bad --max-log-size "$bad" -- "$mpiexec" -n 1 "$prog" 0 4 0 \
        > bad.out 2> bad.err
    rc=$?
    if [ "$rc" = 2 ] && [ ! -e bad ] &&
            grep -q "^drdb: --max-log-size $bad: give a size of at least 1M" bad.err; then
        ok "--max-log-size $bad: refused before anything runs"
    else
        fail "--max-log-size $bad (rc $rc)"
        cat bad.err | sed 's/^/#   /'
        rm -rf bad
    fi
done

# ---- the warning: a 200 MB tmpfs, logs growing by several MB/s for 8 s:
# full within a minute at that rate, said while the run goes on
if unshare -m sh -c "mount -t tmpfs -o size=200m drdb-test '$tmp/per'" 2>/dev/null; then
    mkdir -p small
    unshare -m sh -c "mount -t tmpfs -o size=200m drdb-test '$tmp/small' &&
        '$drdb' record -o '$tmp/small/run' -- '$mpiexec' -n 2 '$prog' 8 131072 5000" \
        > warn.out 2> warn.err
    hasre "a rate that fills the disk: warned while the run goes on" warn.err \
        "^drdb: warning: the logs grow by [0-9.]* [kMG]*B/s; the disk holding $tmp/small/run has [0-9.]* [kMG]*B free: at this rate it is full in about [0-9]* s"
else
    skip "the disk warning: no private mount namespace with a tmpfs here (unshare -m needs CAP_SYS_ADMIN)"
fi

echo "1..$n"
exit $status
