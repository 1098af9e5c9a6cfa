#!/bin/sh
# The demo: record the bundled Othello search (examples/othello.c) under
# mpiexec -n 4 until a run shows its nondeterministic bug, then replay the
# ranks involved under the debugger with examples/othello.drdb and say what
# it found. Then, shortly, examples/anysource: one arrival order, replayed.
# usage: examples/demo.sh BUILDDIR
set -eu
build=$(cd "${1:?usage: examples/demo.sh BUILDDIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
drdb=$build/frontend/drdb
np=4
attempts=30
dir=$(mktemp -d /tmp/drdb-demo-XXXXXX)
run=$dir/othello

echo "== 1. record: rank 0 searches an Othello game tree with ranks 1-3, cancels"
echo "==    searches that became useless and drops their late answers; a wrong"
echo "==    test lets one through on some runs only. Record until one does."
found=0
i=1
while [ $i -le $attempts ]; do
    rm -rf "$run"
    status=0
    "$drdb" record -o "$run" -- mpiexec -n $np "$build/examples/othello" \
        > "$dir/out" 2> "$dir/err" || status=$?
    case $status in
    0) echo "attempt $i: no bug" ;;
    3) echo "attempt $i: the bug showed"; found=1; break ;;
    *) echo "attempt $i: othello failed (exit status $status):"
       cat "$dir/out" "$dir/err"
       exit 1 ;;
    esac
    i=$((i + 1))
done
if [ $found = 0 ]; then
    echo
    echo "== the bug did not show in $attempts runs: it depends on timing (when"
    echo "== each rank gets to run, in which order MPI delivers the searchers'"
    echo "== answers). Run the demo again."
    exit 0
fi

echo
echo "== 2. what the run printed"
cat "$dir/out"
bug=$(grep '^rank 0: BUG:' "$dir/out")
# rank 0: BUG: result of search S (from rank R) answered search C: ...
sender=$(echo "$bug" | sed 's/.*(from rank \([0-9]*\)).*/\1/')

echo
echo "== 3. replay rank 0 and rank $sender (the sender) alone, each under its own"
echo "==    GDB, and run examples/othello.drdb on them:"
echo "==    drdb batch --ranks 0,$sender $run examples/othello.drdb"
"$drdb" batch --ranks 0,"$sender" "$run" "$here/othello.drdb" \
    | tee "$dir/batch"

# [0] res = {seq = 50, value = 37, best = 0, abandoned = 1}
late=$(sed -n 's/^\[0\] res = {seq = \([0-9]*\),.*/\1/p' "$dir/batch")
current=$(sed -n 's/^\[0\] kid\[src\]\.seq = \([0-9]*\)$/\1/p' "$dir/batch")
turn=$(sed -n 's/^\[0\] turn = \([0-9]*\)$/\1/p' "$dir/batch")
echo
echo "== 4. what it found"
if [ -z "$late" ] || [ -z "$current" ] || [ -z "$turn" ]; then
    echo "the script did not stop rank 0 where expected: see its output above"
    exit 1
fi
cat <<EOF
In turn $turn, rank 0 took the Result of search $late from rank $sender as the
answer to search $current, the Search rank $sender was working on. But search
$late was from before turn $turn: rank 0 had cancelled it (it is on rank
$sender's list of cancelled Searches) and moved on, and it received the late
answer only after the first Searches of turn $turn had gone out. The stale
check in run_move() drops a Result whose number is lower than that of the
current Search (res.seq < kid[src].seq), but the numbers start again at 1
every turn: $late is not lower than $current, and the late answer went
through. The test must be res.seq != kid[src].seq. Replayed, rank 0
receives the same Results in the same order, alone, every time: the bug is
there in every replay.
EOF

echo
echo "== 5. examples/anysource: ranks 1-3 send to rank 0, which receives with"
echo "==    MPI_ANY_SOURCE; record one arrival order and replay rank 0 twice"
"$drdb" record -o "$dir/anysource" -- mpiexec -n $np "$build/examples/anysource" 3
for i in 1 2; do
    "$drdb" replay --rank 0 "$dir/anysource" | tail -n 1
done

echo
echo "== the runs are in $dir"
