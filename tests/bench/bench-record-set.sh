#!/bin/bash
# bench-record-set.sh - drdb record's cost on a set of programs (issue 41):
# NAS-style kernels, a halo proxy and a large-message ping-pong, each run
# natively and under `drdb record` (its default compression), interleaved,
# REPS times; medians. Per program: the wall-clock ratio (record / native,
# the launcher's whole run, up to `drdb record`'s return), the ranks' own
# ratio (the time_s the kernel prints, its timed region), the recorder's
# logging rate (log bytes per second of the recorder's own time, from `drdb
# log info`), and the replay of its busiest rank (the largest log) against
# the native run. Then the geometric means, and memcpy's and the disk's
# rates measured beside them (tests/bench/memrate.c).
# Targets (a quiet machine): wall geo-mean <= 1.10, no program over 1.5,
# ranks <= 1.05; logging >= 50% of memcpy under the kernel's dirty limit;
# the busiest rank's replay <= 1.0 x native.
#
# usage: bench-record-set.sh DRDB MPIEXEC MEMRATE 'NAME NP PROGRAM ARGS'...
#   REPS (default 3) in the environment.
set -u
drdb=$1 mpiexec=$2 memrate=$3
shift 3
reps=${REPS:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
# (meson's benchmark environment points at the replay stub's directory:
# the native runs need MPICH's own library)
unset LD_LIBRARY_PATH LD_PRELOAD

# time_s of the last run ($tmp/out)
ranks_s() { awk '$1 == "time_s" { print $2 }' "$tmp/out" | tail -n 1; }

echo "== drdb record on $# programs, median of $reps interleaved runs (load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-12s %8s %8s %6s %8s %8s %6s %9s %8s %6s\n' program native record ratio \
    ranks_n ranks_r ratio "data MB/s" replay ratio
walls=() rankr=() replays=() worst=0 worst_name=
tot_bytes=0 tot_busy=0
for spec in "$@"; do
    read -r name np prog args <<< "$spec"
    nat=() rec=() nr=() rr=()
    for i in $(seq "$reps"); do
        # Each run starts with no dirty page of the runs before (a
        # recording writes gigabytes; the kernel makes a writer wait for
        # its own and others' write-back once they pass its dirty limit).
        sync
        # shellcheck disable=SC2086
        t=$(wall "$mpiexec" -n "$np" "$prog" $args) || exit 1
        nat+=("$t") nr+=("$(ranks_s)")
        rm -rf "$tmp/run"
        sync
        # shellcheck disable=SC2086
        t=$(wall "$drdb" record -o "$tmp/run" -- "$mpiexec" -n "$np" "$prog" $args) || exit 1
        rec+=("$t") rr+=("$(ranks_s)")
        # a background compression ends before the next timing
        "$drdb" log compress --wait "$tmp/run" > /dev/null 2>&1
    done
    n=$(printf '%s\n' "${nat[@]}" | median)
    r=$(printf '%s\n' "${rec[@]}" | median)
    n_s=$(printf '%s\n' "${nr[@]}" | median)
    r_s=$(printf '%s\n' "${rr[@]}" | median)
    [ -n "$n_s" ] && n_s=$(printf '%.3f' "$n_s")
    [ -n "$r_s" ] && r_s=$(printf '%.3f' "$r_s")
    # the last run's logging: data bytes over the recorder's time, all
    # ranks; the busiest rank (the largest log) replayed alone
    "$drdb" log info "$tmp/run" > "$tmp/info" 2>&1
    read -r bytes busy big <<< "$(awk '$1 ~ /^[0-9]+$/ && $8 ~ /%$/ {
        b += $4; s = $5 * substr($8, 1, length($8) - 1) / 100; t += s
        if ($4 > mb) { mb = $4; br = $1 } }
        END { printf "%d %.6f %d\n", b, t, br }' "$tmp/info")"
    rp=()
    for i in $(seq "$reps"); do
        t=$(wall "$drdb" replay --quiet --rank "$big" "$tmp/run") || exit 1
        rp+=("$t")
    done
    p=$(printf '%s\n' "${rp[@]}" | median)
    rm -rf "$tmp/run"
    ratio=$(awk -v a="$r" -v b="$n" 'BEGIN { printf "%.3f", a / b }')
    rratio=-
    if [ -n "$n_s" ] && [ -n "$r_s" ]; then
        rratio=$(awk -v a="$r_s" -v b="$n_s" 'BEGIN { printf "%.2f", a / b }')
        rankr+=("$rratio")
    fi
    pratio=$(awk -v a="$p" -v b="$n" 'BEGIN { printf "%.3f", a / b }')
    rate=$(awk -v b="$bytes" -v t="$busy" 'BEGIN { printf "%.0f", (t > 0 ? b / 1e6 / t : 0) }')
    printf '%-12s %8.2f %8.2f %6.2f %8s %8s %6s %9s %8.2f %6.2f\n' "$name" "$n" "$r" \
        "$ratio" "${n_s:--}" "${r_s:--}" "$rratio" "$rate" "$p" "$pratio"
    walls+=("$ratio") replays+=("$pratio")
    tot_bytes=$((tot_bytes + bytes))
    tot_busy=$(awk -v a="$tot_busy" -v b="$busy" 'BEGIN { print a + b }')
    if awk -v a="$ratio" -v b="$worst" 'BEGIN { exit !(a > b) }'; then
        worst=$ratio worst_name=$name
    fi
done
sync
"$memrate" "$tmp" 1024 > "$tmp/rates"
mem=$(awk '$1 == "memcpy_mb_s" { print $2 }' "$tmp/rates")
cache=$(awk '$1 == "pagecache_mb_s" { print $2 }' "$tmp/rates")
first=$(awk '$1 == "pagecache_first_mb_s" { print $2 }' "$tmp/rates")
disk=$(awk '$1 == "disk_mb_s" { print $2 }' "$tmp/rates")
lograte=$(awk -v b="$tot_bytes" -v t="$tot_busy" 'BEGIN { printf "%.0f", (t > 0 ? b / 1e6 / t : 0) }')
echo "geo-mean: record/native $(geomean "${walls[@]}") (target <= 1.10; worst $worst_name $worst, target <= 1.5)," \
     "the ranks' own $(geomean "${rankr[@]}") (target <= 1.05)," \
     "busiest rank's replay/native $(geomean "${replays[@]}") (target <= 1.0)"
awk -v l="$lograte" -v m="$mem" -v c="$cache" -v f="$first" -v d="$disk" 'BEGIN {
    printf "logging: %d MB/s of the recorder'"'"'s time, all programs; memcpy %d MB/s (ratio %.2f, target >= 0.5); write(2) into the page cache %d MB/s (ratio %.2f; into memory never touched before: %d MB/s); the disk %d MB/s (ratio %.2f)\n", l, m, l / m, c, l / c, f, d, l / d }'
