#!/bin/sh
# A replay that dies, and a program without symbols:
#  - dies-after.c's rank 1 dereferences NULL after its MPI_Send, recorded
#    so (its log ends at its last completed call); replayed alone, the
#    replay names the event it died after, the MPI call last made and the
#    source line of the fault (the stub's fatal-signal handler); the same
#    program calling abort(), or passing NULL to strlen: the program's
#    line that called into libc, not libc's;
#  - a stripped copy of an MPI program (no main symbol) replayed in drdb
#    batch: the rank starts before its first MPI call, saying why, runs
#    to a breakpoint on an MPI function and to its end, with `status`.
# usage: test-replay-death.sh DRDB MPIEXEC DIES_AFTER DIES_AFTER_C PROG
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 dies=$3 dies_c=$4 prog=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
show() { sed 's/^/#   /' "$@" | head -20; }

# ---- a rank that dies ------------------------------------------------------
"$drdb" record -o "$tmp/dies" -- "$mpiexec" -n 2 "$dies" \
    > "$tmp/dies.rec" 2>&1
line=$(grep -n '; /\* dies here' "$dies_c" | cut -d: -f1)
"$drdb" replay --rank 1 "$tmp/dies" > "$tmp/dies.out" 2> "$tmp/dies.err"
rc=$?
# Rank 1's events: MPI_Init 0, MPI_Comm_rank 1, MPI_Barrier 2, MPI_Send 3.
if [ $rc = 139 ] &&
    grep -q 'rank 1: killed by signal 11 (SIGSEGV) between events 3 and 4 (the last MPI call: MPI_Send)$' "$tmp/dies.err"; then
    ok "a rank killed by SIGSEGV: the events it died between, its last MPI call"
else
    fail "a rank killed by SIGSEGV: its event and MPI call (exit $rc)"
    show "$tmp/dies.err"
fi
if grep -q "^drdb: rank 1: it died at dies-after.c:$line in main()$" "$tmp/dies.err"; then
    ok "a rank killed by SIGSEGV: the source line of the fault"
else
    fail "a rank killed by SIGSEGV: the source line (want dies-after.c:$line)"
    show "$tmp/dies.err"
fi

# ---- dying inside a system library: the program's line that called it ----
for mode in abort libc; do
    case $mode in
        abort) mark='/\* aborts here' sig='6 (SIGABRT)' ;;
        libc) mark='/\* faults in libc here' sig='11 (SIGSEGV)' ;;
    esac
    "$drdb" record -o "$tmp/$mode" -- "$mpiexec" -n 2 "$dies" "$mode" \
        > "$tmp/$mode.rec" 2>&1
    line=$(grep -n "$mark" "$dies_c" | cut -d: -f1)
    "$drdb" replay --rank 1 "$tmp/$mode" > "$tmp/$mode.out" 2> "$tmp/$mode.err"
    if grep -q "rank 1: killed by signal $sig between events 3 and 4" "$tmp/$mode.err" &&
        grep -q "^drdb: rank 1: it died at dies-after.c:$line in main()$" "$tmp/$mode.err"; then
        ok "a rank killed in libc ($mode): the program's line that called it"
    else
        fail "a rank killed in libc ($mode): the program's line (want dies-after.c:$line)"
        show "$tmp/$mode.err"
    fi
done

# ---- a stripped program ----------------------------------------------------
cp "$prog" "$tmp/stripped" && strip --strip-all "$tmp/stripped"
if nm "$tmp/stripped" 2>&1 | grep -q ' main$'; then
    fail "the stripped copy still has main"
fi
"$drdb" record -o "$tmp/str" -- "$mpiexec" -n 2 "$tmp/stripped" \
    > "$tmp/str.rec" 2>&1 || { fail "recording the stripped program"; show "$tmp/str.rec"; }
cat > "$tmp/str.gdb" <<'SCRIPT'
status
break MPI_Finalize
continue
status
continue
status
SCRIPT
"$drdb" batch --rank 1 "$tmp/str" "$tmp/str.gdb" > "$tmp/str.out" 2> "$tmp/str.err"
rc=$?
if [ $rc = 0 ] &&
    grep -q '^drdb: no main symbol (a stripped program): stopped before its first MPI call$' "$tmp/str.err" &&
    grep -q '^replaying rank 1, stopped before the first MPI call$' "$tmp/str.out"; then
    ok "a stripped program: the rank starts, before its first MPI call, saying why"
else
    fail "a stripped program: the start (exit $rc)"
    show "$tmp/str.err" "$tmp/str.out"
fi
# status: before event 0 first, then at the breakpoint, then exited 0.
if grep -Eq '^1 +stopped +before 0/[0-9]+ ' "$tmp/str.out" &&
    grep -q 'MPI_Finalize (), breakpoint$' "$tmp/str.out" &&
    grep -Eq '^1 +exited +end [0-9]+/[0-9]+ +exited with status 0$' "$tmp/str.out"; then
    ok "a stripped program: status, a breakpoint on MPI_Finalize, the end"
else
    fail "a stripped program: status, breakpoint, end"
    show "$tmp/str.out"
fi

echo "1..$n"
exit $status
