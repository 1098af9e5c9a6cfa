#!/bin/bash
# The cost of reading a run follows its logs, not the world size its
# drdb.run claims (issue 33, item 4). Before, a 240-byte drdb.run saying
# `world_size 1048576` (the documented maximum) over 4 real logs made
# `drdb check` take 49 s and 2.3 GB, `drdb log sql` 4 s and 950 MB.
#
# Covered: a recorded 4-rank run of jacobi, its drdb.run edited to claim
# 1048576 ranks; drdb log info, log events, log sql and check each end
# within 20 s (a loaded 2-core machine; about 1 s here) in under 200 MB
# of peak memory (about 40 MB here), and answer: the events of the 4
# logs, and check's one note naming the ranks without a log as a range.
# So do drdb batch (a script: status, events, info breakpoints; before,
# 3 s and 2.3 GB: a 2.9 KB struct con_rank per rank of the world) and
# drdb log graph.
#
# usage: test-cost.sh DRDB MPIEXEC JACOBI
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3")
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$here/../lib.sh"
[ -x /usr/bin/time ] || { echo "1..0 # SKIP no /usr/bin/time to measure peak memory"; exit 77; }

"$drdb" record -o run -- "$mpiexec" -n 4 "$jacobi" 40 3 > /dev/null 2> rec.err ||
    { fail "recording jacobi"; cat rec.err; echo "1..$n"; exit 1; }
sed -i 's/^world_size 4$/world_size 1048576/' run/drdb.run
grep -qx 'world_size 1048576' run/drdb.run || { fail "editing drdb.run"; echo "1..$n"; exit 1; }
# (an edit of the user's own: signed again, so that batch replays it)
"$drdb" log sign run > /dev/null 2> sign.err || sed 's/^/# /' sign.err

# bounded NAME CMD...: CMD ends within 20 s in under 200 MB (its output in
# NAME.out, stderr in NAME.err, time's figures in NAME.cost). Without
# MALLOC_PERTURB_ (meson sets it): glibc then fills every calloc'd block,
# and the per-rank table of the world (struct ev_rank, calloc'd: only the
# logged ranks' pages are touched) would count whole, as no user's run does.
bounded() {
    name=$1; shift
    env -u MALLOC_PERTURB_ /usr/bin/time -o "$name.cost" -f '%e %M' timeout 20 "$@" > "$name.out" 2> "$name.err"
    read -r secs kb < <(tail -n 1 "$name.cost")
    if [ "${kb:-999999}" -lt 204800 ] && awk -v s="${secs:-99}" 'BEGIN { exit !(s < 20) }'; then
        ok "$name: ${secs} s, $((kb / 1024)) MB"
    else
        fail "$name: ${secs:-?} s, $((${kb:-0} / 1024)) MB (at most 20 s and 200 MB)"
        tail -3 "$name.err" | sed 's/^/#   /'
    fi
}

bounded "log info" "$drdb" log info run
has "  ... says the world it claims" "log info.out" "world size: 1048576"
bounded "log events" "$drdb" log events run
total=$(grep -c '^ *[0-9]' "log events.out")
bounded "log sql" "$drdb" log sql run --csv "SELECT count(*) FROM events"
has "  ... counts the events of the 4 logs" "log sql.out" "$total"
bounded "check" "$drdb" check run
hasre "  ... one note for the ranks without a log" check.out \
    '^note err.ignored: ranks 4-1048575: each rank has no log'
bounded "log graph" "$drdb" log graph run -o graph.svg
hasre "  ... draws the 4 logs' ranks" graph.svg '>rank 3<'
printf 'status\nevents\ninfo breakpoints\n' > cost.drdb
bounded "batch" "$drdb" batch run cost.drdb
has "  ... says the world it claims and the logs present" batch.out \
    "  ranks:    1048576 (4 logged)"
has "  ... names the ranks without a log as one range" batch.out \
    "  not recorded: ranks 4-1048575 (drdb record --ranks left them out)"
hasre "  ... replays rank 0 to main" batch.out '^0  *stopped  *before 0/'
has "  ... lists rank 0's events as its log says" batch.out \
    "$(grep -m1 '^ *0  *7 ' "log events.out")"
echo "1..$n"
exit $status
