#!/bin/bash
# bench-remote-console.sh - the console with its ranks on another host
# (docs/remote.md, "Speed"; issue 17: 64 ranks ready at main through one
# remote host in at most 1.3x the local time measured in the same run, a
# merged print over them under 300 ms). The run is bench-console.sh's
# 64-rank one (examples/jacobi 32 2, oversubscribed here).
#
# usage: bench-remote-console.sh DRDB MPIEXEC JACOBI [--run RUNDIR]
#            [--reps N] [--ranks N] [--callgrind]
#   --run RUNDIR  an existing recording of jacobi 32 2 (else one is made
#                 with --ranks ranks)
#   --reps N      sessions per way, the median shown (default 3)
#   --ranks N     ranks of the run made (default 64)
#   --callgrind   also the console's instructions (callgrind, the console
#                 process only), local vs through a local agent
#
# Each way is one `drdb batch --ranks 0-(N-1)` session of the same run:
# locally (RUNDIR), through a local agent (localhost:RUNDIR), and through
# ssh to the throwaway sshd of tests/lib-sshd.sh (127.0.0.2:RUNDIR; the
# same files, as a node with the run on its disk). Its numbers are the
# console's own: "N ranks started in S s" (every GDB started and its rank
# stopped at main) and `set timing on`'s "'print rank' took M ms" (the
# median of 3 prints, each merged over the N ranks).
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$3
shift 3
run= reps=3 np=64 callgrind=0
while [ $# -gt 0 ]; do
    case $1 in
    --run) run=$(realpath "$2"); shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --ranks) np=$2; shift 2 ;;
    --callgrind) callgrind=1; shift ;;
    *) echo "usage: $0 DRDB MPIEXEC JACOBI [--run RUNDIR] [--reps N] [--ranks N] [--callgrind]" >&2
       exit 2 ;;
    esac
done
tmp=$(mktemp -d)
. "$(dirname "$0")/../lib-sshd.sh"
trap 'sshd_stop; rm -rf "$tmp"' EXIT
unset LD_PRELOAD

if [ -z "$run" ]; then
    run=$tmp/run
    "$drdb" record -o "$run" -- "$mpiexec" -n "$np" "$jacobi" 32 2 \
        > "$tmp/rec" 2>&1 || { echo "recording $np ranks failed:" >&2; tail "$tmp/rec" >&2; exit 1; }
fi
np=$(sed -n 's/^world_size[ =]*//p' "$run/drdb.run" 2>/dev/null)
[ -n "$np" ] || np=$(ls "$run"/rank-*.log | wc -l)
printf '%s\n' "set timing on" "print rank" "print rank" "print rank" > "$tmp/s.drdb"

ways=("local:$run" "agent:localhost:$run")
if sshd_start; then
    ways+=("ssh:127.0.0.2:$run")
else
    echo "(no ssh way: $sshd_why)"
fi
opts=(--remote-drdb "$drdb")
[ -n "$port" ] && opts+=(--ssh-option "Port=$port"
    --ssh-option "IdentityFile=$tmp/userkey" --ssh-option IdentitiesOnly=yes
    --ssh-option "UserKnownHostsFile=$tmp/known_hosts")

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# session NAME SPEC [WRAPPER...]: one batch session on SPEC; its start
# time (s) and median print time (ms) appended to $tmp/NAME.start, .print.
session() {
    local name=$1 spec=$2
    shift 2
    "$@" "$drdb" batch "${opts[@]}" --ranks "0-$((np - 1))" "$spec" \
        "$tmp/s.drdb" > "$tmp/out" 2> "$tmp/err" ||
        { echo "$name: the session failed:" >&2; tail -5 "$tmp/err" >&2; return 1; }
    sed -n 's/^drdb: \([0-9]*\) ranks started in \([0-9.]*\) s$/\2/p' "$tmp/err" \
        >> "$tmp/$name.start"
    sed -n "s/^drdb: 'print rank' took \([0-9]*\) ms$/\1/p" "$tmp/err" |
        median >> "$tmp/$name.print"
    grep -q "^\[0-$((np - 1))\] rank = 0\$" "$tmp/out" &&
        ! grep -q "did not reach main" "$tmp/err" ||
        { echo "$name: not all $np ranks at main:" >&2; tail -3 "$tmp/err" >&2; return 1; }
}
# The ways in turn, rep after rep: a load that comes and goes on this
# machine falls on each alike.
for ((i = 0; i < reps; i++)); do
    for w in "${ways[@]}"; do
        session "${w%%:*}" "${w#*:}" || exit 1
    done
done
local_start=$(median < "$tmp/local.start")
echo "$np ranks of jacobi 32 2 ready at main, then 'print rank' merged over them (median of $reps sessions each):"
for w in "${ways[@]}"; do
    name=${w%%:*}
    s=$(median < "$tmp/$name.start") p=$(median < "$tmp/$name.print")
    awk -v n="$name" -v s="$s" -v l="$local_start" -v p="$p" 'BEGIN {
        printf "  %-6s started in %6.2f s (%.2fx local; target <= 1.3x)," \
               " merged print %4d ms (target < 300 ms)\n", n, s, s / l, p }'
    echo "         (each session: $(tr '\n' ' ' < "$tmp/$name.start")s)"
done

if [ $callgrind = 1 ]; then
    command -v valgrind > /dev/null || { echo "(no valgrind: no instruction counts)"; exit 0; }
    echo "instructions of the console process (callgrind; GDBs, agent and programs not counted):"
    for w in "local:$run" "agent:localhost:$run"; do
        name=${w%%:*}
        session "cg-$name" "${w#*:}" valgrind --tool=callgrind \
            --callgrind-out-file="$tmp/cg.$name" --trace-children=no || exit 1
        echo "  $name: $(callgrind_annotate "$tmp/cg.$name" 2>/dev/null |
            sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p')"
    done
fi
