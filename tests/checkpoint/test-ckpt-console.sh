#!/bin/sh
# Checkpoints under GDB through the console, on recorded runs of
# tests/checkpoint/ckpt-mpi.c (state in every kind of memory, changed phase
# by phase between MPI calls; check_all(P) counts the regions not in phase
# P's state):
#  - for each backend, a checkpoint at every event (in memory, in files)
#    leaves the replay's output as recorded;
#  - for each backend: checkpoint where the rank stopped, run on, roll back:
#    every region, the backtrace, and the output of running forward again
#    as the first time;
#  - a rank with checkpoints stops before it exits, to go back still;
#  - automatic checkpoints: goto and prev-event go back through them;
#  - a shadow: its checkpoint restored into the foreground (a jump forward
#    without running) gives the variables running forward gives;
#  - faults: rollback while running, an unknown id, the memory cap, a
#    truncated shadow file: a clear error and the session goes on.
# usage: test-ckpt-console.sh DRDB MPIEXEC CKPT_MPI
set -u
drdb=$1 mpiexec=$2 prog=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
show() { sed 's/^/#   /' "$@" | tail -25; }
# batch NAME RUN [OPTIONS] -- SCRIPT-LINES...: output in $tmp/NAME(.err).
batch() {
    name=$1 run=$2
    shift 2
    opts=
    while [ "$1" != -- ]; do opts="$opts $1"; shift; done
    shift
    printf '%s\n' "$@" > "$tmp/$name.drdb"
    # shellcheck disable=SC2086
    timeout 120 "$drdb" batch --timeout 60 $opts "$tmp/$run" \
        "$tmp/$name.drdb" > "$tmp/$name" 2> "$tmp/$name.err"
    echo $? > "$tmp/$name.rc"
    srcpaths "$tmp/$name"
}
rc() { cat "$tmp/$1.rc"; }

"$drdb" record -o "$tmp/run" -- "$mpiexec" -n 2 -outfile-pattern "$tmp/out.%r" \
    "$prog" > /dev/null 2>&1 || fail "recording ckpt-mpi"
grep -q "rank 0 phase 4 sum 9 check 0" "$tmp/out.0" || fail "ckpt-mpi's own run"

# ---- a checkpoint at every event changes nothing the program sees
for b in uffd mprotect full; do
    mkdir "$tmp/files-$b"
    DRDB_CKPT_BACKEND=$b DRDB_CKPT_EVERY=1 "$drdb" replay --rank 0 "$tmp/run" \
        > "$tmp/every-$b" 2> "$tmp/every-$b.err"
    rc=$?
    DRDB_CKPT_BACKEND=$b DRDB_CKPT_EVERY=1 DRDB_CKPT_DIR=$tmp/files-$b \
        "$drdb" replay --rank 0 "$tmp/run" > "$tmp/everyf-$b" 2>&1
    rc2=$?
    if [ $rc = 0 ] && [ $rc2 = 0 ] && cmp -s "$tmp/every-$b" "$tmp/out.0" &&
        [ "$(ls "$tmp/files-$b" | wc -l)" = 6 ]; then
        ok "$b: a checkpoint at every event, in memory and in files: the same run"
    else
        fail "$b: replay with checkpoints (exit $rc, $rc2)"
        show "$tmp/every-$b" "$tmp/every-$b.err" "$tmp/everyf-$b"
    fi
done

# DRDB_CKPT_EVENTS: exactly at the events listed, in any order
mkdir "$tmp/chosen"
DRDB_CKPT_EVENTS=5,2,3 DRDB_CKPT_DIR=$tmp/chosen "$drdb" replay --rank 0 \
    "$tmp/run" > "$tmp/chosen.out" 2>&1
if cmp -s "$tmp/chosen.out" "$tmp/out.0" &&
    [ "$(ls "$tmp/chosen" | wc -l)" = 3 ]; then
    ok "checkpoints at chosen events"
else
    fail "DRDB_CKPT_EVENTS"
    show "$tmp/chosen.out"
    ls "$tmp/chosen" | sed 's/^/#   /'
fi

# ---- each backend: checkpoint anywhere, roll back, run forward again
for b in uffd mprotect full; do
    DRDB_CKPT_BACKEND=$b batch $b run -- "replay @0" \
        "break marker if p == 2" continue "assert check_all(2) == 0" \
        checkpoint checkpoints delete "break marker if p == 4" continue \
        "assert check_all(4) == 0" "rollback 1" "assert phase == 2" \
        "assert check_all(2) == 0" "assert newmap != 0" backtrace status \
        delete continue
    if [ "$(rc $b)" = 0 ]; then
        ok "$b: every region of the checkpoint back (asserts passed)"
    else
        fail "$b: batch failed (exit $(rc $b))"
        show "$tmp/$b" "$tmp/$b.err"
    fi
    # where it stopped before the checkpoint
    # ("Breakpoint 1, marker (p=2) at FILE:LINE": GDB's report)
    at=$(sed -n 's/^Breakpoint 1, marker (p=2)\( at .*\)$/\1/p' "$tmp/$b" | head -1)
    has "$b: the rank stops where the checkpoint was, backtrace and all" \
        "$tmp/$b" "[0] checkpoint 1 (after event 2)" \
        "[0] marker ()$at, rolled back to checkpoint 1 (after event 2)" \
        "#0  marker (p=2)$at"
    # What it prints after the rollback: phases 2-4, as the real run did.
    sed -n '/rollback 1/,$p' "$tmp/$b" | sed -n 's/^\[0\] \(rank 0 phase .*\)/\1/p' \
        > "$tmp/$b.again"
    grep "phase [234]" "$tmp/out.0" > "$tmp/$b.want"
    if cmp -s "$tmp/$b.again" "$tmp/$b.want"; then
        ok "$b: run forward again, the same output as the first time"
    else
        fail "$b: output after the rollback"
        show "$tmp/$b.again"
    fi
done

# ---- @SET arguments; after a checkpoint or a rollback to one, the next
# command starts as from a normal stop (no second hit of the breakpoint)
batch sets run --ranks 0 -- "replay @1" "@0,1 break marker" "@0,1 continue" \
    "checkpoint @1" "@1 next" "checkpoints @1" "rollback @1 1" "@1 next" \
    "shadow @1" "shadow @1 wait" "rollback @1 s2" "@1 status"
if [ "$(rc sets)" = 0 ] &&
    [ "$(sed -n '/^(drdb) checkpoint @1/,$p' "$tmp/sets" |
        grep -c '^Breakpoint ')" = 0 ] &&
    [ "$(grep -c '^main (argc=1, argv=0x[0-9a-f]*) at .*ckpt-mpi\.c:[0-9]*$' "$tmp/sets")" = 2 ] &&
    grep -qxF "[1] checkpoint 1 (after event 1)" "$tmp/sets" &&
    grep -Eq '^\[1\] marker .*, rolled back to checkpoint 1 \(after event 1\)$' "$tmp/sets" &&
    grep -Eq '^\[1\] main \(\) at .*, rolled back to checkpoint s2 \(before event 2\)$' "$tmp/sets"; then
    ok "@SET for checkpoint, checkpoints, rollback, shadow; next steps on after both"
else
    fail "@SET / next after a checkpoint (exit $(rc sets))"
    show "$tmp/sets" "$tmp/sets.err"
fi

# ---- a checkpoint before an event (the program's frame selected, the pc
# in the stub), run to the end: the rank stops before it exits, and can
# still go back
batch atexit run -- "goto 3" checkpoint continue "rollback 1" \
    "assert phase == 2" continue continue
if [ "$(rc atexit)" = 0 ] &&
    grep -qxF 'The program is about to exit (its checkpoints can still be restored; continue ends it).' \
        "$tmp/atexit" && ! grep -q Catchpoint "$tmp/atexit" &&
    grep -Eq '^\[0\] \[Inferior 1 \(process [0-9]+\) exited normally\]$' "$tmp/atexit" &&
    [ "$(grep -c '^\[0\] rank 0 phase 4 sum 9 check 0$' "$tmp/atexit")" = 2 ] &&
    ! grep -q SIGSEGV "$tmp/atexit"; then
    ok "checkpoint before an event, run to the end: stopped before exit, rolled back, run again"
else
    fail "checkpoint before an event / at exit (exit $(rc atexit))"
    show "$tmp/atexit" "$tmp/atexit.err"
fi

# ---- before an event, next steps over the MPI call in the program's code
# (not into the stub's frames)
call=$(grep -n 'MPI_Allreduce(&local' "$(dirname "$0")/ckpt-mpi.c" | cut -d: -f1)
batch nextover run -- "goto 2" next
after=$(sed -n "s/^\[0\] \([0-9]*\)$(printf '\t').*/\1/p" "$tmp/nextover")
if grep -qxF "[0] main () at SRC/tests/checkpoint/ckpt-mpi.c:$call, before event 2 (MPI_Allreduce)" \
        "$tmp/nextover" && [ -n "$after" ] && [ "$after" -gt "$call" ]; then
    ok "next after goto: on to a later line of main (line $after)"
else
    fail "next after goto"
    show "$tmp/nextover"
fi

# ---- every register comes back: general, SSE, AVX, AVX-512 when present
regs="r12 xmm5.v2_int64[1]"
grep -qw avx /proc/cpuinfo && regs="$regs ymm7.v4_int64[3]"
grep -qw avx512f /proc/cpuinfo && regs="$regs zmm20.v8_int64[6] k3"
set --
for x in $regs; do set -- "$@" "print \$$x = 4242"; done
set -- "$@" checkpoint
for x in $regs; do set -- "$@" "print \$$x = 7"; done
set -- "$@" "rollback 1"
for x in $regs; do set -- "$@" "print \$$x"; done
batch regs run -- "break marker" continue "$@"
good=1
for x in $regs; do
    # (the value history: \$1.. set, \$N+1.. set again, then read)
    [ "$(grep -Ec '^\[0\] \$[0-9]+ = 4242$' "$tmp/regs")" = \
        "$(($(echo "$regs" | wc -w) * 2))" ] || good=0
done
if [ "$(rc regs)" = 0 ] && [ $good = 1 ]; then
    ok "registers restored by a rollback: $regs"
else
    fail "registers ($regs)"
    show "$tmp/regs" "$tmp/regs.err"
fi

# ---- automatic checkpoints: goto and prev-event go back through them
# (set once the ranks run: the first checkpoint at the next MPI call)
batch auto run --ranks 0-1 -- "set checkpoint-every 2" "goto 6" checkpoints \
    "goto 3" "assert phase == 2" "assert check_all(2) == 0" prev-event \
    "assert phase == 1" status
if [ "$(rc auto)" = 0 ]; then ok "goto back: asserts passed"; else
    fail "goto back (exit $(rc auto))"; show "$tmp/auto" "$tmp/auto.err"; fi
has "goto and prev-event roll back to the nearest checkpoint" "$tmp/auto" \
    "[0] rolling back to checkpoint 2 (event 2)" \
    "[1] rolling back to checkpoint 2 (event 2)"
if grep -Eq '^\[0,1\] main \(\) at .*ckpt-mpi.c:[0-9]+, before event 2 \(MPI_Allreduce\)$' \
    "$tmp/auto"; then
    ok "prev-event: before the previous event, in the program's frame"
else
    fail "prev-event's stop"
    show "$tmp/auto"
fi
if grep -q "re-running from the start" "$tmp/auto"; then
    fail "goto back re-ran from the start"
else
    ok "nothing re-ran from the start"
fi
if grep -Eq '^  1 +0 +[0-9.]+ +[0-9]+ +[0-9.]+ [KM]iB +automatic, full$' "$tmp/auto" &&
    grep -Eq '^  2 +2 +[0-9.]+ +[0-9]+ +[0-9.]+ [KM]iB +automatic$' "$tmp/auto" &&
    grep -Eq '^  3 +4 .*automatic$' "$tmp/auto"; then
    ok "checkpoints lists id, event, time, pages, size, kind"
else
    fail "checkpoints listing"
    show "$tmp/auto"
fi

# ---- a shadow: jump forward to its checkpoint, as if run there
vars="print phase,print local,print sum,print grown_len,print check_all(2),print stack[77]"
IFS=,
# shellcheck disable=SC2086
batch shadow run -- "replay @0" shadow "shadow wait" status checkpoints \
    "rollback s3" $vars
# shellcheck disable=SC2086
batch forward run -- "replay @0" "goto 3" $vars
unset IFS
if [ "$(rc shadow)" = 0 ] && [ "$(rc forward)" = 0 ]; then ok "shadow session"; else
    fail "shadow (exit $(rc shadow) $(rc forward))"; show "$tmp/shadow" "$tmp/shadow.err"; fi
has "the shadow's progress in status" "$tmp/shadow" \
    "      shadow: finished (status 0), 6 checkpoints, latest before event 6 of 7"
has "the foreground jumped forward to the shadow's checkpoint" "$tmp/shadow" \
    "[0] main () at SRC/tests/checkpoint/ckpt-mpi.c:$(grep -n 'MPI_Allreduce(&local' "$(dirname "$0")/ckpt-mpi.c" | cut -d: -f1), rolled back to checkpoint s3 (before event 3)"
sed -n '/^(drdb) rollback s3/,$p' "$tmp/shadow" | grep '^\[0\] \$[0-9]* = ' \
    > "$tmp/sh.a"
sed -n '/^(drdb) goto 3/,$p' "$tmp/forward" | grep '^\[0\] \$[0-9]* = ' \
    > "$tmp/sh.b"
if [ "$(wc -l < "$tmp/sh.a")" = 6 ] && cmp -s "$tmp/sh.a" "$tmp/sh.b" &&
    grep -qxF "[0] \$1 = 2" "$tmp/sh.a"; then
    ok "a shadow's checkpoint gives the variables running forward gives"
else
    fail "shadow vs forward"
    show "$tmp/sh.a" "$tmp/sh.b"
fi

# ---- faults
"$drdb" record -o "$tmp/slow" -- "$mpiexec" -n 1 "$prog" 3 > /dev/null 2>&1 ||
    fail "recording the slow run"
batch running slow -k -- "replay @0" "checkpoint" "continue &" "rollback 1" \
    interrupt "rollback 1" "assert phase == 0" "rollback 9" "print phase"
at=$(sed -n 's/^\[0\] \(main () at .*\)$/\1/p' "$tmp/running" | head -1)
has "rollback while running: refused, then done once stopped" "$tmp/running" \
    "[0] $at, rolled back to checkpoint 1 (before event 0)"
if grep -q "drdb: rank 0 is running: interrupt it first" "$tmp/running.err" &&
    grep -q "drdb: rank 0: no rollback to 9: no checkpoint 9" "$tmp/running.err" &&
    grep -qxF "[0] \$1 = 0" "$tmp/running"; then
    ok "clear errors (running, unknown id); the session went on"
else
    fail "rollback faults"
    show "$tmp/running" "$tmp/running.err"
fi
[ -z "$(batch_after running "rollback 9")" ] &&
    ok "  ... a refused rollback says nothing more (the rank did not move)" ||
    fail "  ... a refused rollback printed: $(batch_after running "rollback 9")"

DRDB_CKPT_MEM=1 batch cap run -k -- "replay @0" "break marker" continue \
    checkpoint "print phase"
if grep -q "rank 0: no checkpoint: checkpoint memory cap reached: .*DRDB_CKPT_MEM" \
    "$tmp/cap.err" && grep -qxF "[0] \$1 = 1" "$tmp/cap"; then
    ok "memory cap exhausted: a clear error, the session goes on"
else
    fail "memory cap"
    show "$tmp/cap" "$tmp/cap.err"
fi

mkdir "$tmp/sh"
TMPDIR=$tmp/sh batch badfile run -k -- "replay @0" shadow "shadow wait" \
    "gdb shell truncate -s 8192 $tmp/sh/drdb-shadow-*/rank-0/ckpt-000003.drdbck" \
    "rollback s3" "print phase" "rollback s4" "print phase" "rollback s99"
if grep -q "rank 0: .*ckpt-000003.drdbck: truncated" "$tmp/badfile.err" &&
    grep -qxF "[0] \$1 = 0" "$tmp/badfile"; then
    ok "a truncated shadow file: refused, the rank stays where it was"
else
    fail "truncated shadow file"
    show "$tmp/badfile" "$tmp/badfile.err"
fi
grep -qxF "drdb: rank 0: no rollback to s99: its shadow wrote no checkpoint s99 ('checkpoints @0' lists them)" \
    "$tmp/badfile.err" && ok "a shadow checkpoint that was never written: said so" ||
    { fail "rollback s99"; show "$tmp/badfile.err"; }
# s4 is built on s3: refused as well, naming the damaged file.
if [ "$(grep -c "ckpt-000003.drdbck: truncated" "$tmp/badfile.err")" = 2 ] &&
    [ "$(grep -cE '^\[0\] \$[12] = 0$' "$tmp/badfile")" = 2 ]; then
    ok "a checkpoint built on the damaged one: refused, naming it"
else
    fail "chain with a damaged file"
    show "$tmp/badfile" "$tmp/badfile.err"
fi

echo "1..$n"
exit $status
