#!/bin/sh
# bench-graph.sh - pictures of a big run (drdb log graph, drdb log trace;
# docs/pictures.md): on a synthetic 64-rank run of 100,000 events
# (gen-run.c: a ring with an Allreduce every 8 rounds), the full SVG
# (target < 2 s) and an --around picture (target < 200 ms), each from the
# command line (opening the logs and building the index included), best of
# three; then the 64-rank run of 1,000,000 events written as trace JSON:
# its time and size. Instruction counts under callgrind when valgrind is
# installed (wall clock varies with the machine's load).
# usage: bench-graph.sh DRDB GEN_RUN
set -u
drdb=$1 gen=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# best SECONDS of 3 runs of the command
best() {
    b=
    for i in 1 2 3; do
        s=$(date +%s.%N)
        "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
        e=$(date +%s.%N)
        b=$(echo "$s $e ${b:-999}" | awk '{ d = $2 - $1; print d < $3 ? d : $3 }')
    done
    echo "$b"
}
# instructions the command runs (callgrind), or "-"
instr() {
    command -v valgrind > /dev/null || { echo -; return; }
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" \
        > /dev/null 2> "$tmp/cg.err" || { echo -; return; }
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/cg.err" | tail -1
}

"$gen" "$tmp/run" 64 1563 || exit 1
ev=$("$drdb" log info "$tmp/run" | awk '$1 == "all" { print $2 }')
echo "run: 64 ranks, $ev events"
full=$(best "$drdb" log graph "$tmp/run" --max-events 0 -o "$tmp/full.svg")
size=$(wc -c < "$tmp/full.svg")
echo "full SVG:       $full s, $size bytes (target < 2 s): $(echo "$full" |
    awk '{ printf "%.2f of the target", $1 / 2 }')"
html=$(best "$drdb" log graph "$tmp/run" --max-events 0 -o "$tmp/full.html")
echo "full HTML:      $html s, $(wc -c < "$tmp/full.html") bytes"
logical=$(best "$drdb" log graph "$tmp/run" --max-events 0 --logical \
    -o "$tmp/logical.svg")
echo "full SVG, --logical: $logical s"
around=$(best "$drdb" log graph "$tmp/run" --around 17:800 -o "$tmp/a.svg")
echo "--around 17:800: $around s, $(wc -c < "$tmp/a.svg") bytes (target < 0.2 s):" \
    "$(echo "$around" | awk '{ printf "%.2f of the target", $1 / 0.2 }')"
echo "instructions: full SVG $(instr "$drdb" log graph "$tmp/run" \
    --max-events 0 -o \
    "$tmp/cg.svg"), --around $(instr "$drdb" log graph "$tmp/run" \
    --around 17:800 -o "$tmp/cg.svg")"

rm -rf "$tmp/run"
"$gen" "$tmp/big" 64 15625 || exit 1
ev=$("$drdb" log info "$tmp/big" | awk '$1 == "all" { print $2 }')
s=$(date +%s.%N)
"$drdb" log trace "$tmp/big" -o "$tmp/big.json" || exit 1
e=$(date +%s.%N)
echo "trace JSON of 64 ranks, $ev events: $(echo "$s $e" |
    awk '{ printf "%.2f", $2 - $1 }') s, $(wc -c < "$tmp/big.json") bytes"
