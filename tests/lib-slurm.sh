# tests/lib-slurm.sh - a private Slurm for a test (sourced after
# tests/lib.sh): slurmctld + one slurmd per node on 127.0.0.1, free ports,
# auth/none, everything in the test's temporary directory $tmp; nodes
# 'drdbnode' ('drdbnode2', ... when more; NodeHostname localhost), 2 CPUs
# each, partition 'debug'.
#
#   slurm_test_begin       skips the test when Slurm cannot be used; else
#                          $tmp, n, status, and the EXIT trap
#   slurm_skip_reason      prints why Slurm cannot be used here (a command
#                          missing), or nothing
#   slurm_start [NODES]    writes $tmp/slurm.conf, exports SLURM_CONF, starts
#                          the daemons (in the foreground, as our children)
#                          for NODES nodes (default 1) and waits up to 30 s
#                          for them to be idle: 0, or 1 with the reason in
#                          $slurm_why
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
ctld='' slurmds='' job='' slurm_why=''
unset SLURM_JOB_ID SLURM_JOBID SLURM_JOB_NODELIST SLURM_NODELIST

# slurm_test_begin: as a test's first step, skips it (exit 77) when Slurm
# cannot be used here; else sets n, status and tmp (a new directory, which
# the EXIT trap removes after slurm_cleanup; a signal exits through it),
# and unsets what an outer drdb would pass on (LD_PRELOAD, DRDB_*).
slurm_test_begin() {
    _why=$(slurm_skip_reason)
    [ -z "$_why" ] || { echo "1..0 # SKIP $_why"; exit 77; }
    n=0 status=0
    tmp=$(mktemp -d)
    trap 'slurm_cleanup; rm -rf "$tmp"' EXIT
    trap 'exit 1' HUP INT TERM
    unset LD_PRELOAD DRDB_RUN_DIR DRDB_REPLAY_DIR DRDB_REPLAY_RANK
}

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
comment_daemons() { comment "$tmp/slurmctld.out" "$tmp"/slurmd-*.out; }
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
    for _p in $slurmds; do stop "$_p"; done
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
    _nodes=${1:-1}
    # Free TCP ports on 127.0.0.1, for slurmctld and each slurmd (python3
    # asks the kernel; else a guess).
    _ports=$(python3 -c 'import socket, sys
s=[socket.socket() for _ in range(int(sys.argv[1]) + 1)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])' "$_nodes" 2>/dev/null) ||
        _ports=$(seq $((20000 + $$ % 20000)) $((20000 + $$ % 20000 + _nodes)) | tr '\n' ' ')
    ctldport=${_ports%% *}
    _user=$(id -un)
    mkdir -p "$tmp/state" "$tmp/spool"
    cat > "$tmp/slurm.conf" <<EOF
ClusterName=drdbtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctldport
SlurmUser=$_user
SlurmdUser=$_user
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd-%n.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd-%n.log
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
EOF
    # 2 CPUs whatever the machine has (config_overrides: fewer does not
    # drain it); each node's slurmd on a port of its own.
    _i=0 _names=
    for _port in ${_ports#* }; do
        _i=$((_i + 1))
        _name=drdbnode
        [ $_i -gt 1 ] && _name=drdbnode$_i
        _names="$_names $_name"
        echo "NodeName=$_name NodeHostname=localhost NodeAddr=127.0.0.1 Port=$_port CPUs=2 State=UNKNOWN" >> "$tmp/slurm.conf"
    done
    echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP" >> "$tmp/slurm.conf"
    export SLURM_CONF="$tmp/slurm.conf"
    slurmctld -D -i -f "$SLURM_CONF" > "$tmp/slurmctld.out" 2>&1 &
    ctld=$!
    for _name in $_names; do
        slurmd -D -N "$_name" -f "$SLURM_CONF" > "$tmp/slurmd-$_name.out" 2>&1 &
        slurmds="$slurmds $!"
    done
    # Wait (at most 30 s) for every node to be idle.
    _state='' _i=0
    while [ $_i -lt 300 ]; do
        alive "$ctld" || break
        for _p in $slurmds; do alive "$_p" || break 2; done
        _state=$(sinfo -h -N -o %t 2>/dev/null | sort -u | tr '\n' ' ')
        [ "$_state" = "idle " ] &&
            [ "$(sinfo -h -N -o %N 2>/dev/null | wc -l)" = "$_nodes" ] && return 0
        sleep 0.1; _i=$((_i + 1))
    done
    slurm_why="node states '${_state:-none}' after $((_i / 10)) s"
    alive "$ctld" || slurm_why="slurmctld exited"
    for _p in $slurmds; do alive "$_p" || slurm_why="a slurmd exited"; done
    slurm_why="private Slurm (slurmctld on 127.0.0.1:$ctldport, $_nodes slurmd): $slurm_why"
    return 1
}
