#!/bin/bash
# bench-ckpt.sh - the checkpoint library's costs, and the replay's slowdown
# with checkpoints; every number measured in this run (never against stored
# numbers).
#
# usage: bench-ckpt.sh DRDB MPIEXEC BENCH_CKPT KERNEL_SPEC...
#   KERNEL_SPEC: "PROGRAM ARGS" strings (as bench-run.sh --kernel takes).
#
# Prints:
#   1. per dirty-page backend (uffd, mprotect, full), tests/bench/bench-ckpt
#      (see its header), each part in its own process (ckpt_init once per
#      process; a crash in one part leaves the others' numbers):
#      a. the BT case: 68 MiB rewritten before each of 11 checkpoints, then
#         rollbacks to the 1st, 6th and 11th (target: rollback < 50 ms);
#      b. first write into a page after a checkpoint (ns/page);
#      c. dirty-list collection (ms/GiB) and a 1 GiB dirty checkpoint (GiB/s);
#      then a table of the three backends side by side.
#   2. per kernel at 4 ranks, recorded once: rank 0 replayed alone without
#      checkpoints and with DRDB_CKPT_EVERY=events/10 (about 10 checkpoints,
#      the default backend), wall-clock medians of 5, their ratio and the
#      geometric mean (target < 1.05); the number of checkpoints taken is
#      counted in one more run with DRDB_CKPT_DIR (checkpoint files).
#      KERNEL_SPECs after a "--long" argument: the same, printed apart (the
#      compute kernels at sizes whose replay lasts ~1-5 s: the standard
#      set's replays last 5-40 ms, process start included, too short to
#      amortize a checkpoint's fixed cost of ~0.1 ms).
#      on_s: the library started but no checkpoint (DRDB_CKPT=on), which
#      separates its start-up cost from the checkpoints' (ms/ckpt is
#      (ckpt_s - on_s) / ckpts).
# Exit status 1 when a part failed (crash, hang, wrong content after a
# rollback, a checkpoint refused): the numbers printed are still valid.
set -u
drdb=$1 mpiexec=$2 bench=$3
shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
failed=0
part_timeout=25   # seconds; each part takes a few seconds

echo "== 1. checkpoint library, per backend (bench-ckpt BACKEND PART)"
declare -A val
backends=(uffd mprotect full)
for b in "${backends[@]}"; do
    echo
    echo "---- backend $b"
    for p in a b c; do
        timeout -k 5 $part_timeout "$bench" $b $p > "$tmp/out" 2>&1
        rc=$?
        grep -v -e '^SUMMARY ' -e '^backend .* (mem cap' "$tmp/out"
        if [ $rc -ne 0 ]; then
            failed=1
            why="exit status $rc"
            [ $rc -eq 124 ] && why="hung: killed after $part_timeout s"
            [ $rc -gt 128 ] && [ $rc -ne 124 ] && why="killed by signal $((rc - 128))"
            echo "FAILED: bench-ckpt $b $p: $why"
            val[$b,fail]+="$p"
        fi
        for kv in $(sed -n 's/^SUMMARY //p' "$tmp/out"); do
            case $kv in
            *=*) val[$b,${kv%%=*}]=${kv#*=} ;;
            unavailable) val[$b,fail]="n/a" ;;
            esac
        done
    done
done

echo
echo "---- summary (ms: milliseconds; '-': not measured, the part failed)"
rows=(
    "take_full_ms|a. ckpt_take, 1st (full), ms"
    "take_inc_ms|a. ckpt_take, 2nd-11th (median), ms"
    "rb1_ms|a. rollback to 1st, ms (target < 50)"
    "rb6_ms|a. rollback to 6th, ms (target < 50)"
    "rb11_ms|a. rollback to 11th, ms (target < 50)"
    "first_ns|b. 1st write after ckpt, ns/page"
    "again_ns|b. 2nd write (writable), ns/page"
    "fw_cost_ns|b. first-write cost, ns/page"
    "base_ms|c. ckpt after ckpt, no region, ms"
    "clean_ms|c. same, 1 GiB clean, ms"
    "collect_ms_per_gib|c. collection, ms/GiB"
    "dirty_ms|c. ckpt, 1 GiB all written, ms"
    "dirty_gibs|c. same, GiB/s"
    "rb_idle_gib_ms|c. rollback, 0 written, 1 GiB, ms"
)
printf '%-42s' metric
for b in "${backends[@]}"; do printf ' %10s' "$b"; done
echo
for row in "${rows[@]}"; do
    k=${row%%|*}
    printf '%-42s' "${row#*|}"
    for b in "${backends[@]}"; do printf ' %10s' "${val[$b,$k]:--}"; done
    echo
done
printf '%-42s' "failed parts"
for b in "${backends[@]}"; do printf ' %10s' "${val[$b,fail]:-none}"; done
echo

# ckwall CMD...: wall, and a checkpoint the stub could not take is noted
ckwall() {
    wall "$@"
    if grep -q '^drdb: .*checkpoint' "$tmp/out"; then
        echo "bench-ckpt.sh: checkpoint problem in '$*':" >&2
        grep '^drdb: .*checkpoint' "$tmp/out" | head -n 3 >&2
        touch "$tmp/ckpt-problem"   # a subshell: no variable
    fi
}

echo
echo "== 2. replay of rank 0 with a checkpoint every tenth of its events" \
     "(default backend, 4 ranks recorded; wall-clock medians of 5)"
printf '%-16s %7s %6s %6s %9s %9s %9s %7s %8s\n' kernel events every ckpts \
    plain_s on_s ckpt_s ratio ms/ckpt
ratios=() long=0 lratios=()
for k in "$@"; do
    if [ "$k" = --long ]; then
        long=1
        echo "-- the compute kernels again, sized so that a replay lasts long" \
             "enough to amortize the checkpoints' fixed cost"
        continue
    fi
    read -r -a cmd <<< "$k"
    name=$(basename "${cmd[0]}")
    [ $long = 1 ] && name="$name-long"
    run=$tmp/$name
    "$drdb" record -o "$run" -- "$mpiexec" -n 4 "${cmd[@]}" > "$tmp/rec" 2>&1 ||
        { echo "bench-ckpt.sh: recording $name failed" >&2; tail "$tmp/rec" >&2; exit 1; }
    events=$("$drdb" log info "$run" | awk '$1 == "0" && $2 ~ /^[0-9]+$/ { print $2 }')
    [ -n "$events" ] || { echo "bench-ckpt.sh: no event count for $name" >&2; exit 1; }
    every=$((events / 10)); [ $every -ge 1 ] || every=1
    mkdir "$run.ck"
    DRDB_CKPT_EVERY=$every DRDB_CKPT_DIR=$run.ck ckwall "$drdb" replay --rank 0 "$run" > /dev/null
    nck=$(find "$run.ck" -name 'ckpt-*.drdbck' | wc -l)
    rm -rf "$run.ck"
    plain=() on=() ck=()
    for i in 1 2 3 4 5; do
        plain+=("$(ckwall "$drdb" replay --rank 0 "$run")")
        on+=("$(DRDB_CKPT=on ckwall "$drdb" replay --rank 0 "$run")")
        ck+=("$(DRDB_CKPT_EVERY=$every ckwall "$drdb" replay --rank 0 "$run")")
    done
    a=$(printf '%s\n' "${plain[@]}" | median)
    o=$(printf '%s\n' "${on[@]}" | median)
    c=$(printf '%s\n' "${ck[@]}" | median)
    r=$(awk -v a="$a" -v c="$c" 'BEGIN { printf "%.3f", c / a }')
    if [ $long = 1 ]; then lratios+=("$r"); else ratios+=("$r"); fi
    awk -v n="$name" -v e="$events" -v v="$every" -v k="$nck" -v a="$a" -v o="$o" \
        -v c="$c" -v r="$r" \
        'BEGIN { printf "%-16s %7d %6d %6d %9.4f %9.4f %9.4f %7s %8.3f\n", n, e, v, k,
                 a, o, c, r, k ? (c - o) / k * 1e3 : 0 }'
done
printf '%-16s %7s %6s %6s %9s %9s %9s %7s  (target < 1.05)\n' geomean - - - - - - \
    "$(geomean "${ratios[@]}")"
[ ${#lratios[@]} -gt 0 ] &&
    printf '%-16s %7s %6s %6s %9s %9s %9s %7s  (target < 1.05)\n' geomean-long \
        - - - - - - "$(geomean "${lratios[@]}")"
[ -e "$tmp/ckpt-problem" ] && failed=1
[ $failed -eq 0 ] || echo "bench-ckpt.sh: some parts failed (see FAILED above)"
exit $failed
