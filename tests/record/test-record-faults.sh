#!/bin/bash
# The recorder when things go wrong: a rank killed with SIGKILL mid-run, and
# a disk that fills up (simulated with a file-size limit).
# usage: test-record-faults.sh DRDB MPIEXEC JACOBI
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; status=1; }
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }

# --- SIGKILL: rank 1 is killed while it runs; its log reads up to its last
# completed call.
"$drdb" record -o killed -- "$mpiexec" -n 4 "$jacobi" 40 100000000 > /dev/null 2> killed.err &
rec_pid=$!
victim=""
for _ in $(seq 100); do
    for p in $(pgrep -x jacobi); do
        if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx 'PMI_RANK=1'; then
            victim=$p
        fi
    done
    # Let it log a few hundred events first.
    [ -n "$victim" ] && [ -f killed/rank-1.log ] && sleep 0.5 && break
    sleep 0.1
done
check "found rank 1's process" '[ -n "$victim" ]'
[ -n "$victim" ] && kill -KILL "$victim"
wait $rec_pid
check "drdb record reports the launcher's failure" '[ $? != 0 ]'
"$drdb" log info killed > info 2>&1
check "rank 1's log is reported incomplete" 'grep -E "^1 .*incomplete" info'
"$drdb" log dump killed --rank 1 > dump1 2> dump1.err
check "rank 1's log dumps without error" '[ $? = 0 ] && [ ! -s dump1.err ]'
events=$(awk 'NR > 1 && !/^--/' dump1 | wc -l)
check "rank 1 logged many events before it died ($events)" '[ "$events" -gt 100 ]'
check "the dump ends with the reason" 'tail -1 dump1 | grep -q "incomplete"'
check "every logged Waitall has its 2 halo rows" \
    '[ "$(awk "\$2 == \"MPI_Waitall\" { print \$7 }" dump1 | sort -u)" = 640 ]'

# --- disk full: a 6 MiB file-size limit; SIGXFSZ ignored so writes fail
# with EFBIG like ENOSPC. The program must finish normally.
(
    trap '' XFSZ
    ulimit -f 6144
    exec "$drdb" record -o full -- "$mpiexec" -n 4 "$jacobi" 512 700
) > full.out 2> full.err
check "the program still exits 0 when the log cannot grow" '[ $? = 0 ]'
check "one clear warning per affected rank" 'grep -q "recording stops at event" full.err'
"$mpiexec" -n 4 "$jacobi" 512 700 > native.out
check "the program's output is unaffected" 'cmp -s full.out native.out'
"$drdb" log info full > finfo 2>&1
check "truncated logs are marked as such" 'grep -q "truncated (disk full)" finfo'
check "the ranks that fit are complete" 'grep -qE "^0 .* complete$" finfo'
r=$(awk '/truncated/ { print $1; exit }' finfo)
"$drdb" log dump full --rank "${r:-1}" > fdump 2>&1
check "a truncated log dumps, ending at the stop record" \
    '[ $? = 0 ] && grep -q "logging stopped here" fdump'

echo "1..$n"
exit $status
