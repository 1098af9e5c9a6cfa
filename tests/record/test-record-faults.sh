#!/bin/bash
# The recorder when things go wrong: a rank killed with SIGKILL mid-run, and
# a disk that fills up (simulated with a file-size limit).
# usage: test-record-faults.sh DRDB MPIEXEC JACOBI
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }

# --- SIGKILL: rank 1 is killed while it runs; its log reads up to its last
# completed call.
"$drdb" record -o killed -- "$mpiexec" -n 4 "$jacobi" 40 100000000 > /dev/null 2> killed.err &
rec_pid=$!
# Rank 1's pid is in its log header (offset 40): no guessing among the
# machine's other processes.
victim=""
for _ in $(seq 300); do
    # Once it has logged a few hundred events (a running rank's log reads
    # fine: it just ends early).
    if [ -s killed/rank-1.log ] &&
       [ "$("$drdb" log dump killed --rank 1 2>/dev/null | wc -l)" -gt 300 ]; then
        victim=$(od -An -t d4 -j 40 -N 4 killed/rank-1.log | tr -d ' ')
        break
    fi
    sleep 0.1
done
check "found rank 1's process in its log header" '[ -n "$victim" ] && [ "$victim" -gt 0 ]'
[ -n "$victim" ] && kill -KILL "$victim"
# Watchdog: the launcher must end once a rank died; never hang the suite.
( sleep 60; touch hung; pkill -KILL -P $rec_pid; kill -KILL $rec_pid ) > /dev/null 2>&1 &
watchdog=$!
wait $rec_pid
rec_status=$?
kill $watchdog 2>/dev/null
check "the launcher ends once a rank is killed" '[ ! -e hung ]'
check "drdb record reports the launcher's failure" '[ $rec_status != 0 ]'
"$drdb" log info killed > info 2>&1
check "rank 1's log is reported incomplete" 'grep -qE "^1 .*incomplete" info'
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
    exec "$drdb" record -o full -- "$mpiexec" -n 4 "$jacobi" 1024 400
) > full.out 2> full.err
rc=$?
# The program runs to its end (its output below is unaffected), but the
# recording is not whole: drdb record says which ranks were cut, exit 1
# (issue 15: it used to exit 0 here).
check "drdb record exits 1 when a log could not grow" '[ $rc = 1 ]'
check "  ... naming the truncated ranks" \
    'grep -qE "^drdb: ranks? [0-9,-]+: truncated \(disk full\)" full.err'
check "one clear warning per affected rank" 'grep -q "recording stops at event" full.err'
"$mpiexec" -n 4 "$jacobi" 1024 400 > native.out
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
