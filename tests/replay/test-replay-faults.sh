#!/bin/sh
# The replay's failure modes and its promises beyond equivalence:
#  - divergence: replaying with changed arguments, an extra call, a missing
#    call or another binary stops with the exact report and status 97;
#  - a rank killed mid-run replays up to its last completed call, then
#    stops with status 98 and says why; a corrupt log likewise;
#  - no MPI at replay time: the real libmpich.so.12 and mpiexec made
#    unreachable (a mount namespace), the replay still reproduces the run;
#  - a program linked with -ldrdb-replay (no libmpich at all) replays, one
#    linked with -ldrdb-record records; MPI_THREAD_MULTIPLE is recorded,
#    each record naming its thread;
#  - the stub exports every symbol of libmpich.so.12;
#  - many ranks of one run replay concurrently.
# usage: test-replay-faults.sh DRDB MPIEXEC STUBDIR DIVERGE CRASH JACOBI CC RECDIR
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 stubdir=$3 diverge=$4 crash=$5 jacobi=$6 cc=$7 recdir=$8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
show() { sed 's/^/#   /' "$@" | head -12; }

# expect_fail NAME RC WANT_RC PATTERN FILE: the replay stopped with WANT_RC
# and FILE (its stderr) has a line matching the extended regex PATTERN.
expect_fail() {
    if [ "$2" = "$3" ] && grep -Eq -- "$4" "$5"; then
        ok "$1"
    else
        fail "$1 (exit $2, want $3 and /$4/)"
        show "$5"
    fi
}

# ---- divergence ------------------------------------------------------------
"$drdb" record -o "$tmp/div" -- "$mpiexec" -n 2 "$diverge" same \
    > "$tmp/div.rec" 2>&1 || { fail "recording diverge"; show "$tmp/div.rec"; }

"$drdb" replay --rank 1 "$tmp/div" > "$tmp/div.same" 2> "$tmp/div.same.err"
rc=$?
if [ $rc = 0 ] && grep -q '^rank 1: message 3: 30..37$' "$tmp/div.same" &&
    grep -q '^rank 1: done$' "$tmp/div.same"; then
    ok "diverge: an unchanged replay runs to the end"
else
    fail "diverge: unchanged replay (exit $rc)"
    show "$tmp/div.same" "$tmp/div.same.err"
fi
# options after RUNDIR count as before it (drdb replay RUNDIR --rank 1)
"$drdb" replay "$tmp/div" --rank 1 > "$tmp/div.after" 2> "$tmp/div.after.err"
rc=$?
if [ $rc = 0 ] && cmp -s "$tmp/div.same" "$tmp/div.after"; then
    ok "drdb replay RUNDIR --rank 1: the same replay"
else
    fail "drdb replay RUNDIR --rank 1 (exit $rc)"
    show "$tmp/div.after" "$tmp/div.after.err"
fi

"$drdb" replay --rank 0 "$tmp/div" -- "$diverge" count > /dev/null 2> "$tmp/e"
expect_fail "changed argument: names the event, the argument, both calls" $? 97 \
    "rank 0: event 4 \(MPI_Send\): replay diverged: argument 'count' differs: the log has MPI_Send\(count=8, datatype=MPI_INT, dest=1, tag=5, comm=MPI_COMM_WORLD\), the program called MPI_Send\(count=7, datatype=MPI_INT, dest=1, tag=5, comm=MPI_COMM_WORLD\)$" "$tmp/e"
expect_fail "changed argument: the source line of the call" 0 0 \
    "^drdb: rank 0: the call is at diverge.c:[0-9]+ in main\(\)$" "$tmp/e"
# drdb replay says where in the program's words: no raw OBJECT+0xOFFSET
if grep -q "called from" "$tmp/e"; then
    fail "drdb replay: no 'called from OBJECT+0xOFFSET' line"; show "$tmp/e"
else
    ok "drdb replay: no 'called from OBJECT+0xOFFSET' line"
fi
# MPI's constants by name (drdb's own names: from <mpi.h> at build time):
# rank 1's third receive from MPI_ANY_SOURCE where the log has rank 0
"$drdb" replay --rank 1 "$tmp/div" -- "$diverge" anysource > /dev/null \
    2> "$tmp/e"
expect_fail "a constant argument: its name, not its value" $? 97 \
    "rank 1: event 4 \(MPI_Recv\): replay diverged: argument 'source' differs: the log has MPI_Recv\(count=8, datatype=MPI_INT, source=0, tag=5, comm=MPI_COMM_WORLD\), the program called MPI_Recv\(count=8, datatype=MPI_INT, source=MPI_ANY_SOURCE, tag=5, comm=MPI_COMM_WORLD\)$" "$tmp/e"
# the stub run without drdb (nobody to turn its call site into a line):
# it says where itself
env DRDB_REPLAY_DIR="$tmp/div" DRDB_REPLAY_RANK=0 \
    LD_LIBRARY_PATH="$stubdir" LD_PRELOAD="$stubdir/libmpich.so.12" \
    "$diverge" count > /dev/null 2> "$tmp/e"
expect_fail "the stub alone: says where the call is" $? 97 \
    "^drdb-replay: called from .*diverge\+0x[0-9a-f]+" "$tmp/e"

"$drdb" replay --rank 0 "$tmp/div" -- "$diverge" extra > /dev/null 2> "$tmp/e"
expect_fail "extra call" $? 97 \
    "event 6 \(MPI_Comm_rank\): replay diverged: another function: the log has MPI_Barrier\(comm=MPI_COMM_WORLD\), the program called MPI_Comm_rank\(comm=MPI_COMM_WORLD\)" "$tmp/e"

"$drdb" replay --rank 0 "$tmp/div" -- "$diverge" missing > /dev/null 2> "$tmp/e"
expect_fail "missing calls" $? 97 \
    "event 6: replay diverged: the program exits without MPI_Finalize, but the log has 8 events" "$tmp/e"

"$drdb" replay --rank 0 "$tmp/div" -- "$crash" none > /dev/null 2> "$tmp/e"
rc=$?
expect_fail "another binary: warned up front" 0 0 \
    "warning: '.*crash' is not the recorded executable \(build id [0-9a-f]+, recorded [0-9a-f]+\)" "$tmp/e"
expect_fail "another binary: diverges" $rc 97 "replay diverged" "$tmp/e"

# With --send-data the replay also checks what the program sends.
"$drdb" record --send-data -o "$tmp/divd" -- "$mpiexec" -n 2 "$diverge" same \
    > /dev/null 2>&1 || fail "recording diverge --send-data"
if "$drdb" replay --rank 0 "$tmp/divd" > /dev/null 2> "$tmp/e"; then
    ok "send data logged: an unchanged replay checks it and passes"
else
    fail "send data logged: unchanged replay"
    show "$tmp/e"
fi
"$drdb" replay --rank 0 "$tmp/divd" -- "$diverge" data > /dev/null 2> "$tmp/e"
expect_fail "send data logged: other data sent is a divergence" $? 97 \
    "event 4 \(MPI_Send\): replay diverged: the program sends other data than recorded \(argument 0, byte 0 of 32: recorded 0x14, now 0x15\)" "$tmp/e"

# ---- a killed rank, a corrupt log --------------------------------------------
if ! record_killed "$drdb" "$mpiexec" "$crash" 3 "$tmp/kill" 5; then
    fail "crash sleep: rank 1 never said it sleeps"
else
    # Rank 0 was stopped by mpiexec inside iteration 5's MPI_Sendrecv.
    timeout 60 "$drdb" replay --rank 0 "$tmp/kill" > "$tmp/kill.rep" 2> "$tmp/e"
    rc=$?
    if grep -q '^rank 0: iteration 4 done' "$tmp/kill.rep" &&
        ! grep -q '^rank 0: iteration 5' "$tmp/kill.rep"; then
        ok "killed job: rank 0 replays through its last completed call"
    else
        fail "killed job: rank 0's replayed output"
        show "$tmp/kill.rep"
    fi
    expect_fail "killed job: stops at the end of the log with status 98" $rc 98 \
        "rank 0: event 1[89] \(MPI_(Sendrecv|Allreduce)\): the log ends here: the recorded rank stopped" "$tmp/e"
    # Rank 1 itself was killed outside MPI: the replay reaches the same
    # sleep, so it is stopped the same way.
    timeout 60 "$drdb" replay --rank 1 "$tmp/kill" > "$tmp/kill1.rep" 2>&1 &
    rjob=$!
    for _ in $(seq 100); do
        grep -q '^rank 1: sleeping' "$tmp/kill1.rep" && break
        sleep 0.1
    done
    if grep -q '^rank 1: crashing now (sleep) after 18 MPI calls$' "$tmp/kill1.rep"; then
        ok "killed rank: its replay reaches the point where it was killed"
    else
        fail "killed rank: replay of rank 1"
        show "$tmp/kill1.rep"
    fi
    pkill -KILL -f "crash sleep 5" 2>/dev/null
    wait "$rjob" 2>/dev/null
fi

# A corrupt record in the middle: the replay runs up to it.
mkdir "$tmp/bad"
cp "$tmp/div/drdb.run" "$tmp/div/rank-1.log" "$tmp/bad/"
size=$(stat -c %s "$tmp/bad/rank-1.log")
printf 'XXXX' | dd of="$tmp/bad/rank-1.log" bs=1 seek=$((size - 40)) conv=notrunc 2>/dev/null
"$drdb" replay --rank 1 "$tmp/bad" > /dev/null 2> "$tmp/e"
expect_fail "corrupt log: stops where the damage is, says so" $? 98 \
    "the log ends here: .*corrupt" "$tmp/e"
printf 'garbage' > "$tmp/bad/rank-1.log"
"$drdb" replay --rank 1 "$tmp/bad" > /dev/null 2> "$tmp/e"
expect_fail "not a log: a clear error" $? 99 "rank-1.log" "$tmp/e"
"$drdb" replay --rank 5 "$tmp/div" > /dev/null 2> "$tmp/e"
expect_fail "a rank the run does not have" $? 2 \
    "'5' is not a list of ranks of this run \(0-1\)" "$tmp/e"

# ---- no MPI at replay time -------------------------------------------------------
"$drdb" record -o "$tmp/jac" -- "$mpiexec" -n 4 -outfile-pattern "$tmp/jac.out.%r" \
    "$jacobi" 30 > "$tmp/jac.rec" 2>&1 || fail "recording jacobi"
real=$(readlink -f "$("$cc" -print-file-name=libmpich.so.12)")
if unshare -m true 2>/dev/null; then
    unshare -m sh -c '
        mount --bind /dev/null "$1" &&
        mount --bind /dev/null "$(readlink -f "$(command -v "$2")")" &&
        "$3" replay --rank 0 "$4" > "$5" 2> "$5.err" &&
        ! "$2" -n 1 true 2>/dev/null' sh "$real" "$mpiexec" "$drdb" "$tmp/jac" "$tmp/nompi"
    rc=$?
    if [ $rc = 0 ] && cmp -s "$tmp/jac.out.0" "$tmp/nompi"; then
        ok "no MPI: libmpich.so.12 and mpiexec unreachable, rank 0 replays identically"
    else
        fail "no MPI: replay without MPICH (exit $rc)"
        show "$tmp/nompi" "$tmp/nompi.err"
    fi
else
    skip "no MPI: cannot create a mount namespace here"
fi
# The dynamic linker initializes the stub as libmpich.so.12, never MPICH's.
LD_DEBUG=libs "$drdb" replay --rank 1 "$tmp/jac" > /dev/null 2> "$tmp/ld"
inits=$(grep 'calling init: .*libmpich' "$tmp/ld" | sed 's/.*calling init: //' | sort -u)
if [ "$inits" = "$(readlink -f "$stubdir/libmpich.so.12")" ] ||
    [ "$inits" = "$stubdir/libmpich.so.12" ]; then
    ok "the replay loads the stub as libmpich.so.12 and no other"
else
    fail "the replay's libmpich: $inits"
fi

# ---- link time: -ldrdb-replay instead of MPICH -----------------------------------
inc=$(dirname "$("$cc" -print-file-name=libmpich.so.12)")
cat > "$tmp/lt.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    int rank, size, provided;
    double t;
    MPI_Init_thread(&argc, &argv,
                    argc > 1 && strcmp(argv[1], "multiple") == 0
                        ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE,
                    &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    t = MPI_Wtime();
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    printf("rank %d of %d: max wtime %.9f\n", rank, size, t);
    MPI_Finalize();
    return 0;
}
EOF
mpich_inc=$(pkg-config --cflags mpich 2>/dev/null)
if "$cc" $mpich_inc -o "$tmp/lt-mpich" "$tmp/lt.c" $(pkg-config --libs mpich) &&
    "$cc" $mpich_inc -o "$tmp/lt-stub" "$tmp/lt.c" -L"$stubdir" -ldrdb-replay \
        -Wl,-rpath,"$stubdir" &&
    "$cc" $mpich_inc -o "$tmp/lt-rec" "$tmp/lt.c" -L"$recdir" -ldrdb-record \
        -Wl,-rpath,"$recdir" $(pkg-config --libs mpich); then
    "$drdb" record -o "$tmp/lt" -- "$mpiexec" -n 2 -outfile-pattern "$tmp/lt.out.%r" \
        "$tmp/lt-mpich" > /dev/null 2>&1
    if readelf -d "$tmp/lt-stub" | grep -q 'libmpich' ; then
        fail "link time: the test program still needs libmpich"
    else
        DRDB_REPLAY_DIR=$tmp/lt DRDB_REPLAY_RANK=1 "$tmp/lt-stub" > "$tmp/lt.rep" 2>&1
        if cmp -s "$tmp/lt.out.1" "$tmp/lt.rep"; then
            ok "link time: a program linked with -ldrdb-replay replays rank 1"
        else
            fail "link time: -ldrdb-replay replay"
            show "$tmp/lt.rep"
        fi
    fi
    # Recording by linking -ldrdb-record before MPICH (no LD_PRELOAD): the
    # run directory and DRDB_RUN_DIR are all the library needs.
    mkdir -m 700 "$tmp/ltr"
    # (meson's test environment may put the stub's directory first in
    # LD_LIBRARY_PATH: a recording must get the real MPICH)
    env -u LD_LIBRARY_PATH DRDB_RUN_DIR="$tmp/ltr" "$mpiexec" -n 2 \
        -outfile-pattern "$tmp/ltr.out.%r" "$tmp/lt-rec" > /dev/null 2>&1
    DRDB_REPLAY_DIR=$tmp/ltr DRDB_REPLAY_RANK=0 "$tmp/lt-stub" > "$tmp/ltr.rep" 2>&1
    if [ -f "$tmp/ltr/rank-1.log" ] && cmp -s "$tmp/ltr.out.0" "$tmp/ltr.rep"; then
        ok "link time: a program linked with -ldrdb-record records; rank 0 replays"
    else
        fail "link time: -ldrdb-record"
        ls "$tmp/ltr" | show
        show "$tmp/ltr.rep"
    fi
    # MPI_THREAD_MULTIPLE: recorded without a warning, each record naming
    # its thread (tests/fidelity/thr-*.c replay threads); rank 0 replays.
    "$drdb" record -o "$tmp/ltm" -- "$mpiexec" -n 2 \
        -outfile-pattern "$tmp/ltm.out.%r" "$tmp/lt-mpich" multiple \
        > /dev/null 2> "$tmp/e"
    rc=$?
    "$drdb" replay --quiet --rank 0 "$tmp/ltm" > "$tmp/ltm.rep" 2>> "$tmp/e"
    if [ $rc = 0 ] && ! grep -q warning "$tmp/e" &&
        "$drdb" log events "$tmp/ltm" | grep -q "MPI_Allreduce .*  thread 0\$" &&
        cmp -s "$tmp/ltm.out.0" "$tmp/ltm.rep"; then
        ok "MPI_THREAD_MULTIPLE: recorded without a warning, records name their thread, rank 0 replays"
    else
        fail "MPI_THREAD_MULTIPLE: recorded (exit $rc), records name their thread, rank 0 replays"
        show "$tmp/e"
    fi
else
    fail "link time: cannot build the test program"
fi
"$tmp/lt-stub" > /dev/null 2> "$tmp/e"
expect_fail "the stub outside drdb replay says what to do" $? 99 \
    "DRDB_REPLAY_DIR and DRDB_REPLAY_RANK are not set; run the program with 'drdb replay" "$tmp/e"

# ---- the ABI ---------------------------------------------------------------------
nm -D --defined-only "$real" | awk '{print $3}' | sort > "$tmp/real.syms"
nm -D --defined-only "$stubdir/libmpich.so.12" | awk '{print $3}' | sort > "$tmp/stub.syms"
missing=$(comm -23 "$tmp/real.syms" "$tmp/stub.syms" | wc -l)
if [ "$missing" = 0 ] && [ "$(wc -l < "$tmp/real.syms")" -gt 1200 ]; then
    ok "the stub exports all $(wc -l < "$tmp/real.syms") symbols of libmpich.so.12"
else
    fail "the stub lacks $missing symbols of libmpich.so.12"
    comm -23 "$tmp/real.syms" "$tmp/stub.syms" | head -5 | show
fi
soname=$(readelf -d "$stubdir/libmpich.so.12" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libmpich.so.12 ] && ok "soname libmpich.so.12" ||
    fail "soname is '$soname'"

# ---- many ranks at once -----------------------------------------------------------
np=${DRDB_STRESS_RANKS:-64}
start=$(date +%s)
if timeout 300 "$drdb" record -o "$tmp/many" -- "$mpiexec" -n $np \
        -outfile-pattern "$tmp/many.out.%r" "$jacobi" 20 > "$tmp/many.rec" 2>&1; then
    rec_s=$(( $(date +%s) - start ))
    start=$(date +%s)
    timeout 300 "$drdb" replay --quiet --ranks 0-$((np - 1)) \
        --outfile-pattern "$tmp/many.rep.%r" "$tmp/many" > /dev/null 2> "$tmp/e"
    rc=$?
    same=0
    for r in $(seq 0 $((np - 1))); do
        [ -f "$tmp/many.out.$r" ] || : > "$tmp/many.out.$r"
        [ -f "$tmp/many.rep.$r" ] || : > "$tmp/many.rep.$r"
        cmp -s "$tmp/many.out.$r" "$tmp/many.rep.$r" && same=$((same + 1))
    done
    if [ $rc = 0 ] && [ $same = $np ]; then
        ok "$np ranks (recorded in ${rec_s}s) replayed concurrently in $(( $(date +%s) - start ))s, all identical"
    else
        fail "$np ranks: exit $rc, $same identical"
        show "$tmp/e"
    fi
else
    fail "recording $np ranks"
    show "$tmp/many.rec"
fi

echo "1..$n"
exit $status
