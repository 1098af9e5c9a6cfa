#!/bin/sh
# drdb record under Slurm's srun: a private single-node Slurm (slurmctld +
# slurmd on 127.0.0.1, free ports, auth/none, everything in a temporary
# directory) runs p2p-blocking as one 2-rank job; the run is recorded,
# checked and replayed. The daemons are always stopped at exit.
# usage: test-record-srun.sh DRDB P2P_BLOCKING
set -u
for c in slurmctld slurmd srun sinfo scancel; do
    command -v "$c" >/dev/null 2>&1 || { echo "1..0 # SKIP slurm not installed ($c missing)"; exit 0; }
done
drdb=$(realpath "$1") prog=$(realpath "$2")
tmp=$(mktemp -d)
n=0 status=0 ctld='' slurmd='' job=''
. "$(dirname "$0")/../lib.sh"
fail() { n=$((n + 1)); echo "not ok $n - $1"; status=1; return 1; }
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
# comment FILE...: the last lines of each file as TAP comments.
comment() {
    for f in "$@"; do
        [ -s "$f" ] || continue
        echo "# --- tail of $(basename "$f"):"
        tail -n 15 "$f" | sed 's/^/#   /'
    done
}
# The daemons run with -D: their stdout+stderr hold all their log lines.
comment_daemons() { comment slurmctld.out slurmd.out; }
# alive PID: running (an exited child stays a zombie until waited for).
alive() {
    [ -n "$1" ] && st=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${st#Z}" = "$st" ]
}
# stop PID: TERM, up to 5 s to exit, then KILL; reaps it.
stop() {
    alive "$1" || return 0
    kill "$1" 2>/dev/null
    i=0
    while alive "$1" && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    alive "$1" && kill -9 "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}
# Step daemons (setsid, so outside our process group) that inherited our
# SLURM_CONF from slurmd are this test's.
our_stepds() {
    for p in $(pgrep -x slurmstepd 2>/dev/null); do
        grep -qsxzF "SLURM_CONF=$tmp/slurm.conf" "/proc/$p/environ" && echo "$p"
    done
}
cleanup() {
    alive "$job" && kill "$job" 2>/dev/null
    if alive "$ctld"; then timeout 10 scancel --quiet --user="$(id -un)" 2>/dev/null; fi
    i=0
    while [ -n "$(our_stepds)" ] && [ "$i" -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
    for p in $(our_stepds); do pkill -9 -P "$p"; kill -9 "$p"; done 2>/dev/null
    stop "$slurmd"
    stop "$ctld"
    rm -rf "$tmp"
}
# run CMD...: CMD in the background, waited for, so that a signal (meson's
# timeout) runs the traps at once; $job is its pid until it ends.
run() {
    "$@" &
    job=$!
    wait "$job"
    rc=$?
    job=''
    return $rc
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
cd "$tmp" || exit 1
unset LD_PRELOAD DRDB_RUN_DIR DRDB_REPLAY_DIR DRDB_REPLAY_RANK SLURM_JOB_ID SLURM_JOBID

# Two free TCP ports on 127.0.0.1 (python3 asks the kernel; else a guess).
ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])' 2>/dev/null) ||
    ports="$((20000 + $$ % 20000)) $((20001 + $$ % 20000))"
ctldport=${ports% *} dport=${ports#* }
user=$(id -un)
mkdir state spool
cat > slurm.conf <<EOF
ClusterName=drdbtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctldport
SlurmdPort=$dport
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
MailProg=/bin/true
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
# 2 CPUs whatever the machine has (config_overrides: fewer does not drain it).
NodeName=drdbnode NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$tmp/slurm.conf"

# --- start the daemons in the foreground (-D), as our children.
slurmctld -D -i -f "$SLURM_CONF" > slurmctld.out 2>&1 &
ctld=$!
slurmd -D -N drdbnode -f "$SLURM_CONF" > slurmd.out 2>&1 &
slurmd=$!
# Wait (at most 30 s) for the node to be idle.
state='' i=0 t0=$(date +%s%N)
while [ $i -lt 300 ]; do
    alive "$ctld" || break
    alive "$slurmd" || break
    state=$(sinfo -h -N -n drdbnode -o %t 2>/dev/null)
    [ "$state" = idle ] && break
    sleep 0.1; i=$((i + 1))
done
if [ "$state" != idle ]; then
    why="node state '${state:-none}' after $((i / 10)) s"
    alive "$ctld" || why="slurmctld exited"
    alive "$slurmd" || why="slurmd exited"
    fail "private Slurm started (slurmctld on 127.0.0.1:$ctldport, slurmd on :$dport): $why"
    comment_daemons
    echo "1..$n"
    exit 1
fi
ok "private Slurm started: node idle after $((($(date +%s%N) - t0) / 1000000)) ms"

run timeout 30 srun -n 2 hostname > host.out 2> host.err
rc=$?
check "srun -n 2 hostname runs 2 tasks" '[ $rc = 0 ] && [ "$(wc -l < host.out)" = 2 ]' ||
    { comment host.err; comment_daemons; }

# --- record: MPICH ranks find each other through srun's PMI-2 server.
run timeout 30 "$drdb" record -o run -- srun --mpi=pmi2 -n 2 "$prog" > rec.out 2> rec.err
rc=$?
check "drdb record -- srun --mpi=pmi2 -n 2 p2p-blocking exits 0" '[ $rc = 0 ]'
[ $rc = 0 ] || { comment rec.err; comment_daemons; }
"$drdb" log info run > info 2> info.err
check "log info: world size 2, 2 rank logs" \
    'grep -q "^world size: 2$" info && grep -q "^rank logs:  2$" info'
check "both rank logs are complete" '[ "$(grep -c " complete$" info)" = 2 ]' || comment info info.err
check "the run records the srun command" 'grep -q "^command .*srun --mpi=pmi2 -n 2 " info'
grep '^rank 0: ' rec.out > rec-0.out
grep '^rank 1: ' rec.out > rec-1.out
check "every output line is a 'rank R:' line of rank 0 or 1" \
    '[ -s rec.out ] && ! grep -qv "^rank [01]: " rec.out'
check "both ranks ran as one 2-rank job to their checksum" \
    'grep -q "^rank 0: checksum [0-9a-f]*$" rec-0.out && grep -q "^rank 1: checksum [0-9a-f]*$" rec-1.out &&
     ! grep -q FAIL rec.out'
run timeout 30 srun --mpi=pmi2 -n 2 "$prog" > plain.out 2> plain.err
check "output is unchanged by recording (plain srun, lines sorted)" \
    '[ "$(sort plain.out)" = "$(sort rec.out)" ]' || comment plain.err

# --- replay both ranks; each one's output must be its recorded output.
run timeout 30 "$drdb" replay --ranks 0-1 -o 'rep-%r.out' run > rep.out 2> rep.err
rc=$?
check "drdb replay --ranks 0-1 exits 0" '[ $rc = 0 ]'
[ $rc = 0 ] || comment rep.err
for r in 0 1; do
    check "replayed rank $r prints its recorded lines" \
        '[ -s rep-$r.out ] && cmp -s rec-$r.out rep-$r.out' ||
        { diff rec-$r.out rep-$r.out 2>&1 | head -n 10 | sed 's/^/# /'; }
done

echo "1..$n"
exit $status
