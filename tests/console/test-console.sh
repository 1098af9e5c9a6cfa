#!/bin/sh
# The console in batch mode, on recorded runs of examples/jacobi (4 ranks,
# a 16x16 grid: 4 rows per rank, 3 iterations). Expected answers come from
# what the program must compute, written by hand.
# usage: test-console.sh DRDB MPIEXEC JACOBI JACOBI_SOURCE CRASH DIVERGE ANYSOURCE
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 jacobi=$3 src=$4 crash=$5 diverge=$6 anysource=$7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
# batch NAME [OPTIONS] -- SCRIPT-LINES...: runs them; output in $tmp/NAME.
batch() {
    name=$1
    shift
    opts=
    while [ "$1" != -- ]; do opts="$opts $1"; shift; done
    shift
    printf '%s\n' "$@" > "$tmp/$name.drdb"
    # shellcheck disable=SC2086
    timeout 120 "$drdb" batch --ranks 0-3 --timeout 60 $opts "$tmp/jac" \
        "$tmp/$name.drdb" > "$tmp/$name" 2> "$tmp/$name.err"
    echo $? > "$tmp/$name.rc"
    srcpaths "$tmp/$name"
}
rc() { cat "$tmp/$1.rc"; }

"$drdb" record -o "$tmp/jac" -- "$mpiexec" -n 4 -outfile-pattern "$tmp/jac.%r" \
    "$jacobi" 16 3 > /dev/null 2>&1 || fail "recording jacobi"
# The final sum the real run printed (under mpiexec, not drdb).
final=$(grep '^final sum' "$tmp/jac.0")
line=$(grep -n 'double local = 0.0;' "$src" | cut -d: -f1)
after=$(( $(grep -n 'MPI_Allreduce(&local' "$src" | cut -d: -f1) + 1 ))

# ---- stopping, printing, merging
batch basic -- "break jacobi.c:$line" continue "print size" "print rows" \
    "print first" "print up" "@1-2 print down" status delete \
    "tbreak jacobi.c:$after" continue "print global" "print local" continue
hasre "break, continue: every rank stops at the line, in GDB's words" \
    "$tmp/basic" \
    "^\[0-3\] Breakpoint 1 at 0x[0-9a-f]*: file SRC/examples/jacobi\.c, line $line\.\$" \
    "^\[0-3\] Continuing\.\$" \
    "^Breakpoint 1, main (argc=3, argv=0x[0-9a-f]*) at SRC/examples/jacobi\.c:$line\$" \
    "^$line	"
has "identical answers merge" "$tmp/basic" "[0-3] \$1 = 4" "[0-3] \$2 = 4"
has "different answers stay apart" "$tmp/basic" \
    "[0] \$3 = 0" "[1] \$3 = 4" "[2] \$3 = 8" "[3] \$3 = 12"
has "MPI_PROC_NULL above rank 0" "$tmp/basic" "[0] \$4 = -1" "[1] \$4 = 0" \
    "[2] \$4 = 1" "[3] \$4 = 2"
has "@SET: one command on a set" "$tmp/basic" "[1] \$5 = 2" "[2] \$5 = 3"
# After the first MPI_Allreduce every rank holds the sum of the squared
# changes: only global row 1 changed, by 0.25 in its 14 inner points,
# which are rank 0's: 14 x 0.0625 = 0.875 (residual sqrt(0.875) =
# 9.3541434669e-01, what rank 0 prints). The received data was replayed.
# (ranks 1 and 2 printed one more value: their history numbers differ
# from 0's and 3's, shown as $*)
has "received data is replayed: the Allreduce result on every rank" \
    "$tmp/basic" "[0-3] \$* = 0.875" "[0] \$6 = 0.875" "[1-3] \$* = 0"
# Init, Comm_rank, Comm_size, 2 Irecv, 2 Isend, Waitall: events 0-7 are
# done; 3 + 3 x 6 + Reduce + Finalize = 23 events.
has "status: where the rank stands in its log" "$tmp/basic" \
    "0     stopped      after 7/23             main () at SRC/examples/jacobi.c:$line, breakpoint"
has "program output, prefixed by its rank; the end in GDB's words" \
    "$tmp/basic" "[0] $final" "[0-3] [Inferior 1 (process *) exited normally]"
[ "$(grep -c '^\[0\] iteration [0-2] residual' "$tmp/basic")" = 3 ] &&
    ok "rank 0 printed its 3 residuals" || fail "rank 0's residual lines"
[ "$(rc basic)" = 0 ] && ok "batch exit status 0" || fail "batch exit $(rc basic)"

# ---- rank sets
batch sets -- "break jacobi.c:$line" continue "@0-2&1-3 print rank" "@all!(1,2) print rank" "defset ends 0,3" \
    "@ends print rank * 2" "focus 1" "print rank" "info sets" "@0-9 print rank"
has "intersection, difference, named sets, focus" "$tmp/sets" \
    "[1] \$1 = 1" "[2] \$1 = 2" "[0] \$1 = 0" "[3] \$1 = 3" \
    "[0] \$2 = 0" "[3] \$2 = 6" "focus: 1" "[1] \$2 = 1" "ends = 0,3"
has "a bad set: a caret under the bad character" "$tmp/sets.err" \
    "drdb: bad rank set: 0-9" "drdb:                 ^ no such rank in this run"
[ "$(rc sets)" = 1 ] && ok "a failed command fails the batch" ||
    fail "batch exit $(rc sets) after a bad set"

# ---- merge off, expand, assert, backtrace
batch more -- "break jacobi.c:$line" continue "set merge off" "print size" \
    "set merge on" "print rows * 0 + rank / 2" "expand 2-3" "backtrace" \
    "assert rows == 4" "assert rank == 0"
has "merge off, expand, backtrace" "$tmp/more" \
    "[0] \$1 = 4" "[3] \$1 = 4" "[0,1] \$2 = 0" \
    "[2,3] \$2 = 1" "[2] \$2 = 1" \
    "[0-3] assert rows == 4: true"
# backtrace: GDB's frame numbers and arguments
grep -q "^\[0-3\] #0  main (argc=3, argv=0x[0-9a-f]*) at .*jacobi\.c:$line\$" "$tmp/more" &&
    ok "backtrace: frame number and arguments" || fail "backtrace"
has "a failed assert names the ranks and values" "$tmp/more" \
    "[1] assert rank == 0 failed: 0" "[3] assert rank == 0 failed: 0"
[ "$(rc more)" = 1 ] && ok "a failed assert fails the batch" ||
    fail "batch exit $(rc more) after a failed assert"

# ---- every command family, briefly
printf '%s\n' "print rows * 100" > "$tmp/nested.drdb"
batch fam -- "break jacobi.c:$line" continue next "ptype rows" "whatis global" \
    "display rows" "list jacobi.c:1,1" "frame" "set var rows = 7" "print rows" \
    "tbreak jacobi.c:$after" "info breakpoints" "advance jacobi.c:$after" \
    "source $tmp/nested.drdb" "@3 drop" "status" "replay @3" "@3 print rank" \
    "@2 restart" "@2 print rows" "gdb echo hi\\n"
has "next, ptype, whatis, display, list, frame, set var, source" "$tmp/fam" \
    "[0-3] $((line + 1))	$(sed -n "$((line + 1))p" "$src")" \
    "[0-3] type = int" "[0-3] type = double" "[0-3] 1: rows = 4" \
    "[0-3] 1	/*" "[0-3] \$1 = 7" "[0-3] \$2 = 700"
hasre "tbreak, info breakpoints (GDB's table), advance" "$tmp/fam" \
    "^2       breakpoint     del  y   0x[0-9a-f]* in main at SRC/examples/jacobi\.c:$after\$" \
    "^Temporary breakpoint 2, main (argc=3, argv=0x[0-9a-f]*) at SRC/examples/jacobi\.c:$after\$" \
    "^$after	"
has "drop, replay, restart, gdb" "$tmp/fam" \
    "3     not replayed -/23                   " \
    "[3] main () at SRC/examples/jacobi.c:20" \
    "[2] main () at SRC/examples/jacobi.c:20" "[0-3] hi"
grep -q "^#0  main (argc=3, argv=0x[0-9a-f]*) at SRC/examples/jacobi.c:$((line + 1))\$" "$tmp/fam" &&
    ok "frame (a multi-line answer under its tag)" || fail "frame"

# ---- MPI events. jacobi's events: 0 MPI_Init, 1 Comm_rank, 2 Comm_size,
# then per iteration 2 Irecv, 2 Isend, Waitall, Allreduce (3-8, 9-14,
# 15-20), 21 Reduce, 22 Finalize.
irecv=$(grep -n 'MPI_Irecv(&u\[0\]' "$src" | cut -d: -f1)
allred=$(( after - 1 ))
sizel=$(grep -n 'MPI_Comm_size(MPI_COMM_WORLD' "$src" | cut -d: -f1)
isend2=$(grep -n 'MPI_Isend(&u\[rows \* n\]' "$src" | cut -d: -f1)
batch ev -- "goto 8" "print it" next-event "until-call MPI_Allreduce" \
    "print it" status "goto 3" "prev-event" "@1 next-event 4" "backtrace" \
    "goto-collective 0:14"
has "goto: every rank just before the event, in the program's frame" "$tmp/ev" \
    "[0-3] main () at SRC/examples/jacobi.c:$allred, before event 8 (MPI_Allreduce)" \
    "[0-3] \$1 = 0" \
    "[0-3] main () at SRC/examples/jacobi.c:$irecv, before event 9 (MPI_Irecv)" \
    "[0-3] main () at SRC/examples/jacobi.c:$allred, before event 14 (MPI_Allreduce)" \
    "[0-3] \$2 = 1"
has "status: before the event, of the total" "$tmp/ev" \
    "2     stopped      before 14/23           main () at SRC/examples/jacobi.c:$allred in MPI_Allreduce"
has "backward: goto and prev-event re-run from the start" "$tmp/ev" \
    "[0-3] re-running from the start of the log" \
    "[0-3] main () at SRC/examples/jacobi.c:$irecv, before event 3 (MPI_Irecv)" \
    "[0-3] main () at SRC/examples/jacobi.c:$sizel, before event 2 (MPI_Comm_size)" \
    "[1] main () at SRC/examples/jacobi.c:$isend2, before event 6 (MPI_Isend)"
grep -q "^\[0,2,3\] #[0-9]*  0x[0-9a-f]* in main (argc=3, argv=0x[0-9a-f]*) at .*jacobi\.c:$sizel\$" "$tmp/ev" &&
    grep -q "^\[1\] #[0-9]*  0x[0-9a-f]* in main (argc=3, argv=0x[0-9a-f]*) at .*jacobi\.c:$isend2\$" "$tmp/ev" &&
    ok "backtrace at events: the program's frame under the MPI call" ||
    fail "backtrace at events"
# Rank 0's event 14 is the second MPI_Allreduce: every replayed member to
# its own call of that instance (event 14 at every rank here).
has "goto-collective: every member at the same instance" "$tmp/ev" \
    "[0-3] main () at SRC/examples/jacobi.c:$allred, before event 14 (MPI_Allreduce)"

# A divergence shows as the rank's state, stopped at the offending call
# (diverge.c's MPI_Send, its line from the source).
dsend=$(grep -n 'MPI_Send(buf, n, MPI_INT, 1, 5' \
    "$(dirname "$0")/../replay/diverge.c" | cut -d: -f1)
"$drdb" record -o "$tmp/dv" -- "$mpiexec" -n 2 "$diverge" same > /dev/null 2>&1
printf '%s\n' continue backtrace "print i" status > "$tmp/dv.drdb"
"$drdb" batch -k --ranks 0 "$tmp/dv" "$tmp/dv.drdb" -- "$diverge" count \
    > "$tmp/dvo" 2> "$tmp/dve"
dvrc=$?
srcpaths "$tmp/dvo"
has "divergence: state, report, the program's frame" "$tmp/dvo" \
    "[0] diverged at main () at SRC/tests/replay/diverge.c:$dsend: rank 0: event 4 (MPI_Send): replay diverged: argument 'count' differs: the log has MPI_Send(count=8, datatype=MPI_INT, dest=1, tag=5, comm=MPI_COMM_WORLD), the program called MPI_Send(count=7, datatype=MPI_INT, dest=1, tag=5, comm=MPI_COMM_WORLD)" \
    "[0] \$1 = 2"
grep -q "^#[0-9]*  0x[0-9a-f]* in main (.*) at .*diverge\.c:$dsend\$" "$tmp/dvo" &&
    ok "divergence: the program's frame in the backtrace" ||
    fail "divergence backtrace"
grep -q '^0     diverged ' "$tmp/dvo" && [ $dvrc = 1 ] &&
    ok "status shows 'diverged'; the batch fails" || fail "diverged status/exit $dvrc"
# the console's line above says it all, where in the program's words: the
# stub's own report (its raw 'called from OBJECT+0xOFFSET') is not printed
if grep -q 'drdb-replay' "$tmp/dvo" "$tmp/dve"; then
    fail "divergence: the stub's own report is not repeated"
    grep 'drdb-replay' "$tmp/dvo" "$tmp/dve" | sed 's/^/#   /'
else
    ok "divergence: the stub's own report is not repeated"
fi

# ---- following a message: rank 0 of examples/anysource receives with
# MPI_ANY_SOURCE; ranks 1-3 each send it 3 messages (events 3, 4, 5 of the
# sender: after Init, Comm_rank, Comm_size). Which sender each receive got
# is what MPI's status said (the recorded peer column); the k-th message
# from S is S's event 3 + k.
"$drdb" record -o "$tmp/any" -- "$mpiexec" -n 4 "$anysource" 3 > /dev/null 2>&1
"$drdb" log dump "$tmp/any" --rank 0 | awk '$2 == "MPI_Recv" { print $1, $3 }' \
    > "$tmp/recvs"
# The 5th receive (rank 0's event 7): its source and that source's k.
ev=$(sed -n 5p "$tmp/recvs" | cut -d' ' -f1)
srcr=$(sed -n 5p "$tmp/recvs" | cut -d' ' -f2)
k=$(head -n 4 "$tmp/recvs" | awk -v s="$srcr" '$2 == s' | wc -l)
send=$((3 + k))
printf '%s\n' "goto $ev" "match 0:$ev" "goto-send 0:$ev" "@$srcr print rank" \
    "queues" "events --count 3" > "$tmp/any.drdb"
"$drdb" batch --ranks 0 "$tmp/any" "$tmp/any.drdb" > "$tmp/anyo" 2> "$tmp/anye"
srcpaths "$tmp/anyo"
has "match: a receive's send, from the rank MPI's status named" "$tmp/anyo" \
    "rank 0 event $ev MPI_Recv from $srcr tag 7 <- rank $srcr event $send MPI_Send (8 bytes)"
sendline=$(grep -n 'MPI_Send(&v' "$anysource.c" 2>/dev/null | cut -d: -f1)
grep -q "^\[$srcr\] starting the replay\$" "$tmp/anyo" &&
    grep -Eq "^\[$srcr\] main \(\) at .*anysource.c:[0-9]+, before event $send \(MPI_Send\)\$" "$tmp/anyo" &&
    ok "goto-send: the sender started and stopped before its send" ||
    { fail "goto-send"; sed 's/^/#   /' "$tmp/anyo" | tail -12; }
has "the receiver stays before its receive; the sender's state" "$tmp/anyo" \
    "[$srcr] \$1 = $srcr"
grep -q "^messages sent to rank 0 before event $ev (or concurrently) and not received before it: " "$tmp/anyo" &&
    grep -Eq "^ *0 +$ev  MPI_Recv .*  <= here\$" "$tmp/anyo" &&
    ok "queues and events at the rank's position" ||
    { fail "queues/events"; sed 's/^/#   /' "$tmp/anyo" | tail -12; }
# queues R:N: before any rank's event N, replayed or not; a rank with no
# position is an error (its argument was once ignored: rank 0's queues)
printf '%s\n' "queues 2:1" "@2 queues" > "$tmp/anyq.drdb"
"$drdb" batch -k --ranks 0 "$tmp/any" "$tmp/anyq.drdb" > "$tmp/anyq" 2>&1
grep -q "^rank 2 before event 1 (MPI_Comm_rank)$" "$tmp/anyq" &&
    grep -q "^messages sent to rank 2 before event 1 (or concurrently) and not received before it: 0$" "$tmp/anyq" &&
    ! grep -q "^rank 0 before" "$tmp/anyq" &&
    grep -q "^drdb: rank 2 has no position (not replayed, or not stopped): 'queues 2:N' shows its queues before its event N$" "$tmp/anyq" &&
    ok "queues R:N at that event; @R queues with no position: an error" ||
    { fail "queues R:N"; sed 's/^/#   /' "$tmp/anyq" | tail -12; }

# ---- JSON
batch json --json -- "print 6 * 7" "@0 print rank"
has "--json: one object per command" "$tmp/json" \
    '{"command": "print 6 * 7", "ranks": "0-3", "ok": true, "results": [{"ranks": "0-3", "text": "$1 = 42"}]}' \
    '{"command": "@0 print rank", "ranks": "0", "ok": true, "results": [{"ranks": "0", "text": "$2 = 0"}]}'

# ---- the command table
batch help -k -- help "help break" "co" "frobnicate" "help print" "help all"
has "help from the table" "$tmp/help" \
    "usage: [@SET] break [LOCATION] [if CONDITION]" "a breakpoint on every rank of the set"
# (GDB's words, as 'gdb -batch -ex "help print"' prints them: no rank tag)
has "help of a GDB command: GDB's, once" "$tmp/help" "print, inspect, p" \
    "Print value of expression EXP."
has "help all: GDB's classes, then the console's commands" "$tmp/help" \
    "Command class: breakpoints" "Command class: drdb, the console's own" \
    "sql -- an SQL query over the run's events, matches, collectives, communicators (docs/queries.md)"
hasre "ambiguous and unknown commands: the console's and GDB's" "$tmp/help.err" \
    "^drdb: ambiguous command 'co', could be: commands condition continue .*core-file" \
    '^drdb: undefined command: "frobnicate": neither the console.s nor GDB.s'
[ "$(grep -c '^  ' "$tmp/help")" -ge 30 ] && ok "help lists the commands" ||
    fail "help lists $(grep -c '^  ' "$tmp/help") commands"
# options after RUNDIR (and SCRIPT) are options: here rank 2 alone; a
# stray argument is refused, naming '--' for a program
printf 'status\n' > "$tmp/st.drdb"
"$drdb" batch "$tmp/jac" "$tmp/st.drdb" --ranks 2 > "$tmp/after" 2>&1
grep -q '^2  *stopped' "$tmp/after" && ! grep -q '^[013]  *stopped' "$tmp/after" &&
    ok "batch RUNDIR SCRIPT --ranks 2: rank 2 alone" ||
    { fail "batch RUNDIR SCRIPT --ranks 2"; sed 's/^/#   /' "$tmp/after"; }
"$drdb" console "$tmp/jac" stray > "$tmp/stray" 2>&1 < /dev/null
[ $? = 2 ] && grep -q "what is 'stray'? a program to replay instead of the recorded one goes after '--'" "$tmp/stray" &&
    ok "console RUNDIR stray: refused" ||
    { fail "console RUNDIR stray: refused"; sed 's/^/#   /' "$tmp/stray"; }
# every command answers --help with its help, and does nothing else
batch helpopt -- "break --help" "status --help" "events --help" \
    "@1 continue --help" "status"
has "CMD --help: as 'help CMD'" "$tmp/helpopt" \
    "usage: [@SET] break [LOCATION] [if CONDITION]" \
    "usage: [@SET] status" \
    "usage: [@SET] events [--from N] [--count K] [--call NAME] [--peer P] [--tag T]" \
    "usage: [@SET] continue [N] [&]"
grep -q "^[0-3] *stopped" "$tmp/helpopt" && ! grep -q "exited" "$tmp/helpopt" &&
    [ "$(cat "$tmp/helpopt.rc")" = 0 ] && ok "CMD --help: runs nothing" ||
    { fail "CMD --help: runs nothing"; sed 's/^/#   /' "$tmp/helpopt" | tail; }

# ---- @SET on breakpoints: '@1 delete 1' takes breakpoint 1 off rank 1
# alone (the others keep it, and keep it after a re-run); a command on a
# whole breakpoint refuses a narrower @SET; '@1 info breakpoints' lists
# rank 1's
batch bset -k -- "break jacobi.c:$line" "@1 delete 1" "info breakpoints" \
    "@1 info breakpoints" "@1 disable 1" continue status restart continue \
    status
after() { batch_after "$1" "$2"; }
after bset "info breakpoints" > "$tmp/bset1"
grep -q "^\[0,2,3\]\$" "$tmp/bset1" &&
    grep -Eq "^1 +breakpoint +keep +y +0x[0-9a-f]+ in main at SRC/examples/jacobi.c:$line\$" "$tmp/bset1" &&
    ! grep -q "^\[[0-9,-]*1[0-9,-]*\]" "$tmp/bset1" &&
    ok "@1 delete 1: breakpoint 1 on ranks 0,2,3" ||
    { fail "@1 delete 1: breakpoint 1 on ranks 0,2,3"; sed 's/^/#   /' "$tmp/bset1"; }
has "@1 info breakpoints: none on rank 1" "$tmp/bset" \
    "No breakpoints or watchpoints."
has "@1 disable 1: refused, saying why" "$tmp/bset.err" \
    "drdb: breakpoint 1 is on ranks 0,2,3: 'disable' acts on all of them ('@SET delete 1' takes it off some ranks)"
for k in 1 2; do
    awk -v c="(drdb) status" '$0 == c { k++; on = (k == '$k'); next }
        /^\(drdb\) / { on = 0 } on' "$tmp/bset" > "$tmp/bset.st$k"
    grep -Eq "^1 +exited " "$tmp/bset.st$k" &&
        [ "$(grep -Ec "^[023] +stopped .*jacobi.c:$line, breakpoint\$" "$tmp/bset.st$k")" = 3 ] &&
        ok "continue ($k): rank 1 runs past the line, 0,2,3 stop there" ||
        { fail "continue ($k): rank 1 past, 0,2,3 at the line"; sed 's/^/#   /' "$tmp/bset.st$k"; }
done

# ---- a lost GDB: its rank is marked lost, the others go on
batch lost -k -- "break jacobi.c:$line" continue '@1 gdb shell kill -9 $PPID' \
    "status" "@0,2-3 print rank"
has "a killed GDB: only its rank is lost" "$tmp/lost" \
    "[0] \$1 = 0" "[2] \$1 = 2" "[3] \$1 = 3"
has "--keep-going runs the whole script" "$tmp/lost" "(drdb) status"
grep -q '^1     lost ' "$tmp/lost" && ok "status shows the lost rank" ||
    fail "status after a lost GDB"
[ "$(rc lost)" = 1 ] && ok "a lost rank fails the batch" ||
    fail "batch exit $(rc lost) with a lost rank"

# ---- a hung GDB (stopped by SIGSTOP): the command times out, only its rank
# is lost
printf '%s\n' "break jacobi.c:$line" continue '@1 gdb shell kill -STOP $PPID' \
    "status" "@0,2-3 print rank" > "$tmp/hung.drdb"
timeout 120 "$drdb" batch -k --ranks 0-3 --timeout 5 "$tmp/jac" "$tmp/hung.drdb" \
    > "$tmp/hung" 2> "$tmp/hung.err"
hrc=$?
grep -q "rank 1 is lost: its GDB did not answer" "$tmp/hung.err" &&
    grep -q '^1     lost ' "$tmp/hung" && grep -qxF "[2] \$1 = 2" "$tmp/hung" &&
    [ $hrc = 1 ] && ok "a hung GDB: its rank is lost after --timeout, the others answer" ||
    { fail "hung GDB (exit $hrc)"; sed 's/^/#   /' "$tmp/hung.err" "$tmp/hung" | tail -12; }

# ---- bad runs
"$drdb" batch "$tmp" /dev/null > /dev/null 2> "$tmp/e"
[ $? != 0 ] && grep -q "not a drdb run directory" "$tmp/e" &&
    ok "not a run: a clear error" || fail "not a run"
"$drdb" console --batch -x /dev/null --ranks 0-7 "$tmp/jac" > /dev/null 2> "$tmp/e"
[ $? = 2 ] && grep -q "no such rank in this run" "$tmp/e" &&
    ok "--ranks beyond the run: refused" || fail "--ranks 0-7"

# ---- a command that never completes hits --timeout; interrupt stops it
# (6 s: on a loaded machine GDB may take seconds to answer the continue)
record_killed "$drdb" "$mpiexec" "$crash" 2 "$tmp/cr" 2
printf '%s\n' continue "status" "set timeout 0" interrupt "status" > "$tmp/to.drdb"
timeout 60 "$drdb" batch -k --ranks 1 --timeout 6 "$tmp/cr" "$tmp/to.drdb" \
    > "$tmp/to" 2> "$tmp/to.err"
grep -q "timed out after 6000 ms" "$tmp/to.err" &&
    ok "a rank that never stops: the command times out" ||
    { fail "timeout"; sed 's/^/#   /' "$tmp/to.err" "$tmp/to" "$tmp/cr.out.1" | tail -20; }
grep -q '^Program received signal SIGINT, Interrupt\.$' "$tmp/to" &&
    grep -q '^1     stopped .*, interrupted$' "$tmp/to" &&
    ok "interrupt stops the rank, in GDB's words" ||
    { fail "interrupt after a timeout"; sed 's/^/#   /' "$tmp/to" | tail -12; }

# ---- at the end of its log, a rank's queues name the call it was in when
# the recorded rank was killed: rank 0's MPI_Sendrecv of crash.c's loop
# (to its right, from its left: rank 1 of 2, tag 1), not '(?)'
printf '%s\n' continue queues > "$tmp/eq.drdb"
timeout 120 "$drdb" batch -k --ranks 0 --timeout 60 "$tmp/cr" "$tmp/eq.drdb" \
    > "$tmp/eq" 2> "$tmp/eq.err"
has_after eq queues "queues at the end of the log: the call in progress" \
    '^rank 0 at the end of its log, in MPI_Sendrecv\(dest 1, tag 1, source 1, recvtag 1, MPI_COMM_WORLD\) \(the call the recorded rank never returned from\)$' \
    '^messages sent to rank 0 and not received by the end of its log: 0$' \
    '^pending requests of rank 0 at the end of its log: 0$'
if grep -q 'drdb-replay' "$tmp/eq" "$tmp/eq.err"; then
    fail "end of log: the stub's own report is not repeated"
    grep 'drdb-replay' "$tmp/eq" "$tmp/eq.err" | sed 's/^/#   /'
else
    ok "end of log: the stub's own report is not repeated"
fi
hasre "end of log: where, in the program's words" "$tmp/eq" \
    "^\[0\] end of log (the recorded rank stopped here) at main () at .*crash\.c:[0-9]*: rank 0: event [0-9]* (MPI_Sendrecv): the log ends here"
if batch_every eq queues | grep -qF '(?)'; then
    fail "queues at the end of the log: no '(?)'"
else
    ok "queues at the end of the log: no '(?)'"
fi

echo "1..$n"
exit $status
