#!/bin/sh
# The session's state survives what drdb does behind the user's back, and
# ranks end as they really ended (issue 14): breakpoints, watchpoints and
# displays in every new GDB of a rank (restart, a backward goto, a rank
# started later), `delete N` after a re-run, next-event from between two
# MPI calls, goto stopping at a breakpoint on its way, a rank killed by a
# signal, the end of a rank's log, the batch's exit status, `status`.
# Expected answers come from the programs' sources (line numbers are looked
# up there), never from drdb's own output.
# usage: test-console-session.sh DRDB MPIEXEC JACOBI JACOBI_SOURCE CRASH
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 jacobi=$3 src=$4 crash=$5
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
n=0 status=0
# batch NAME RUN RANKS [OPTIONS] -- SCRIPT-LINES...: on $tmp/RUN.run
# (tests/lib.sh's console_batch).
batch() { _n=$1 _r=$2; shift 2; console_batch "$_n" "$tmp/$_r.run" "$@"; }

"$drdb" record -o "$tmp/jac.run" -- "$mpiexec" -n 4 "$jacobi" 16 3 \
    > /dev/null 2>&1 || fail "recording jacobi"
loc=$(grep -n 'double local = 0.0;' "$src" | cut -d: -f1)
allred=$(grep -n 'MPI_Allreduce(&local' "$src" | cut -d: -f1)
rowsl=$(grep -n 'int rows = n / size' "$src" | cut -d: -f1)
at() { printf '%s' "main \(\) at .*jacobi\.c:$1([^0-9]|\$)"; }
# hit N LINE: GDB's report of breakpoint N stopping main at jacobi.c:LINE.
hit() { printf '%s' "^Breakpoint $1, main \(.*\) at .*jacobi\.c:$2\$"; }
exited='^\[Inferior 1 \(process [0-9]+\) exited normally\]$'

# ---- 1, 2: action points and displays belong to the session
batch keep jac 0-3 -- "break jacobi.c:$loc if it == 1" continue "display it" \
    "@1 restart" "@1 continue" "break jacobi.c:$allred" "delete 1" \
    "@1 continue" "goto 3" continue "disable 2" "@2 restart" "@2 continue" \
    "@3 watch rows" "@3 restart" "@3 continue" "info breakpoints" \
    "info display" "undisplay 1" "@0 continue"
has_said keep "@1 continue" 1 \
    "restart: the new GDB has the breakpoint, its condition, the display" \
    "$(hit 1 "$loc")" '^1: it = 1$'
said keep "@1 continue" 1 | grep -Eq "$(hit 2 "$allred")" &&
    ok "delete 1 after a restart left breakpoint 2 in place (rank 1 stops there)" ||
    { fail "delete 1 after a restart deleted another breakpoint"; sed 's/^/#   /' "$tmp/keep" | tail -20; }
has_said keep "continue" 0-3 "a backward goto re-runs with every breakpoint" \
    "$(hit 2 "$allred")" '^1: it = 0$'
has_said keep "@2 continue" 2 "a disabled breakpoint stays disabled in a new GDB" \
    "$exited"
has_said keep "@3 continue" 3 "a watchpoint survives a restart" \
    '^Hardware watchpoint 3: rows$' '^Old value = 0$' '^New value = 4$' \
    "^main \(.*\) at .*jacobi\.c:($rowsl|$((rowsl + 1)))\$"
# (GDB's table on each rank: rank 2 exited, its GDB answers too, its
# breakpoint 2 never hit in that GDB; rank 3 has the watchpoint;
# breakpoint 1 deleted everywhere)
has_said keep "info breakpoints" 0,1 "info breakpoints after re-runs" \
    '^2 +breakpoint +keep +n +0x[0-9a-f]+ +in main at .*jacobi\.c:'"$allred"'$' \
    '^	breakpoint already hit 1 time$'
has_said keep "info breakpoints" 2 "  ... an exited rank's" \
    '^2 +breakpoint +keep +n +0x[0-9a-f]+ +in main at .*jacobi\.c:'"$allred"'$'
has_said keep "info breakpoints" 3 "  ... the watchpoint on its rank" \
    '^2 +breakpoint +keep +n +0x[0-9a-f]+ +in main at .*jacobi\.c:'"$allred"'$' \
    '^3 +hw watchpoint +keep +y +rows$'
batch_after keep "info breakpoints" | grep -Eq '^1 ' &&
    fail "info breakpoints: the deleted breakpoint 1 still listed" ||
    ok "  ... not the deleted breakpoint"
batch_after keep "info display" | grep -Eq '^1: +y +it$' &&
    ok "info display" || fail "info display: $(batch_after keep "info display")"
has_said keep "@0 continue" 0 "undisplay: no display at the next stop" \
    "$exited"
batch_every keep "@0 continue" | grep -q ': it = ' &&
    fail "undisplay: still displayed" || ok "undisplay: not shown any more"

# Ranks started later get what was set on every replayed rank, not what
# was set on some.
batch later jac 0-1 -- "break jacobi.c:$allred" "@0 break jacobi.c:$loc" \
    "replay @2" "@2 continue" "info breakpoints" status
has_said later "@2 continue" 2 "a rank started later gets the all-ranks breakpoint only" \
    "$(hit 1 "$allred")"
has_said later "info breakpoints" 0 "info breakpoints: rank 0 has both" \
    '^1 +breakpoint +keep +y +0x[0-9a-f]+ +in main at .*jacobi\.c:'"$allred"'$' \
    '^2 +breakpoint +keep +y +0x[0-9a-f]+ +in main at .*jacobi\.c:'"$loc"'$'
has_said later "info breakpoints" 2 "  ... the later rank the all-ranks one" \
    '^1 +breakpoint +keep +y +0x[0-9a-f]+ +in main at .*jacobi\.c:'"$allred"'$'
said later "info breakpoints" 2 | grep -q '^2 ' &&
    fail "  ... and rank 0's too" || ok "  ... not rank 0's"
has_after later "status" "status shows every replayed rank, not only the focus" \
    '^2 +stopped +after 7/23 '
# A sender goto-send starts gets them too (rank 1's event 7 is its
# Waitall: its messages come from ranks 0 and 2).
batch gsend jac 1 -- "break jacobi.c:$allred" "goto 7" "goto-send 1:7" \
    "@0 continue" "info breakpoints"
has_said gsend "@0 continue" 0 "a sender goto-send started gets the all-ranks breakpoint" \
    "$(hit 1 "$allred")"
has_said gsend "info breakpoints" 1,2 "  ... and so does the other" \
    '^1 +breakpoint +keep +y +0x[0-9a-f]+ +in main at .*jacobi\.c:'"$allred"'$'

# ---- 5: next-event from between two calls; goto stops at a breakpoint on
# its way (as GDB's advance), not at those a re-run passes behind the user
# (jacobi: event 8 is the first Allreduce, 14 the second).
batch nev jac 0-3 -- "break jacobi.c:$loc" continue next-event "goto 14" \
    "goto 14" "goto 3"
has_after nev "next-event" "next-event between calls: the next event, not the one after" \
    "^\[0-3\] $(at "$allred").*before event 8 \(MPI_Allreduce\)$"
has_said nev "goto 14" 0-3 "goto stops at a breakpoint on its way" \
    "$(hit 1 "$loc")"
has_after nev "goto 3" "a backward goto passes breakpoints behind the user" \
    "before event 3 \(MPI_Irecv\)$"

# ---- 4, 7, 8: how ranks end. tests/progs/crash segv: rank 1 dies by
# SIGSEGV in iteration 1; rank 0's log ends in its next call (the job was
# torn down).
"$drdb" record -o "$tmp/seg.run" -- "$mpiexec" -n 2 "$crash" segv 1 > /dev/null 2>&1
batch seg seg 0-1 -k -- continue continue status
has_after seg "continue" "the end of a log is not a divergence" \
    '^\[0\] end of log \(the recorded rank stopped here\)'
has_said seg "continue" 1 "  ... the signal, in GDB's words" \
    '^Program received signal SIGSEGV, Segmentation fault\.$'
has_after seg "status" "status: killed by a signal, not exited with status 0" \
    '^1 +exited .*killed by signal SIGSEGV$'
[ "$(rc seg)" != 0 ] && grep -q "rank 1 ended abnormally" "$tmp/seg.err" &&
    ok "a rank killed by a signal fails the batch" ||
    fail "batch exit $(rc seg) with a rank killed by SIGSEGV"
batch segok seg 0-1 -- continue continue '@1 assert $_exitsignal == 11' \
    '@0 assert $_exitcode == 98'
[ "$(rc segok)" = 0 ] && ok "an assert on how a rank ended accepts it" ||
    { fail "batch exit $(rc segok) after asserting the ends"; sed 's/^/#   /' "$tmp/segok.err" | tail; }
batch seg1 seg 1 -- continue continue
[ "$(rc seg1)" != 0 ] && ok "a batch whose only rank is killed by a signal fails" ||
    fail "batch exit $(rc seg1) with its rank killed by SIGSEGV"
batch seg0 seg 0 -- continue status
grep -Eq '^0 +end of log ' "$tmp/seg0" && [ "$(rc seg0)" != 0 ] &&
    ok "status: end of log; it fails the batch" ||
    { fail "end of log in status (exit $(rc seg0))"; sed 's/^/#   /' "$tmp/seg0" | tail; }

# ---- a command GDB refuses: its error is the command's, not the rank's
batch fin jac 0 -k -- finish status
# (stopped at main's start: no breakpoint of the user's)
has_after fin "status" "status after a refused finish: where the rank stands" \
    "^0 +stopped +before 0/23 +main \(\) at .*jacobi\.c:20\$"
batch_every fin status | grep -q 'not meaningful' &&
    fail "GDB's error became the rank's where" || ok "GDB's error is not the rank's where"
[ "$(rc fin)" != 0 ] && grep -q "fin.drdb:1: 'finish' failed" "$tmp/fin.err" &&
    grep -q '^\[0\] "finish" not meaningful in the outermost frame\.$' "$tmp/fin" &&
    ok "a refused finish fails, with GDB's error" ||
    fail "refused finish: exit $(rc fin)"

# ---- status: killed and not replayed ranks; a lost rank comes back
batch st jac 0-2 -k -- "@2 kill" status '@1 gdb shell kill -9 $PPID' \
    "print 1" "replay @1" "@1 print 6 * 7" "@2 restart" status "@3 status"
has_after st "@2 restart" "restart brings a killed rank back" "^\[2\] $(at 20)"
has_after st "@1 print 6 * 7" "replay brings a lost rank back (a new GDB: \$1)" \
    '^\[1\] \$1 = 42$'
grep -Eq '^2 +killed ' "$tmp/st" && ok "status: killed" || fail "status: killed"
grep -Eq '^3 +not replayed ' "$tmp/st" && ok "status: not replayed" ||
    fail "status: not replayed"

echo "1..$n"
exit $status
