#!/bin/bash
# bench-remote-index.sh - the event index of bench-events.sh's 4-rank run
# of about one million events (tests/bench/kernels/events.c 25 5000) built
# from its logs read through drdb agents, against the index built locally,
# in the same invocation (docs/remote.md, "Speed"; issue 17: at most 2x
# the local time, no message data transferred).
#
# usage: bench-remote-index.sh DRDB MPIEXEC EVENTS_KERNEL [--run RUNDIR]
#            [--reps N] [--callgrind] [--sources 'HOST:DIR...']...
#   --run RUNDIR   an existing recording of that run (else one is made)
#   --reps N       runs per way, the median shown (default 3)
#   --callgrind    also the instructions of opening and building, local vs
#                  a local agent (client and agent together; ssh and sshd
#                  cannot be counted)
#   --sources 'HOST:DIR...'  one way to measure: the run's logs placed in
#                  these directories (space-separated; the ranks in
#                  blocks, each DIR with drdb.run and its ranks' files) and
#                  read through the agents of their hosts together. Each
#                  DIR is made here: HOST must see this machine's files at
#                  that path (localhost does; 127.0.0.2 with the test sshd
#                  does). Repeatable. Default: 'localhost:TMP/agent' and,
#                  when the throwaway sshd of tests/lib-sshd.sh starts,
#                  '127.0.0.2:TMP/ssh' and the run split over two hosts,
#                  '127.0.0.2:TMP/ssh2a 127.0.0.3:TMP/ssh2b' (two
#                  agents, the second part given with --also); then that
#                  last way again over ssh connections made beforehand
#                  (ControlMaster), as a console's are when it builds
#                  its index.
#
# Each way is `drdb log match SPEC --bench 0`: the time to open (connect,
# receive the logs' copies without message data) and to build the index;
# the CPU time of every process it takes (drdb, its agent, ssh, and the
# test sshd's side: steadier than wall time on a loaded machine); the
# bytes of the copies against the logs', the bytes of message data
# fetched (0 for the index), the payload (message data in the copies and
# fetched: 0, every data field is elided) and the bytes received on the
# connections (frames and all: what ssh carried).
set -u
drdb=$(realpath "$1") mpiexec=$2 kernel=$3
shift 3
run= reps=3 callgrind=0 ways=()
while [ $# -gt 0 ]; do
    case $1 in
    --run) run=$(realpath "$2"); shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --callgrind) callgrind=1; shift ;;
    --sources) ways+=("$2"); shift 2 ;;
    *) echo "usage: $0 DRDB MPIEXEC EVENTS_KERNEL [--run RUNDIR] [--reps N] [--callgrind] [--sources 'HOST:DIR...']..." >&2
       exit 2 ;;
    esac
done
tmp=$(mktemp -d)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lib-sshd.sh"
trap 'sshd_stop; rm -rf "$tmp"' EXIT
unset LD_PRELOAD

if [ -z "$run" ]; then
    run=$tmp/run
    t0=$(date +%s.%N)
    "$drdb" record -o "$run" -- "$mpiexec" -n 4 "$kernel" 25 5000 \
        > "$tmp/out" 2>&1 || { echo "recording failed:" >&2; tail "$tmp/out" >&2; exit 1; }
    awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "recorded the run in %.1f s\n", b - a }'
fi
if [ ${#ways[@]} = 0 ]; then
    ways=("localhost:$tmp/agent")
    if sshd_start; then
        ways+=("127.0.0.2:$tmp/ssh" "127.0.0.2:$tmp/ssh2a 127.0.0.3:$tmp/ssh2b")
    else
        echo "(no ssh way: $sshd_why)"
    fi
fi
sshopts=()
[ -n "$port" ] && sshopts=(--ssh-option "Port=$port"
    --ssh-option "IdentityFile=$tmp/userkey" --ssh-option IdentitiesOnly=yes
    --ssh-option "UserKnownHostsFile=$tmp/known_hosts")

# place 'HOST:DIR...': the run's ranks in blocks over the DIRs.
place() {
    local srcs=($1) k=0 n=${#srcs[@]} s r
    local logs=("$run"/rank-*.log)
    local per=$(( (${#logs[@]} + n - 1) / n ))
    for s in "${srcs[@]}"; do
        local dir=${s#*:}
        mkdir -p "$dir" && chmod 700 "$dir" || return 1
        find "$run" -maxdepth 1 -type f ! -name 'rank-*' \
            -exec cp -p {} "$dir/" \; || return 1
        for ((r = k * per; r < (k + 1) * per && r < ${#logs[@]}; r++)); do
            cp -p "$run/rank-$r".* "$dir/" || return 1
        done
        k=$((k + 1))
    done
}
# spec 'HOST:DIR...': the run as `drdb log` names it: --also for each
# source after the first, then the first (words: the bench's paths hold
# no spaces).
spec() {
    local srcs=($1) out=
    for ((i = 1; i < ${#srcs[@]}; i++)); do
        out="$out --also ${srcs[i]}"
    done
    echo "$out ${srcs[0]}"
}
# sshd_cpu: the CPU seconds of the test sshd's sessions (its finished
# connections' processes, the agents they ran included, and those of the
# connections still open: a ControlMaster's), and of the ControlMaster ssh
# processes ($masters_pids), or 0.
tck=$(getconf CLK_TCK) masters_pids=
sshd_cpu() {
    local p pids=$masters_pids
    [ -n "$sshd_pid" ] && pids="$pids $(pgrep -P "$sshd_pid" | tr '\n' ' ')"
    {
        [ -n "$sshd_pid" ] && [ -r "/proc/$sshd_pid/stat" ] &&
            sed 's/.*) //' "/proc/$sshd_pid/stat" | awk '{ print $14 + $15 }'
        for p in $pids; do
            [ -r "/proc/$p/stat" ] &&
                sed 's/.*) //' "/proc/$p/stat" | awk '{ print $12 + $13 + $14 + $15 }'
        done
    } | awk -v t="$tck" '{ s += $1 } END { printf "%.3f\n", s / t }'
}
# measure NAME SPEC: $reps runs of the index built from SPEC; two lines:
# the median wall time to ready (open, build), the median CPU time of all
# processes (drdb, its agent, ssh, and the sshd side), each against local.
nway=0
measure() {
    local name=$1 i t=$tmp/t.$nway c=$tmp/c.$nway s0 s1
    local words=($2)
    local first=${words[-1]}
    unset 'words[-1]'
    nway=$((nway + 1))
    : > "$c"
    for ((i = 0; i < reps; i++)); do
        s0=$(sshd_cpu)
        /usr/bin/time -f "%U %S" -o "$tmp/time" "$drdb" log "${sshopts[@]}" \
            --remote-drdb "$drdb" "${words[@]}" match "$first" --bench 0 \
            > "$tmp/b.$i" 2>&1 ||
            { cat "$tmp/b.$i" >&2; return 1; }
        sleep 0.3 # sshd reaps the connection's processes
        s1=$(sshd_cpu)
        awk -v a="$s0" -v b="$s1" '{ printf "%.3f\n", $1 + $2 + b - a }' \
            "$tmp/time" >> "$c"
        awk '/^open:/ { o = $2 } /^build:/ { b = $2 }
             END { printf "%.4f %.4f %.4f\n", o + b, o, b }' "$tmp/b.$i"
    done | sort -g > "$t"
    [ -s "$t" ] || return 1
    # the median run's ready, open and build times; the median CPU time
    read -r ready open build < <(sed -n "$(( (reps + 1) / 2 ))p" "$t")
    cpu=$(median < "$c")
    copies=$(awk '/^copies:/ { c += $2; l += $5 }
        END { if (l) printf "%.1f MB of %.1f MB of logs", c / 1e6, l / 1e6 }' "$tmp/b.0")
    fetched=$(awk '/^fetched:/ { f += $2; n++ } END { if (n) print f }' "$tmp/b.0")
    payload=$(awk '/^payload:/ { f += $2; n++ } END { if (n) print f }' "$tmp/b.0")
    wire=$(awk '/^wire:/ { w += $2; n++ } END { if (n) printf "%.1f MB", w / 1e6 }' "$tmp/b.0")
    echo "$name"
    printf '    wall %.3f s (open %.3f, build %.3f)' "$ready" "$open" "$build"
    [ -n "$base" ] && awk -v a="$ready" -v b="$base" 'BEGIN { printf "  %.2fx local", a / b }'
    printf '\n    cpu  %.3f s' "$cpu"
    [ -n "$base" ] && awk -v a="$cpu" -v b="$basecpu" 'BEGIN { printf "  %.2fx local", a / b }'
    echo
    [ -n "$copies" ] && echo "    copies $copies; message data fetched: $fetched bytes"
    [ -n "$wire" ] && echo "    payload (message data in the copies and fetched): ${payload:-?} bytes; on the wire: $wire received"
    return 0
}

"$drdb" log info "$run" | awk '$1 == "all" {
    printf "== the index of %d events (%.1f MB of logs holding %.1f MB of message data), ready (open + build) and CPU time, medians of '"$reps"'\n", $2, $3 / 1e6, $4 / 1e6 }'
base=
measure local "$run" || exit 1
base=$ready basecpu=$cpu
for w in "${ways[@]}"; do
    s=$(spec "$w")
    place "$w" || { echo "cannot place the run in $w" >&2; exit 1; }
    measure "$w" "$s" || exit 1
done

# The last way again over ssh connections made beforehand (a ControlMaster
# for each host, as a console's connections are when it builds its index):
# the index without the ssh handshakes.
masters=()
stop_masters() {
    for h in "${masters[@]}"; do
        ssh -S "$tmp/cm-$h" -O exit "$h" 2> /dev/null
    done
}
trap 'stop_masters; sshd_stop; rm -rf "$tmp"' EXIT
if [ -n "$port" ] && [ ${#ways[@]} -gt 1 ]; then
    w=${ways[-1]}
    for src in $w; do
        h=${src%%:*}
        ssh -p "$port" -i "$tmp/userkey" -o IdentitiesOnly=yes \
            -o UserKnownHostsFile="$tmp/known_hosts" -o BatchMode=yes \
            -o ControlMaster=yes -o ControlPath="$tmp/cm-%h" \
            -o ControlPersist=yes -fN "$h" && masters+=("$h")
    done
    masters_pids=$(pgrep -f "ControlPath=$tmp/cm-" | tr '\n' ' ')
    sshopts+=(--ssh-option "ControlPath=$tmp/cm-%h")
    measure "$w (connections made beforehand)" "$(spec "$w")" || exit 1
fi

if [ $callgrind = 1 ]; then
    command -v valgrind > /dev/null || { echo "no valgrind: no instruction counts"; exit 0; }
    [ -d "$tmp/agent" ] || place "localhost:$tmp/agent" || exit 1
    echo "== instructions of open + build (callgrind, every process)"
    # count NAME SPEC: the instructions of each process of one run, as
    # lines "COMMAND INSTRUCTIONS".
    count() {
        rm -f "$tmp"/cg.*
        valgrind --tool=callgrind --trace-children=yes \
            --callgrind-out-file="$tmp/cg.%p" "$drdb" log match "$2" --bench 0 \
            > /dev/null 2>&1 || { echo "callgrind of $1 failed" >&2; return 1; }
        for f in "$tmp"/cg.*; do
            awk '/^cmd:/ { c = ($3 == "agent") ? "agent" : "client" }
                 /^summary:/ { s = $2 } END { print c, s }' "$f"
        done
    }
    count local "$run" > "$tmp/ci.local" || exit 1
    count agent "localhost:$tmp/agent" > "$tmp/ci.agent" || exit 1
    awk 'FNR == NR { l += $2; next } { a += $2; p[$1] += $2 }
         END { printf "local        %6.2f G\n", l / 1e9
               printf "local agent  %6.2f G  %.2fx local (client %.2f G, agent %.2f G)\n",
                      a / 1e9, a / l, p["client"] / 1e9, p["agent"] / 1e9 }' \
        "$tmp/ci.local" "$tmp/ci.agent"
fi
