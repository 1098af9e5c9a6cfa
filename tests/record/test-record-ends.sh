#!/bin/bash
# How a recording ends, and what drdb says about it (issue 15, "Never lose
# a run"):
#  - a full disk (a 5 MB tmpfs in a private mount namespace): drdb.run is
#    there, every rank has a log, drdb record exits 1 naming the truncated
#    ranks, log info and dump say where and why recording stopped, and the
#    replay of a truncated rank ends there with status 98;
#  - 16 ranks fit on that 5 MB disk before their first call (a small
#    reservation per rank, not 4 MiB);
#  - a disk with almost no room: drdb.run is still written, the ranks
#    without a log are named;
#  - log info's ending of each rank: completed, MPI_Abort, killed, corrupt;
#    log dump exits non-zero on a corrupt log;
#  - a launcher that exits 0 though ranks ended early, and Ctrl-C: drdb
#    record does not say success.
# usage: test-record-ends.sh DRDB MPIEXEC JACOBI CRASH
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3") crash=$(realpath "$4")
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; sed 's/^/#   /' "${3:-/dev/null}" | head -8; fi; }

if [ "${DRDB_IN_NS:-}" != 1 ]; then
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    if unshare -m true 2> /dev/null; then
        DRDB_IN_NS=1 TMPDIR_TEST=$tmp unshare -m bash "$0" "$@"
        exit $?
    fi
    # No mount namespace here: the endings alone, no full disk.
    cd "$tmp" || exit 1
    for what in "full disk" "16 ranks on 5 MB" "no room at all"; do
        skip "$what: needs 'unshare -m' and tmpfs mounts (root)"
    done
    n0=$n
else
    tmp=$TMPDIR_TEST
    cd "$tmp" || exit 1
    mkdir small && mount -t tmpfs -o size=5m tmpfs small ||
        { fail "mounting a 5 MB tmpfs"; echo "1..$n"; exit 1; }

    # ---- a full disk --------------------------------------------------
    "$drdb" record -o small/run -- "$mpiexec" -n 4 "$jacobi" 1024 400 > full.out 2> full.err
    rc=$?
    check "drdb record exits 1: the recording is not whole" '[ $rc = 1 ]' full.err
    check "  ... naming the truncated ranks" \
        'grep -qE "^drdb: ranks? [0-9,-]+: truncated \(disk full\)" full.err' full.err
    check "drdb.run was written" '[ -s small/run/drdb.run ]'
    check "every rank has its log" '[ "$(ls small/run/rank-*.log | wc -l)" = 4 ]'
    # (Not through the stub that a test environment may put in the path.)
    env -u LD_LIBRARY_PATH "$mpiexec" -n 4 "$jacobi" 1024 400 > native.out
    diff full.out native.out > full.diff 2>&1
    check "the program ran to its end, unaffected" 'cmp -s full.out native.out' full.diff
    "$drdb" log info small/run > info 2>&1
    check "log info says where and why each cut rank stopped" \
        'grep -qE "^[0-3] .*truncated \(disk full\): recording stopped at event [0-9]+ \(No space left on device\)$" info' info
    r=$(awk '/truncated/ { print $1; exit }' info)
    at=$(sed -n "s/^$r .*recording stopped at event \([0-9]*\) .*/\1/p" info)
    "$drdb" log dump small/run --rank "${r:-0}" > dump 2> dump.err
    check "log dump of a cut log: exit 0, the errno named" \
        '[ $? = 0 ] && grep -q "logging stopped here (No space left on device)" dump && ! grep -q "Unknown error" dump' dump
    "$drdb" replay -q --rank "${r:-0}" small/run > rep.out 2> rep.err
    rc=$?
    check "the replay of a cut rank ends with the end-of-log status (98)" '[ $rc = 98 ]' rep.err
    check "  ... saying: the log ends here: recording stopped at event $at (No space left on device)" \
        'grep -q "the log ends here: recording stopped at event $at (No space left on device)" rep.err && ! grep -q diverged rep.err' rep.err
    check "  ... after replaying what was logged" '[ -s rep.out ] && head -c "$(stat -c %s rep.out)" native.out | cmp -s - rep.out'
    umount small

    # ---- 16 ranks before their first call ---------------------------------
    mount -t tmpfs -o size=5m tmpfs small
    "$drdb" record -o small/many -- "$mpiexec" -n 16 "$jacobi" 64 2 > /dev/null 2> many.err
    check "16 ranks on a 5 MB disk: recorded whole (64 KiB reserved per rank)" \
        '[ $? = 0 ] && [ "$(grep -c " complete$" many.err)" = 16 ]' many.err
    umount small

    # ---- almost no room ---------------------------------------------------
    mount -t tmpfs -o size=5m tmpfs small
    head -c $((5 * 1024 * 1024 - 96 * 1024)) /dev/zero > small/filler 2> /dev/null
    "$drdb" record --no-compress -o small/tight -- "$mpiexec" -n 4 "$jacobi" 40 2 > /dev/null 2> tight.err
    rc=$?
    check "no room for the logs: drdb.run is still written" '[ -s small/tight/drdb.run ]' tight.err
    check "  ... exit 1, the ranks without a log named" \
        '[ $rc = 1 ] && grep -qE "^drdb: ranks? [0-9,-]+: (no log|truncated)" tight.err' tight.err
    check "  ... and the logs that exist read" '"$drdb" log info small/tight > /dev/null 2>&1; [ $? -lt 2 ]'
    umount small
fi

# ---- how each rank ended ---------------------------------------------------
"$drdb" record -o ab -- "$mpiexec" -n 3 "$crash" mpi_abort 2 > /dev/null 2>&1
"$drdb" log info ab > ab.info 2>&1
check "log info: a rank that called MPI_Abort" \
    'grep -qE "^1 .*ended in MPI_Abort\(comm 0x44000000, 3\) at event [0-9]+$" ab.info' ab.info
check "log info: the ranks MPI_Abort took down were killed mid-run" \
    'grep -qE "^0 .*killed mid-run" ab.info' ab.info
# a launcher that says success while its ranks ended early (some do, when
# interrupted): drdb record does not say success
"$drdb" record -o ab0 -- sh -c '"$1" -n 3 "$2" mpi_abort 2; exit 0' sh \
    "$mpiexec" "$crash" > /dev/null 2> ab0.err
check "launcher status 0, ranks ended early: drdb record exits 1, says why" \
    '[ $? = 1 ] && grep -q "^drdb: the launcher exited with status 0, but the ranks above ended before MPI_Finalize$" ab0.err' ab0.err
# Ctrl-C (SIGINT to the job's process group, as a terminal sends it): the
# launcher ends its ranks; drdb, which waits, says the run was interrupted
setsid "$drdb" record -o int -- "$mpiexec" -n 2 -outfile-pattern \
    int.out.%r "$crash" sleep 2 > /dev/null 2> int.err &
job=$!
for _ in $(seq 300); do
    grep -q "sleeping" int.out.1 2> /dev/null && break
    sleep 0.1
done
sleep 0.5
pg=$(cut -d' ' -f5 "/proc/$job/stat" 2> /dev/null)
if [ "$pg" = "$job" ]; then
    kill -INT -- "-$pg"
else
    kill -KILL "$job" # not its own group here: no Ctrl-C to send
fi
wait $job
rc=$?
check "Ctrl-C: drdb record fails and says the run was interrupted" \
    '[ $rc != 0 ] && grep -q "^drdb: the run was interrupted (Ctrl-C): each log ends at its rank.s last completed call" int.err' int.err
"$drdb" record -o ok -- "$mpiexec" -n 2 "$jacobi" 40 3 > /dev/null 2>&1
"$drdb" log info ok > ok.info 2>&1
check "log info: completed ranks" '[ $? = 0 ] && [ "$(grep -c " complete$" ok.info)" = 2 ]' ok.info
cp -a ok bad
size=$(stat -c %s bad/rank-1.log)
printf '\377\377' | dd of=bad/rank-1.log bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
"$drdb" log info bad > bad.info 2>&1
check "log info: a damaged record" '[ $? != 0 ] && grep -qE "^1 .*corrupt: .* at offset [0-9]+" bad.info' bad.info
"$drdb" log dump bad --rank 1 > bad.dump 2> bad.err
check "log dump exits non-zero when it reports corruption" \
    '[ $? != 0 ] && grep -q "damaged" bad.err' bad.err

echo "1..$n"
exit $status
