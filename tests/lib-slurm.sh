# tests/lib-slurm.sh - a private single-node Slurm for a test (sourced after
# tests/lib.sh): slurmctld + slurmd on 127.0.0.1, free ports, auth/none,
# everything in the test's temporary directory $tmp; node 'drdbnode'
# (NodeHostname localhost), partition 'debug', 2 CPUs.
#
#   slurm_skip_reason      prints why Slurm cannot be used here (a command
#                          missing), or nothing
#   slurm_start            writes $tmp/slurm.conf, exports SLURM_CONF, starts
#                          the daemons (in the foreground, as our children)
#                          and waits up to 30 s for the node to be idle:
#                          0, or 1 with the reason in $slurm_why
#   slurm_cleanup          ends the job in $job, this Slurm's jobs and step
#                          daemons, and the daemons (call it from the EXIT
#                          trap, before removing $tmp)
#   run CMD...             CMD in the background, waited for ($job its pid),
#                          so that a signal (meson's timeout) runs the traps
#   comment FILE...        the end of each file as TAP comments
#   comment_daemons        the daemons' output as TAP comments
#
# The caller sets tmp, and cds there or not as it likes; SLURM_JOB_ID and
# SLURM_JOBID are unset here (a test is never inside a job it did not make).
ctld='' slurmd='' job='' slurm_why=''
unset SLURM_JOB_ID SLURM_JOBID SLURM_JOB_NODELIST SLURM_NODELIST

slurm_skip_reason() {
    for _c in slurmctld slurmd srun sinfo scancel; do
        command -v "$_c" >/dev/null 2>&1 || { echo "slurm not installed ($_c missing)"; return; }
    done
}

# comment FILE...: the last lines of each file as TAP comments.
comment() {
    for _f in "$@"; do
        [ -s "$_f" ] || continue
        echo "# --- tail of $(basename "$_f"):"
        tail -n 15 "$_f" | sed 's/^/#   /'
    done
}
# The daemons run with -D: their stdout+stderr hold all their log lines.
comment_daemons() { comment "$tmp/slurmctld.out" "$tmp/slurmd.out"; }
# alive PID: running (an exited child stays a zombie until waited for).
alive() {
    [ -n "$1" ] && _st=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${_st#Z}" = "$_st" ]
}
# stop PID: TERM, up to 5 s to exit, then KILL; reaps it.
stop() {
    alive "$1" || return 0
    kill "$1" 2>/dev/null
    _i=0
    while alive "$1" && [ "$_i" -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
    alive "$1" && kill -9 "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}
# Step daemons (setsid, so outside our process group) that inherited our
# SLURM_CONF from slurmd are this test's.
our_stepds() {
    for _p in $(pgrep -x slurmstepd 2>/dev/null); do
        grep -qsxzF "SLURM_CONF=$tmp/slurm.conf" "/proc/$_p/environ" && echo "$_p"
    done
}
slurm_cleanup() {
    alive "$job" && kill "$job" 2>/dev/null
    if alive "$ctld"; then timeout 10 scancel --quiet --user="$(id -un)" 2>/dev/null; fi
    _i=0
    while [ -n "$(our_stepds)" ] && [ "$_i" -lt 30 ]; do sleep 0.1; _i=$((_i + 1)); done
    for _p in $(our_stepds); do pkill -9 -P "$_p"; kill -9 "$_p"; done 2>/dev/null
    stop "$slurmd"
    stop "$ctld"
}
run() {
    "$@" &
    job=$!
    wait "$job"
    _rc=$?
    job=''
    return $_rc
}

slurm_start() {
    # Two free TCP ports on 127.0.0.1 (python3 asks the kernel; else a guess).
    _ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])' 2>/dev/null) ||
        _ports="$((20000 + $$ % 20000)) $((20001 + $$ % 20000))"
    ctldport=${_ports% *} dport=${_ports#* }
    _user=$(id -un)
    mkdir -p "$tmp/state" "$tmp/spool"
    cat > "$tmp/slurm.conf" <<EOF
ClusterName=drdbtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctldport
SlurmdPort=$dport
SlurmUser=$_user
SlurmdUser=$_user
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
    slurmctld -D -i -f "$SLURM_CONF" > "$tmp/slurmctld.out" 2>&1 &
    ctld=$!
    slurmd -D -N drdbnode -f "$SLURM_CONF" > "$tmp/slurmd.out" 2>&1 &
    slurmd=$!
    # Wait (at most 30 s) for the node to be idle.
    _state='' _i=0
    while [ $_i -lt 300 ]; do
        alive "$ctld" || break
        alive "$slurmd" || break
        _state=$(sinfo -h -N -n drdbnode -o %t 2>/dev/null)
        [ "$_state" = idle ] && return 0
        sleep 0.1; _i=$((_i + 1))
    done
    slurm_why="node state '${_state:-none}' after $((_i / 10)) s"
    alive "$ctld" || slurm_why="slurmctld exited"
    alive "$slurmd" || slurm_why="slurmd exited"
    slurm_why="private Slurm (slurmctld on 127.0.0.1:$ctldport, slurmd on :$dport): $slurm_why"
    return 1
}
