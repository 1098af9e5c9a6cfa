#!/bin/bash
# bench-remote.sh - what the agent costs a replay (docs/remote.md, "Speed"),
# measured against the local replay in the same invocation.
#
# usage: bench-remote.sh DRDB MPIEXEC SENDRECV [HOST [SSH-OPTION...]]
#   HOST (optional): a host reached with `drdb replay --host HOST` whose
#   drdb is DRDB's path and that sees this machine's $TMPDIR at the same
#   path (127.0.0.2 with a local sshd does); the SSH-OPTIONs are passed as
#   --ssh-option.
#
# Prints, for a local replay, one through a local agent (--host localhost)
# and one through HOST:
#   1. the time to run a short replay (rank 1 of a 2-rank sendrecv run:
#      process start dominates), median of 7;
#   2. the throughput of a program's output relayed back: 200 MB written
#      by `head -c` (given as the program: it makes no MPI call), MB/s,
#      median of 3.
set -u
drdb=$(realpath "$1") mpiexec=$2 sendrecv=$(realpath "$3")
host=${4:-}
shift 3
[ $# -gt 0 ] && shift
sshopts=()
for o in "$@"; do sshopts+=(--ssh-option "$o"); done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

(cd "$tmp" && "$drdb" record -o run -- "$mpiexec" -n 2 "$sendrecv") \
    > /dev/null 2>&1 || { echo "recording failed" >&2; exit 1; }
ways=(local localhost)
[ -n "$host" ] && ways+=("$host")
# replay WAY ARGS...: drdb replay ARGS there.
replay() {
    local way=$1
    shift
    case $way in
    local) "$drdb" replay "$@" ;;
    localhost) "$drdb" replay --host localhost "$@" ;;
    *) "$drdb" replay --host "$way" "${sshopts[@]}" --remote-drdb "$drdb" "$@" ;;
    esac
}
echo "== 1. a short replay (sendrecv rank 1), median of 7"
for w in "${ways[@]}"; do
    t=$(for i in 1 2 3 4 5 6 7; do wall replay "$w" --rank 1 "$tmp/run"; done | median)
    printf '%-12s %8.3f s\n' "$w" "$t"
done
mb=200
echo "== 2. $mb MB of output relayed (median of 3)"
for w in "${ways[@]}"; do
    t=$(for i in 1 2 3; do
        wall replay "$w" --rank 0 "$tmp/run" -- /usr/bin/head -c ${mb}000000 /dev/zero
    done | median)
    awk -v w="$w" -v t="$t" -v mb=$mb 'BEGIN { printf "%-12s %8.3f s %8.1f MB/s\n", w, t, mb / t }'
done
