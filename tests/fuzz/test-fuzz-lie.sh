#!/bin/sh
# Runs whose sizes lie (lie-run.c): a recorded 4-rank run, then ROUNDS
# run directories whose drdb.run claims any world size up to 1048576 and
# past it, over its logs kept, dropped, named for ranks beyond them or with
# their headers' sizes changed; drdb's log info, log events, log sql,
# check, log graph and batch each within RLIMIT_AS, 20 s and 200 MB of
# peak memory, never out of memory nor killed by a signal.
# usage: test-fuzz-lie.sh DRDB MPIEXEC JACOBI LIE-RUN ROUNDS
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3") lie=$(realpath "$4")
rounds=${FUZZ_ROUNDS:-$5}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
"$drdb" record -o run -- "$mpiexec" -n 4 "$jacobi" 16 3 > /dev/null 2>&1 || {
    echo "not ok 1 - recording the run to lie about"; echo "1..1"; exit 1; }
# (MALLOC_PERTURB_, set by meson, would make glibc touch every calloc'd
# page: the event index's per-rank table of the world, docs/security.md)
env -u MALLOC_PERTURB_ "$lie" "$drdb" run "$tmp" "$rounds" "${FUZZ_SEED:-1}" > out 2> progress
rc=$?
sed 's/^/# /' out
tail -3 progress | sed 's/^/# /'
if [ $rc = 0 ]; then
    echo "ok 1 - $rounds runs of lying sizes: none out of memory, time or bounds"
else
    echo "not ok 1 - $rounds runs of lying sizes: failures (see above)"
fi
echo "1..1"
exit $rc
