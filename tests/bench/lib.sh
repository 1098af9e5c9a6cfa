# lib.sh - helpers of the benchmark scripts (sourced; $tmp is the script's
# scratch directory).

# median: of the numbers on stdin (the upper one of an even count).
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# geomean X...: their geometric mean.
geomean() { printf '%s\n' "$@" | awk '{ s += log($1) } END { printf "%.3f", exp(s / NR) }'; }
# wall CMD...: seconds the command took (its output in $tmp/out); exits on
# failure.
wall() {
    local t0 t1
    t0=$(date +%s.%N)
    if ! "$@" > "$tmp/out" 2>&1; then
        echo "$(basename "$0"): '$*' failed:" >&2
        tail -n 10 "$tmp/out" >&2
        exit 1
    fi
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }'
}
