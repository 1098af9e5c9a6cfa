#!/bin/bash
# bench-sql.sh - SQL over the event index (drdb log sql) on the 4-rank run
# of about one million events of bench-events.sh (tests/bench/kernels/
# events.c 25 5000): the time to the first answer (opening the logs,
# building the index, registering the tables: target < 2 s) and each later
# query's (a lookup by event, a scan of one rank, a join, counts over
# every event and message, the same wildcard question twice: the second
# time from the cache, a causal past), in one `drdb log sql --time`
# run per round; three rounds.
# usage: bench-sql.sh DRDB MPIEXEC EVENTS_KERNEL
set -u
drdb=$1 mpiexec=$2 kernel=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$drdb" record -o "$tmp/run" -- "$mpiexec" -n 4 "$kernel" 25 5000 \
    > "$tmp/out" 2>&1 || { echo "recording failed:" >&2; tail "$tmp/out" >&2; exit 1; }
queries=(
    "SELECT call, peer, tag, bytes FROM events WHERE rank = 2 AND seq = 100000"
    "SELECT count(*) FROM events WHERE rank = 1 AND seq BETWEEN 1000 AND 2000"
    "SELECT e.call, m.send_rank FROM matches m JOIN events e ON e.rank = m.recv_rank AND e.seq = m.recv_done WHERE m.send_rank = 3 AND m.send_seq BETWEEN 5000 AND 5100"
    "SELECT count(*) FROM events"
    "SELECT rank, count(*) FROM events WHERE call = 'MPI_Irecv' GROUP BY rank"
    "SELECT send_rank, recv_rank, sum(bytes) FROM matches GROUP BY 1, 2"
    "SELECT count(*) FROM matches WHERE any_source"
    "SELECT recv_rank, count(*) FROM matches WHERE any_source GROUP BY 1"
    "SELECT count(*) FROM causal_past(3, 200000)"
    "SELECT max(duration) FROM events WHERE rank = 0"
)
for i in 1 2 3; do
    echo "== round $i"
    "$drdb" log sql "$tmp/run" --time "${queries[@]}" 2>&1 >/dev/null || exit 1
done | tee "$tmp/bench"
awk '/^load:/ { if ($2 > w) w = $2 }
     END { printf "slowest first answer (load) %.3f s (target < 2 s)\n", w }' \
    "$tmp/bench"
n=${#queries[@]}
for ((k = 1; k <= n; k++)); do
    awk -v k="$k" -v q="${queries[k-1]}" '$1 == "query" && $2 == k":" {
        if ($3 > w) w = $3 } END { printf "query %d: slowest %.4f s  %s\n", k, w, q }' \
        "$tmp/bench"
done
