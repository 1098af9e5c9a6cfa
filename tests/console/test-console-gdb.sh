#!/bin/sh
# GDB habits that carry over to the console, on tests/progs/habits (2
# ranks): stops reported in GDB's words (a step's source line, finish's
# "Run till exit" and returned value, a watchpoint's old and new values),
# backtrace with GDB's frame numbers and arguments (frame N, up N), step
# over an MPI call as over any library call, the replay stub's statics
# never answering for the program's names, and break at a place no rank
# knows refused in GDB's words. Expected answers come from the program's
# source and what it computes (square(6) = 36, square(7) = 49).
# usage: test-console-gdb.sh DRDB MPIEXEC HABITS HABITS_SOURCE
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 habits=$3 src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
# batch NAME SCRIPT-LINES...: runs them (-k) on ranks 0-1; output in
# $tmp/NAME, stderr in $tmp/NAME.err, exit status in $tmp/NAME.rc.
batch() {
    name=$1
    shift
    printf '%s\n' "$@" > "$tmp/$name.drdb"
    timeout 120 "$drdb" batch -k --ranks 0-1 --timeout 60 "$tmp/run" \
        "$tmp/$name.drdb" > "$tmp/$name" 2> "$tmp/$name.err"
    echo $? > "$tmp/$name.rc"
}
# line MARK: the number of the source line holding "mark:MARK".
line() { grep -n "/\* mark:$1 \*/" "$src" | cut -d: -f1; }
# src_line MARK: that line as GDB shows it ("33<TAB>    int sq = ...").
src_line() { l=$(line "$1"); printf '%s\t%s' "$l" "$(sed -n "${l}p" "$src")"; }

"$drdb" record -o "$tmp/run" -- "$mpiexec" -n 2 \
    -outfile-pattern "$tmp/run.%r" "$habits" > /dev/null 2>&1 ||
    fail "recording habits"
[ "$(cat "$tmp/run.0")" = "rank 0: sum 85 types 7" ] ||
    fail "habits under mpiexec: $(cat "$tmp/run.0")"

# ---- stops in GDB's words
batch stops "break square" continue next finish "watch counter" continue \
    continue delete finish
has "next: the source line, not end-stepping-range" "$tmp/stops" \
    "[0,1] $(src_line return)"
hasre "finish: where it runs till, per rank" "$tmp/stops" \
    "^Run till exit from #0  square (reqs=6) at .*habits\.c:$(line return)\$" \
    "^Run till exit from #0  square (reqs=7) at .*habits\.c:$(line return)\$"
has "finish: the caller's line and the value returned" "$tmp/stops" \
    "$(src_line square)" 'Value returned is $1 = 36' 'Value returned is $1 = 49'
has "a watchpoint: its number, old and new values, then the line" \
    "$tmp/stops" "[0,1] Hardware watchpoint 2: counter" \
    "Hardware watchpoint 2: counter" "Old value = 1" "New value = 2" \
    "Old value = 2" "New value = 3" "$(src_line mpi)"
hasre "a refused finish: GDB's error, not the last stop's report" \
    "$tmp/stops" '^\[0,1\] "finish" not meaningful in the outermost frame\.$'
[ "$(grep -c '^Value returned' "$tmp/stops")" = 2 ] &&
    ok "  ... and no second report of the first finish" ||
    fail "  ... and no second report of the first finish"
if grep -q 'end-stepping-range\|function-finished\|watchpoint-trigger' \
    "$tmp/stops"; then
    fail "MI reasons shown: $(grep -m1 'range\|finished\|trigger' "$tmp/stops")"
else
    ok "no MI reason in the stop reports"
fi

# ---- step over an MPI call, as over a function without line information
batch step "break habits.c:$(line mpi)" continue step "print sum" \
    "tbreak MPI_Finalize" continue backtrace finish
has "step at an MPI call: the next line of the program" "$tmp/step" \
    "[0,1] $(src_line after)" "[0,1] \$1 = 85"
hasre "a breakpoint in the stub on purpose: its frame shown, finish returns" \
    "$tmp/step" \
    "^Temporary breakpoint 2, 0x[0-9a-f]* in [P]*MPI_Finalize () from .*libmpich\.so\.12\$" \
    "^#0  0x[0-9a-f]* in [P]*MPI_Finalize () from .*libmpich\.so\.12\$" \
    "^Run till exit from #0 .*MPI_Finalize () from .*libmpich\.so\.12\$"
hasre "finish from the stub: back in main" "$tmp/step" \
    "^main (argc=1, argv=0x[0-9a-f]*) at .*habits\.c:[0-9]*\$"

# ---- finish at an event (goto): the MPI call the rank stands in is
# finished, as GDB finishes a frame, back in the program's line
# (the call is its line's last instruction: main at the next line's start)
batch gfin "goto 2" finish "print sum"
hasre "finish after goto: GDB's finish of the MPI call, back in main" \
    "$tmp/gfin" \
    "^Run till exit from #[0-9]*  0x[0-9a-f]* in [P]*MPI_Allreduce () from .*libmpich\.so\.12\$" \
    "^main (argc=1, argv=0x[0-9a-f]*) at .*habits\.c:$(line after)\$"
has "  ... the call made: its result there" "$tmp/gfin" "[0,1] \$1 = 85"

# ---- backtrace: GDB's frame numbers and arguments; frame N, up N
batch bt "break square" continue backtrace "frame 1" "up 1" "print sq" \
    "goto 2" where "bt 2"
hasre "backtrace: #N and the arguments, merged into a tree" "$tmp/bt" \
    "^\[0,1\] #1  0x[0-9a-f]* in main (argc=1, argv=0x[0-9a-f]*) at .*habits\.c:$(line square)\$" \
    "^\[0\]   \`- #0  square (reqs=6) at .*habits\.c:[0-9]*\$" \
    "^\[1\]   \`- #0  square (reqs=7) at .*habits\.c:[0-9]*\$"
[ "$(grep -c "^#1  0x[0-9a-f]* in main (argc=1, argv=0x[0-9a-f]*) at .*habits\.c:$(line square)\$" "$tmp/bt")" = 2 ] &&
    ok "frame 1 and up 1: the frame the backtrace numbered 1" ||
    fail "frame 1 / up 1: $(grep -c '^#1 ' "$tmp/bt") answers"
# At an event the rank is inside the stub: its frames are summed up under
# the MPI function the program called, not left out (asked with `where`,
# GDB's other name for backtrace).
hasre "at an event: the MPI call the rank is in, with the stub's frames" \
    "$tmp/bt" \
    "^#[0-9]*  0x[0-9a-f]* in [P]*MPI_Allreduce () from .*libmpich\.so\.12 \[and [0-9]* inner frames* of the replay stub\]\$" \
    "^#[0-9]*  0x[0-9a-f]* in main (argc=1, argv=0x[0-9a-f]*) at .*habits\.c:$(line mpi)\$"
# `bt 2` there: two frames, the MPI call and main, the stub's not counted
sed -n '/^(drdb) bt 2$/,$p' "$tmp/bt" > "$tmp/bt2"
grep -q "in [P]*MPI_Allreduce () from .*inner frames* of the replay stub" "$tmp/bt2" &&
    grep -q "in main (argc=1" "$tmp/bt2" &&
    ok "bt 2 at an event: the MPI call and main (the stub's frames not counted)" ||
    { fail "bt 2 at an event: the MPI call and main"; sed 's/^/#   /' "$tmp/bt2"; }

# ---- the replay stub's statics never answer for the program's names
batch names "print results" "ptype reqs" "print types" "print comms[1]" \
    "break square" continue next "print results" "print reqs" "print types"
has "at main: names the program does not have are not the stub's" \
    "$tmp/names" '[0,1] No symbol "results" in current context.' \
    '[0,1] No symbol "reqs" in current context.'
has "at main: the program's globals named like the stub's statics" \
    "$tmp/names" "[0,1] \$1 = 7" "[0,1] \$2 = 2.5"
has "in a frame of the program: its locals and globals" "$tmp/names" \
    "[0] \$3 = 36" "[1] \$3 = 49" "[0] \$4 = 6" "[1] \$4 = 7"
[ "$(grep -c '^\[0,1\] \$[15] = 7$' "$tmp/names")" = 2 ] &&
    ok "a global from another frame" || fail "types from square()"

# ---- break at a place no rank knows: GDB's error, nothing left behind
batch brk "break nosuch" "break nosuchfile.c:3" \
    "break $(line mpi) if nosuchvar > 1" "watch nosuchvar" "info breakpoints" \
    "break square" "delete 1" "info breakpoints"
has "GDB's words for an unknown function, file, symbol" "$tmp/brk" \
    '[0,1] Function "nosuch" not defined.' \
    '[0,1] No source file named nosuchfile.c.' \
    '[0,1] No symbol "nosuchvar" in current context.'
[ "$(grep -c '^No breakpoints or watchpoints.$' "$tmp/brk")" = 2 ] &&
    grep -q "^\[0,1\] Breakpoint 1 at 0x[0-9a-f]*: file .*habits.c, line [0-9]*\.\$" "$tmp/brk" &&
    ok "refused breakpoints are not listed; the next is number 1" ||
    fail "info breakpoints after refused ones: $(grep -A3 'info breakpoints' "$tmp/brk" | head -8)"
[ "$(cat "$tmp/brk.rc")" = 1 ] && ok "a refused break fails the batch" ||
    fail "batch exit $(cat "$tmp/brk.rc") after refused breaks"

# ---- a watchpoint on a local, then a re-run (goto back): the new process
# cannot watch it from main, so it is deleted, as GDB deletes one whose
# block the program left; said once for both ranks, and gone from the table
batch wre "break square" continue "watch results" "goto 1" "info breakpoints"
has "a re-run deletes a local's watchpoint, said once in GDB's words" \
    "$tmp/wre" '[0,1] Watchpoint 2 deleted: the new process cannot watch it from main: No symbol "results" in current context.'
batch_after wre "info breakpoints" | grep -q 'watchpoint' &&
    fail "  ... still listed: $(batch_after wre "info breakpoints")" ||
    ok "  ... not listed any more"

# ---- run: GDB's run, from the start of the log on to the first stop
# (the breakpoint in square again, whose argument is the rank's 6 or 7)
batch rerun "break square" continue next run
has_after rerun run "run: 'Starting program:', then the breakpoint, as GDB runs" \
    "^\[0,1\] Starting program: .*habits \\(the replay of the recorded rank, from the start of its log\\)\$" \
    "^Breakpoint 1, square \\(reqs=6\\) at .*habits\.c:[0-9]*\$" \
    "^Breakpoint 1, square \\(reqs=7\\) at .*habits\.c:[0-9]*\$"

echo "1..$n"
exit $status
