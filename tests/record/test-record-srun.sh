#!/bin/sh
# drdb record under Slurm's srun: a private single-node Slurm (slurmctld +
# slurmd on 127.0.0.1, free ports, auth/none, everything in a temporary
# directory) runs p2p-blocking as one 2-rank job; the run is recorded,
# checked and replayed. The daemons are always stopped at exit.
# usage: test-record-srun.sh DRDB P2P_BLOCKING
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib-slurm.sh"
why=$(slurm_skip_reason)
[ -z "$why" ] || { echo "1..0 # SKIP $why"; exit 0; }
drdb=$(realpath "$1") prog=$(realpath "$2")
tmp=$(mktemp -d)
n=0 status=0
fail() { n=$((n + 1)); echo "not ok $n - $1"; status=1; return 1; }
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
cleanup() {
    slurm_cleanup
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
cd "$tmp" || exit 1
unset LD_PRELOAD DRDB_RUN_DIR DRDB_REPLAY_DIR DRDB_REPLAY_RANK

t0=$(date +%s%N)
if ! slurm_start; then
    fail "$slurm_why"
    comment_daemons
    echo "1..$n"
    exit 1
fi
ok "private Slurm started: node idle after $((($(date +%s%N) - t0) / 1000000)) ms"

run timeout 30 srun -n 2 hostname > host.out 2> host.err
rc=$?
check "srun -n 2 hostname runs 2 tasks" '[ $rc = 0 ] && [ "$(wc -l < host.out)" = 2 ]' ||
    { comment host.err; comment_daemons; }

# --- record: MPICH ranks find each other through srun's PMI-2 server.
run timeout 30 "$drdb" record -o run -- srun --mpi=pmi2 -n 2 "$prog" > rec.out 2> rec.err
rc=$?
check "drdb record -- srun --mpi=pmi2 -n 2 p2p-blocking exits 0" '[ $rc = 0 ]'
[ $rc = 0 ] || { comment rec.err; comment_daemons; }
"$drdb" log info run > info 2> info.err
check "log info: world size 2, 2 rank logs" \
    'grep -q "^world size: 2$" info && grep -q "^rank logs:  2$" info'
check "both rank logs are complete" '[ "$(grep -c " complete$" info)" = 2 ]' || comment info info.err
check "the run records the srun command" 'grep -q "^command .*srun --mpi=pmi2 -n 2 " info'
grep '^rank 0: ' rec.out > rec-0.out
grep '^rank 1: ' rec.out > rec-1.out
check "every output line is a 'rank R:' line of rank 0 or 1" \
    '[ -s rec.out ] && ! grep -qv "^rank [01]: " rec.out'
check "both ranks ran as one 2-rank job to their checksum" \
    'grep -q "^rank 0: checksum [0-9a-f]*$" rec-0.out && grep -q "^rank 1: checksum [0-9a-f]*$" rec-1.out &&
     ! grep -q FAIL rec.out'
run timeout 30 srun --mpi=pmi2 -n 2 "$prog" > plain.out 2> plain.err
check "output is unchanged by recording (plain srun, lines sorted)" \
    '[ "$(sort plain.out)" = "$(sort rec.out)" ]' || comment plain.err

# --- replay both ranks; each one's output must be its recorded output.
run timeout 30 "$drdb" replay --ranks 0-1 -o 'rep-%r.out' run > rep.out 2> rep.err
rc=$?
check "drdb replay --ranks 0-1 exits 0" '[ $rc = 0 ]'
[ $rc = 0 ] || comment rep.err
for r in 0 1; do
    check "replayed rank $r prints its recorded lines" \
        '[ -s rep-$r.out ] && cmp -s rec-$r.out rep-$r.out' ||
        { diff rec-$r.out rep-$r.out 2>&1 | head -n 10 | sed 's/^/# /'; }
done

echo "1..$n"
exit $status
