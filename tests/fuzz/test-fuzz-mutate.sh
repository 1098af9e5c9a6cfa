#!/bin/sh
# A mutation campaign over a real recorded run (mutate-run.c): record a
# small job (point-to-point, collectives, a killed rank's log too), then
# ROUNDS damaged copies read by the log reader, the drdb.run parser and
# drdb's info, dump and event index, a changed drdb.run replayed. 0 crashes,
# 0 hangs and no changed drdb.run started to pass.
# usage: test-fuzz-mutate.sh DRDB MPIEXEC JACOBI MUTATE-RUN ROUNDS
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3") mutate=$(realpath "$4")
rounds=${FUZZ_ROUNDS:-$5}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
"$drdb" record -o run -- "$mpiexec" -n 2 "$jacobi" 16 4 > /dev/null 2>&1 || {
    echo "not ok 1 - recording the run to mutate"; echo "1..1"; exit 1; }
"$mutate" "$drdb" run "$tmp" "$rounds" "${FUZZ_SEED:-1}" > out 2> progress
rc=$?
sed 's/^/# /' out
if [ $rc = 0 ]; then
    echo "ok 1 - $rounds mutations: no crash, no hang, no changed drdb.run started"
else
    echo "not ok 1 - $rounds mutations: crashes, hangs or a changed drdb.run started (see above)"
fi
echo "1..1"
exit $rc
