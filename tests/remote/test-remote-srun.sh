#!/bin/sh
# The agent started by srun inside a Slurm allocation (--launcher srun;
# docs/remote.md), with the private Slurm of tests/lib-slurm.sh (nodes
# 'drdbnode' and 'drdbnode2' on 127.0.0.1). Inside `salloc -N 1 -w
# drdbnode`: `drdb replay
# --launcher srun` replays a rank on the node as the local replay does
# (output, exit status, a divergence's report and status 97), given
# --host, NODE:RUNDIR or nothing (the allocation's one node), with drdb
# found on the PATH srun passes; `drdb log --launcher srun` lists events
# and matches as local, builds the index with no message data fetched, and
# shows an event's data; a node not in the allocation and a drdb missing
# on the node each give their one line. Inside `salloc -N 2`: --launcher
# srun alone asks which node; --host drdbnode2 replays as local. Outside an allocation: the one
# line that says to run inside salloc/sbatch, and no job is made; with
# the SLURM_JOB_ID of an ended job, the line that says it ended.
#
# usage: test-remote-srun.sh DRDB MPIEXEC SENDRECV CRASH
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib-slurm.sh"
slurm_test_begin
drdb=$(realpath "$1") mpiexec=$2 sendrecv=$(realpath "$3")
crash=$(realpath "$4")

# ---- a run, and the local answers ------------------------------------------
mkdir "$tmp/rec"
if ! (cd "$tmp/rec" && timeout 120 "$drdb" record -o run -- "$mpiexec" \
        -n 2 "$sendrecv" > rec.log 2>&1); then
    fail "recording sendrecv"
    sed 's/^/# /' "$tmp/rec/rec.log" | tail -5
    echo "1..$n"
    exit 1
fi
run=$tmp/rec/run
for r in 0 1; do
    timeout 60 "$drdb" replay --rank $r "$run" > "$tmp/local.$r" \
        2> "$tmp/local.$r.err"
    echo $? > "$tmp/local.$r.rc"
done
timeout 60 "$drdb" replay --rank 1 "$run" -- "$crash" none > "$tmp/local.d" \
    2> "$tmp/local.d.err"
echo $? > "$tmp/local.d.rc"
"$drdb" log events "$run" > "$tmp/ev.local" 2>&1
"$drdb" log match "$run" --all > "$tmp/m.local" 2>&1
data_ev=$(awk '$1 == 1 && $8 >= 1048576 { print $2; exit }' "$tmp/ev.local")
"$drdb" log event "$run" "1:${data_ev:-0}" > "$tmp/e.local" 2>&1
if [ -s "$tmp/local.1" ] && [ "$(cat "$tmp/local.1.rc")" = 0 ] &&
        [ "$(cat "$tmp/local.d.rc")" = 97 ] && [ -n "$data_ev" ]; then
    ok "the local replays and listing (rank 1's 1 MiB receive is event $data_ev)"
else
    fail "the local replays (rc $(cat "$tmp/local.1.rc"), divergence $(cat "$tmp/local.d.rc"), data event '$data_ev')"
fi

# ---- outside an allocation: one line, and no job ----------------------------
if ! slurm_start 2; then
    fail "$slurm_why"
    comment_daemons
    echo "1..$n"
    exit 1
fi
# d NAME ARGS...: drdb ARGS into $tmp/NAME (.err, .rc).
d() {
    _name=$1
    shift
    timeout 60 "$drdb" "$@" > "$tmp/$_name" 2> "$tmp/$_name.err"
    echo $? > "$tmp/$_name.rc"
}
noalloc="drdb: not inside a Slurm allocation (SLURM_JOB_ID unset): run drdb inside salloc/sbatch, or use ssh"
d out1 replay --launcher srun --host drdbnode --rank 1 "$run"
d out2 log --launcher srun events "drdbnode:$run"
d out3 replay --launcher srun --rank 1 "$run"
bad=
for f in out1 out2 out3; do
    [ "$(cat "$tmp/$f.err")" = "$noalloc" ] && [ "$(cat "$tmp/$f.rc")" = 1 ] &&
        [ ! -s "$tmp/$f" ] || bad="$bad $f"
done
if [ -z "$bad" ] && [ -z "$(squeue -h 2>/dev/null)" ]; then
    ok "outside an allocation: replay --host, log NODE:RUNDIR and replay alone each say to run inside salloc/sbatch; no job made"
else
    fail "outside an allocation:$bad"
    for f in $bad; do sed 's/^/#   /' "$tmp/$f.err"; done
fi

# ---- inside `salloc -N 1` -----------------------------------------------------
# The commands run in the allocation's shell (SLURM_JOB_ID and
# SLURM_JOB_NODELIST as salloc sets them); the checks after it ends.
cat > "$tmp/inside.sh" <<EOF
cd "$tmp" || exit 1
echo "\$SLURM_JOB_ID" > jobid
d() {
    _name=\$1
    shift
    timeout 60 "$drdb" "\$@" > "$tmp/\$_name" 2> "$tmp/\$_name.err"
    echo \$? > "$tmp/\$_name.rc"
}
R="--launcher srun --remote-drdb $drdb"
d h1 replay \$R --host drdbnode --rank 1 "$run"
d h0 replay \$R --rank 0 "drdbnode:$run"
d auto replay \$R --rank 1 "$run"
PATH="$(dirname "$drdb"):\$PATH" d path replay --launcher srun --host drdbnode --rank 1 "$run"
d hd replay \$R --host drdbnode --rank 1 "$run" -- "$crash" none
d nonode replay \$R --host drdbnode2 --rank 1 "$run"
d nodrdb replay --launcher srun --remote-drdb /nonexistent/drdb --host drdbnode --rank 1 "$run"
d ev.remote log \$R events "drdbnode:$run"
d m.remote log \$R match "drdbnode:$run" --all
d bench log \$R match "drdbnode:$run" --bench 20
d e.remote log \$R event "drdbnode:$run" "1:${data_ev:-0}"
EOF
run timeout 300 salloc -N 1 -w drdbnode --quiet -- /bin/sh "$tmp/inside.sh" \
    > "$tmp/salloc.out" 2> "$tmp/salloc.err"
rc=$?
if [ $rc = 0 ] && [ -s "$tmp/jobid" ]; then
    ok "salloc -N 1 -w drdbnode ran the commands in an allocation (job $(cat "$tmp/jobid"))"
else
    fail "salloc -N 1 -w drdbnode (rc $rc)"
    comment "$tmp/salloc.err"
    comment_daemons
fi
job_id=$(cat "$tmp/jobid" 2>/dev/null)

# same NAME LOCAL WHAT: $tmp/NAME's output and status are $tmp/LOCAL's.
same() {
    if [ -s "$tmp/$1.rc" ] && [ "$(cat "$tmp/$1.rc")" = "$(cat "$tmp/$2.rc")" ] &&
            cmp -s "$tmp/$1" "$tmp/$2"; then
        ok "$3"
    else
        fail "$3 (rc $(cat "$tmp/$1.rc" 2>/dev/null), local $(cat "$tmp/$2.rc"))"
        diff "$tmp/$2" "$tmp/$1" 2>&1 | head -5 | sed 's/^/#   /'
        sed 's/^/#   /' "$tmp/$1.err" 2>/dev/null | tail -5
    fi
}
same h1 local.1 "rank 1 replayed on node drdbnode by an agent srun started (--host): output and status as local"
same h0 local.0 "rank 0 replayed on drdbnode given as NODE:RUNDIR: as local"
same auto local.1 "--launcher srun alone: the allocation's node, as local"
same path local.1 "drdb found on the PATH srun passes to the step: as local"
same hd local.d "a divergence on the node: output and status 97 as local"
if cmp -s "$tmp/hd.err" "$tmp/local.d.err"; then
    ok "a divergence on the node: the local replay's report"
else
    fail "a divergence on the node: the report differs from the local one"
    diff "$tmp/local.d.err" "$tmp/hd.err" | head -8 | sed 's/^/#   /'
fi
has "a node not in the allocation: one line naming it and the job" \
    "$tmp/nonode.err" \
    "drdb: drdbnode2 is not a node of Slurm job $job_id (srun: error: Unable to create step for job $job_id: Requested node configuration is not available): give one of its nodes ('scontrol show hostnames' lists them), or use ssh"
has "drdb missing on the node: one line" "$tmp/nodrdb.err" \
    "drdb: drdb is not installed on drdbnode ('/nonexistent/drdb' was not found there): install the same drdb there, or give its path with --remote-drdb PATH"
for f in nonode nodrdb; do
    [ "$(wc -l < "$tmp/$f.err")" = 1 ] && [ "$(cat "$tmp/$f.rc")" = 1 ] &&
        ok "$f: exactly one line, exit status 1" ||
        fail "$f: $(wc -l < "$tmp/$f.err") lines, exit status $(cat "$tmp/$f.rc")"
done
if [ -s "$tmp/ev.local" ] && cmp -s "$tmp/ev.local" "$tmp/ev.remote" &&
        [ -s "$tmp/m.local" ] && cmp -s "$tmp/m.local" "$tmp/m.remote"; then
    ok "drdb log --launcher srun events / match --all of NODE:RUNDIR: the local answers"
else
    fail "drdb log --launcher srun events / match --all differ from local"
    for f in ev m; do
        diff "$tmp/$f.local" "$tmp/$f.remote" | head -5 | sed 's/^/#   /'
        sed 's/^/#   /' "$tmp/$f.remote.err" | tail -3
    done
fi
hasre "the index built from the node's copies fetched no message data" \
    "$tmp/bench" "^fetched: *0 bytes of message data from drdbnode\$"
if awk '/^copies:/ { c = $2; of = $5 } END { exit !(c > 0 && of > c + 1048576) }' "$tmp/bench"; then
    ok "the logs' copies it received left the 1 MiB message out ($(grep '^copies:' "$tmp/bench"))"
else
    fail "the copies' bytes: $(grep '^copies:' "$tmp/bench")"
fi
if grep -q "^    data " "$tmp/e.remote" && cmp -s "$tmp/e.local" "$tmp/e.remote"; then
    ok "drdb log event 1:$data_ev of NODE:RUNDIR: its 1 MiB of data from the node, as local"
else
    fail "drdb log event 1:$data_ev of NODE:RUNDIR differs from local"
    diff "$tmp/e.local" "$tmp/e.remote" | head -6 | sed 's/^/#   /'
fi
# ---- inside `salloc -N 2`: which node? -------------------------------------
cat > "$tmp/inside2.sh" <<EOF
cd "$tmp" || exit 1
timeout 60 "$drdb" replay --launcher srun --remote-drdb "$drdb" --rank 1 \\
    "$run" > two 2> two.err
echo \$? > two.rc
timeout 60 "$drdb" replay --launcher srun --remote-drdb "$drdb" \\
    --host drdbnode2 --rank 1 "$run" > h2 2> h2.err
echo \$? > h2.rc
EOF
run timeout 300 salloc -N 2 --quiet -- /bin/sh "$tmp/inside2.sh" \
    > "$tmp/salloc2.out" 2> "$tmp/salloc2.err" ||
    { fail "salloc -N 2"; comment "$tmp/salloc2.err"; }
has "two nodes and --launcher srun alone: one line asking which" "$tmp/two.err" \
    "drdb: the allocation has 2 nodes (drdbnode, drdbnode2): say which holds the run with --host NODE or NODE:RUNDIR"
same h2 local.1 "rank 1 replayed on drdbnode2 of a 2-node allocation: as local"

# A shell that kept SLURM_JOB_ID after its allocation ended.
SLURM_JOB_ID=$job_id d ended replay --launcher srun --remote-drdb "$drdb" \
    --host drdbnode --rank 1 "$run"
if grep -q "^drdb: Slurm job $job_id has ended (.*): run drdb inside a running allocation (salloc/sbatch), or use ssh\$" "$tmp/ended.err" &&
        [ "$(wc -l < "$tmp/ended.err")" = 1 ] && [ "$(cat "$tmp/ended.rc")" = 1 ]; then
    ok "SLURM_JOB_ID of an ended job: one line saying so"
else
    fail "SLURM_JOB_ID of an ended job (rc $(cat "$tmp/ended.rc"))"
    sed 's/^/#   /' "$tmp/ended.err"
fi
i=0
while [ -n "$(our_stepds)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if [ -z "$(our_stepds)" ]; then
    ok "nothing left running: no step daemon of this Slurm $((i / 10)) s after salloc"
else
    fail "step daemons left: $(our_stepds)"
fi

echo "1..$n"
exit $status
