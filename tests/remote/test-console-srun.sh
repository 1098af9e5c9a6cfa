#!/bin/sh
# `drdb console --launcher srun RUNDIR` inside a Slurm allocation
# (docs/remote.md), with the private Slurm of tests/lib-slurm.sh (nodes
# 'drdbnode' and 'drdbnode2' on 127.0.0.1): with no HOST: and no --hosts,
# the hosts are the allocation's nodes, as if given with --hosts, each
# node's agent a srun step. A run of examples/jacobi (2 ranks, a 16x16
# grid, 3 iterations) in a batch console inside `salloc -N 2`: the ranks
# reach main, status names each rank's node (rank 0 on drdbnode, rank 1
# on drdbnode2, as mpiexec places 2 ranks on 2 hosts), a breakpoint and a
# print merged over them, a goto-send from rank 1 to its sender rank 0 on
# the other node. Outside an allocation: the one line that says to run
# inside salloc/sbatch, and no job is made. `drdb console --help` lists
# the run options.
#
# Expected answers are jacobi's, by hand (as tests/remote/
# test-remote-console.sh): rank 1's event 7 is its Waitall, completing
# rank 0's Isend, rank 0's event 6.
#
# usage: test-console-srun.sh DRDB MPIEXEC JACOBI JACOBI_SOURCE
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib-slurm.sh"
slurm_test_begin
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3") src=$4

# ---- --help -----------------------------------------------------------------
"$drdb" console --help > "$tmp/help" 2>&1
bad=
for o in --ssh-option --remote-drdb --launcher --also --hosts; do
    grep -q -- "^ *$o " "$tmp/help" || bad="$bad $o"
done
[ -z "$bad" ] && ok "drdb console --help explains the run options" ||
    fail "drdb console --help does not explain:$bad"

# ---- a run ------------------------------------------------------------------
mkdir "$tmp/rec"
if ! (cd "$tmp/rec" && timeout 120 "$drdb" record -o run -- "$mpiexec" \
        -n 2 "$jacobi" 16 3 > rec.log 2>&1); then
    fail "recording jacobi"
    sed 's/^/# /' "$tmp/rec/rec.log" | tail -5
    echo "1..$n"
    exit 1
fi
run=$tmp/rec/run
line=$(grep -n 'double local = 0.0;' "$src" | cut -d: -f1)
cat > "$tmp/b.drdb" <<EOF
status
break jacobi.c:$line
continue
print size
print rank
goto-send 1:7
status
EOF

if ! slurm_start 2; then
    fail "$slurm_why"
    comment_daemons
    echo "1..$n"
    exit 1
fi

# ---- outside an allocation: one line, and no job ----------------------------
timeout 60 "$drdb" batch --launcher srun --remote-drdb "$drdb" --ranks 0-1 \
    "$run" "$tmp/b.drdb" > "$tmp/out" 2> "$tmp/out.err"
rc=$?
if [ "$(cat "$tmp/out.err")" = "drdb: not inside a Slurm allocation (SLURM_JOB_ID unset): run drdb inside salloc/sbatch, or use ssh" ] &&
        [ $rc = 1 ] && [ ! -s "$tmp/out" ] && [ -z "$(squeue -h 2>/dev/null)" ]; then
    ok "outside an allocation: one line saying to run inside salloc/sbatch; no job made"
else
    fail "outside an allocation (rc $rc)"
    sed 's/^/#   /' "$tmp/out.err" | head -5
fi

# ---- inside `salloc -N 2` ---------------------------------------------------
mkdir "$tmp/here"
cat > "$tmp/inside.sh" <<EOF
cd "$tmp/here" || exit 1
echo "\$SLURM_JOB_ID" > ../jobid
timeout 200 "$drdb" batch --launcher srun --remote-drdb "$drdb" \\
    --ranks 0-1 --timeout 60 "$run" "$tmp/b.drdb" > ../b 2> ../b.err
echo \$? > ../b.rc
EOF
run timeout 280 salloc -N 2 --quiet -- /bin/sh "$tmp/inside.sh" \
    > "$tmp/salloc.out" 2> "$tmp/salloc.err"
rc=$?
if [ $rc = 0 ] && [ -s "$tmp/jobid" ] && [ "$(cat "$tmp/b.rc")" = 0 ]; then
    ok "drdb batch --launcher srun RUNDIR inside salloc -N 2: every command passed"
else
    fail "drdb batch --launcher srun inside salloc -N 2 (salloc rc $rc, drdb rc $(cat "$tmp/b.rc" 2>/dev/null))"
    comment "$tmp/b.err" "$tmp/salloc.err"
fi
srcpaths "$tmp/b"
batch_after b status > "$tmp/b.st0"
hasre "the ranks reach main, each on its node (status)" "$tmp/b.st0" \
    '^0 \+stopped \+before 0/23 \+drdbnode \+main () at ' \
    '^1 \+stopped \+before 0/23 \+drdbnode2 \+main () at '
has "a breakpoint, continue, print: merged over the ranks on the two nodes" \
    "$tmp/b" "[0,1] \$1 = 2" "[0] \$2 = 0" "[1] \$2 = 1"
if said b continue 0,1 | grep -q "^Breakpoint 1, main (.*) at SRC/examples/jacobi.c:$line\$"; then
    ok "  ... the breakpoint's stop, in GDB's words (the same on both: each rank's stack where recorded)"
else
    fail "  ... no stop at the breakpoint on [0,1]"
    batch_after b continue | sed 's/^/#   /'
fi
batch_after b "goto-send 1:7" > "$tmp/b.gs"
hasre "goto-send 1:7: rank 0 on drdbnode, the sender of rank 1's receive on drdbnode2, before its send" \
    "$tmp/b.gs" '^\[0\] main () at SRC/examples/jacobi\.c:[0-9]*, before event 6 (MPI_Isend)$'
i=0
while [ -n "$(our_stepds)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if ! grep -q ' drdbnode2 ' "$tmp/b.st0"; then
    fail "nothing left running: no session ran on the nodes to check"
elif [ -z "$(our_stepds)" ]; then
    ok "nothing left running: no step daemon of this Slurm after the console"
else
    fail "step daemons left: $(our_stepds)"
fi

echo "1..$n"
exit $status
