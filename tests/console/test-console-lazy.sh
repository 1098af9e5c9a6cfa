#!/bin/sh
# Ranks not started yet (issue 21, part 3): `--start lazy` (and more than
# 64 ranks by default) puts the ranks in the session without a GDB; the
# commands that answer from the logs (status, events, match, queues, sql,
# check, graph) start none, and a command that needs a rank's GDB starts
# exactly the ranks it acts on: a breakpoint on ranks not started is
# checked in one rank's GDB and given to the others when they start; goto
# starts only its ranks; kill and restart; `set width` reaches a GDB
# started later. The GDBs alive are counted from outside (the console's
# gdb children), not taken from drdb's word. Each GDB's
# debug-file-directory. Expected lines and events come
# from jacobi.c and its loop's MPI calls.
# usage: test-console-lazy.sh DRDB MPIEXEC JACOBI JACOBI_SOURCE
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 jacobi=$3 src=$4
tmp=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; exec 3>&- 2>/dev/null;
      [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
n=0 status=0
batch() { _n=$1 _r=$2; shift 2; console_batch "$_n" "$tmp/$_r.run" "$@"; }

"$drdb" record -o "$tmp/jac.run" -- "$mpiexec" -n 4 "$jacobi" 16 3 \
    > /dev/null 2>&1 || fail "recording jacobi"
line() { grep -n "$1" "$src" | head -1 | cut -d: -f1; }
loop=$(line 'for (int i = 1; i <= rows; i++)')
isend=$(line 'MPI_Isend(&u\[1 \* n\]')
rowsl=$(line 'int rows = n / size')
at() { printf '%s' "main \(\) at .*jacobi\.c:$1([^0-9]|\$)"; }
# each rank: Init, Comm_rank, Comm_size, then per iteration Irecv, Irecv,
# Isend, Isend, Waitall, Allreduce: event 5 is the first iteration's Isend
# up (line $isend); 3 iterations, then Reduce, Finalize: 3 + 3 * 6 + 2
nev=23

# ---- the logs answer for ranks not started; no GDB starts for them
batch logs jac 0-3 --start lazy -- status "events @2 --count 3" \
    "match 1:3" "queues 2:5" "sql SELECT count(*) FROM events WHERE rank = 3" \
    "check --checks p2p.truncate" "graph --logical $tmp/g.svg" status
grep -q "^ranks 0-3 in the session, not started" "$tmp/logs" &&
    ok "--start lazy: the ranks are in the session, not started" ||
    fail "--start lazy: no banner saying the ranks are not started"
[ "$(grep -Ec "^[0-3] +not started +before 0/$nev " "$tmp/logs")" = 8 ] &&
    ok "status: each rank not started, before its event 0 of $nev (twice)" ||
    { fail "status of ranks not started"; sed 's/^/#   /' "$tmp/logs" | head -30; }
has_after logs "events @2 --count 3" "events: a rank not started stands before its event 0" \
    '^ +2 +0 +MPI_Init .*<= here$' '^ +2 +2 +MPI_Comm_size '
has_after logs "sql SELECT count(*) FROM events WHERE rank = 3" \
    "sql on a rank not started" "^ *$nev\$"
has_after logs "check --checks p2p.truncate" "check on ranks not started" \
    "^0 errors, 0 warnings, 0 portability$"
[ -s "$tmp/g.svg" ] && ok "graph draws ranks not started (at their event 0)" ||
    { fail "graph with ranks not started"; sed 's/^/#   /' "$tmp/logs.err"; }
if grep -q "starting rank" "$tmp/logs.err" || [ "$(rc logs)" != 0 ]; then
    fail "a command answered from the logs started a GDB (or failed)"
    sed 's/^/#   /' "$tmp/logs.err"
else
    ok "no command answered from the logs started a GDB"
fi

# ---- a breakpoint on ranks not started: checked in one GDB, the others
# get it when they start; goto, print start only their ranks
batch bp jac 0-3 --start lazy -- "break jacobi.c:$loop" status \
    "@2 continue" "@3 goto 5" status "info breakpoints" "print rank"
has_after bp "break jacobi.c:$loop" "break: one rank's GDB checks the place" \
    "^\[0\] Breakpoint 1 at 0x[0-9a-f]+: file .*jacobi\.c, line $loop\.\$" \
    '^\[1-3\] set when its GDB starts$'
[ "$(grep -c "^drdb: starting rank" "$tmp/bp.err")" -ge 1 ] &&
    grep -q "^drdb: starting rank 0 (to main)$" "$tmp/bp.err" &&
    ok "break started rank 0 alone" ||
    { fail "break: which ranks started"; sed 's/^/#   /' "$tmp/bp.err"; }
has_said bp "@2 continue" 2 "a rank started later has the breakpoint" \
    "^Breakpoint 1, main \(.*\) at .*jacobi\.c:$loop\$"
has_after bp "@3 goto 5" "goto starts its rank and runs it to the event" \
    "^\[3\] .*$(at "$isend")"
# the second status: 0 at main, 1 not started, 2 at the loop, 3 at event 5
st2=$(awk '$0 == "(drdb) status" { k++ } k == 2 && /^[0-3] /' "$tmp/bp")
echo "$st2" | grep -Eq "^1 +not started +before 0/$nev " &&
    echo "$st2" | grep -Eq "^3 +stopped +before 5/$nev " &&
    echo "$st2" | grep -Eq "^2 +stopped +after [0-9]+/$nev .*jacobi\.c:$loop" &&
    ok "status: only the ranks commands needed were started" ||
    { fail "status after break, continue, goto"; echo "$st2" | sed 's/^/#   /'; }
has_after bp "info breakpoints" "info breakpoints: each started rank's GDB's table" \
    '^1 +breakpoint +keep +y +0x[0-9a-f]+ +in main at .*jacobi\.c:'"$loop"'$' \
    '^\[1\] not started: breakpoint 1 set when its GDB starts$'
has_after bp "print rank" "print starts the rest of the focus" \
    '^\[2\] \$1 = 2$' '^\[3\] \$1 = 3$'
grep -q "^drdb: starting rank 1 (to main)$" "$tmp/bp.err" &&
    ok "print started the one rank left (1)" ||
    { fail "print: which ranks started"; sed 's/^/#   /' "$tmp/bp.err"; }

# ---- a place GDB does not know: no breakpoint, none promised
batch badbp jac 0-3 --start lazy -- "break no_such_function_xyz" \
    "info breakpoints"
grep -q "set when its GDB starts" "$tmp/badbp" &&
    fail "a refused breakpoint was promised to ranks not started" ||
    ok "a refused breakpoint is promised to no rank"
[ "$(rc badbp)" != 0 ] && ! grep -q "Breakpoint 1" "$tmp/badbp" &&
    ok "a refused breakpoint fails, with no number" ||
    { fail "refused breakpoint"; sed 's/^/#   /' "$tmp/badbp"; }

# ---- kill and restart a rank not started; set width in a later GDB
batch kr jac 0-3 --start lazy -- "@1 kill" "status @1" "@1 restart" \
    "set width 47" "@2 gdb show width"
has_after kr "status @1" "kill on a rank not started: killed, no GDB started" \
    '^1 +killed '
has_after kr "@1 restart" "restart brings a killed rank back to main" \
    "^\[1\] $(at "[0-9]+")"
has_after kr "@2 gdb show width" "set width reaches a GDB started later" \
    'Number of characters gdb thinks are in a line is 47'

# ---- each GDB reads no separate debug info of the system's libraries,
# unless --debug-file-directory says where (GDB's own setting)
batch dbg jac 0 -- "gdb show debug-file-directory"
batch dbg2 jac 0 --debug-file-directory=/usr/lib/debug -- \
    "gdb show debug-file-directory"
has_after dbg "gdb show debug-file-directory" "no debug-file-directory by default" \
    'separate debug symbols are searched for is ""'
has_after dbg2 "gdb show debug-file-directory" "--debug-file-directory DIR reaches GDB" \
    'separate debug symbols are searched for is "/usr/lib/debug"'

# ---- a soft limit of open files too low for the session's descriptors
# (a log a rank, about 5 for each GDB: more than 24 for 4 ranks): drdb
# raises its own, the programs keep the one they were given
(ulimit -Sn 24 && batch nofile jac 0-3 -- "print (int)getdtablesize()")
has_after nofile "print (int)getdtablesize()" \
    "open files: drdb raises its limit, the replayed programs keep 24" \
    '^\[0-3\] \$1 = 24$'

# ---- --start: a bad value, and main
"$drdb" console --start soon "$tmp/jac.run" < /dev/null > /dev/null \
    2> "$tmp/bad.err"
[ $? = 2 ] && grep -q "^drdb: --start takes 'main'" "$tmp/bad.err" &&
    ok "--start soon: an error saying the choices" ||
    { fail "--start soon"; sed 's/^/#   /' "$tmp/bad.err"; }
batch main jac 0-1 --start main -- status
[ "$(grep -Ec "^[01] +stopped +before 0/$nev .*jacobi\.c:" "$tmp/main")" = 2 ] &&
    ok "--start main: every rank stopped at main" ||
    { fail "--start main"; sed 's/^/#   /' "$tmp/main"; }

# ---- the GDBs alive, counted from outside: none until a command needs one
mkfifo "$tmp/in"
"$drdb" console --start lazy --ranks 0-3 "$tmp/jac.run" < "$tmp/in" \
    > "$tmp/live" 2>&1 &
pid=$!
exec 3> "$tmp/in"
# wait_for ERE: up to 60 s for a line of the console's output
wait_for() {
    i=0
    while [ $i -lt 600 ] && ! grep -Eq -- "$1" "$tmp/live"; do
        sleep 0.1; i=$((i + 1))
    done
}
gdbs() { pgrep -P "$pid" -x gdb | wc -l | tr -d ' '; }
echo "events @1 --count 1" >&3
wait_for '^ +1 +0 +MPI_Init'
[ "$(gdbs)" = 0 ] && ok "at the prompt, after events: no GDB process" ||
    fail "$(gdbs) GDB processes before any command needed one"
echo "print rows @2" >&3
wait_for '^\[2\] \$1 = '
[ "$(gdbs)" = 1 ] && ok "print @2: one GDB process" ||
    fail "print @2: $(gdbs) GDB processes"
echo "replay" >&3
wait_for '^\[0-1,3\]|^\[0,1,3\]|^\[0-3\]'
[ "$(gdbs)" = 4 ] && ok "replay: the four GDBs" ||
    fail "replay: $(gdbs) GDB processes"
echo quit >&3
exec 3>&-
wait "$pid"
pid=

# ---- Ctrl-C during `restart` of 16 ranks (jacobi with no iteration, 16
# ranks of 5 events): each rank is either restarted (at main) or not
# started, said once with the way to start it, never 'not replayed' (the
# restart ended every GDB first); the next command that needs them starts
# them. SIGINT is sent to drdb batch as the restart begins (a few tries,
# earlier each time, until one lands inside it).
"$drdb" record -o "$tmp/j16.run" -- "$mpiexec" -n 16 "$jacobi" 16 0 \
    > /dev/null 2>&1 || fail "recording jacobi at 16 ranks"
printf '%s\n' restart status "print argc" status > "$tmp/rs.drdb"
for delay in 0.1 0.05 0.02 0; do
    timeout 200 "$drdb" batch -k --ranks 0-15 --timeout 60 "$tmp/j16.run" \
        "$tmp/rs.drdb" > "$tmp/rs" 2> "$tmp/rs.err" &
    pid=$!
    for _ in $(seq 1200); do
        grep -q '^replaying ranks 0-15' "$tmp/rs" 2>/dev/null && break
        sleep 0.02
    done
    sleep $delay
    kill -INT "$pid"
    wait "$pid"
    pid=
    grep -q '^drdb: interrupted: ' "$tmp/rs.err" && break
done
left=$(sed -n "s/^drdb: interrupted: ranks* \([0-9,-]*\) not started (\([0-9]*\); each starts when a command needs it, 'replay @\1' now)\$/\2/p" "$tmp/rs.err")
if [ -z "$left" ]; then
    fail "Ctrl-C during restart: no try interrupted it (or it did not say which ranks it left)"
    sed 's/^/#   /' "$tmp/rs.err" | tail -8
else
    ok "Ctrl-C during restart: the ranks not restarted named, with 'replay @SET' ($left)"
fi
batch_after rs status > "$tmp/rs.st"
[ "$(grep -Ec '^[0-9]+ +stopped +(before )?0/5 +main \(\) at ' "$tmp/rs.st")" = \
    $((16 - ${left:-16})) ] &&
    [ "$(grep -Ec '^[0-9]+ +not started +(before )?0/5 ' "$tmp/rs.st")" = "${left:-x}" ] &&
    ok "Ctrl-C during restart: each rank at main or not started" ||
    { fail "Ctrl-C during restart: status"; sed 's/^/#   /' "$tmp/rs.st"; }
if grep -q 'not replayed' "$tmp/rs.st"; then
    fail "Ctrl-C during restart: no rank left 'not replayed'"
else
    ok "Ctrl-C during restart: no rank left 'not replayed'"
fi
# (argc at main: the same on every rank, one merged answer; rank is not
# set yet there)
has_after rs "print argc" "after Ctrl-C: the next command starts them all" \
    '^\[0-15\] \$[0-9]+ = [0-9]+$'
[ "$(batch_every rs status | grep -Ec '^[0-9]+ +stopped +(before )?0/5 +main \(\) at ')" \
    = $((16 + 16 - ${left:-16})) ] &&
    ok "after Ctrl-C: every rank at main once a command needed it" ||
    { fail "after Ctrl-C: status"; batch_every rs status | sed 's/^/#   /'; }

echo "1..$n"
exit $status
