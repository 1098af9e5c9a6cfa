#!/bin/sh
# The demo: record the bundled nondeterministic example under mpiexec -n 4,
# look inside the run it left, then replay its ranks alone.
# usage: examples/demo.sh BUILDDIR
set -eu
build=$(cd "${1:?usage: examples/demo.sh BUILDDIR}" && pwd)
drdb=$build/frontend/drdb
np=4
run=$(mktemp -d /tmp/drdb-demo-XXXXXX)/run

echo "== 1. record: ranks 1-3 send to rank 0, which receives with MPI_ANY_SOURCE;"
echo "==    the arrival order changes from run to run"
"$drdb" record -o "$run" -- mpiexec -n $np "$build/examples/anysource" 3

echo
echo "== 2. what the run left: one log per rank"
"$drdb" log info "$run"

echo
echo "== 3. rank 0's receives, with the source each one matched (from its status):"
echo "==    the same order the program printed above"
"$drdb" log dump "$run" --rank 0 | awk 'NR == 1 || /MPI_Recv/'

echo
echo "== 4. replay: rank 0 alone, without mpiexec or the other ranks, twice;"
echo "==    it receives in the recorded order every time"
for i in 1 2; do
    "$drdb" replay --rank 0 "$run"
done

echo
echo "== 5. and any other rank, on its own"
"$drdb" replay --rank 2 "$run" && echo "rank 2 replayed: exit status 0"

echo
echo "== the run is in $run"
