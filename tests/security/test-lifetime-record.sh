#!/bin/bash
# Nothing outlives drdb, and a crash is told from the kills after it
# (issue 33, items 3, 7 and 8; docs/security.md, "What outlives drdb:
# nothing"):
#  - drdb record killed with SIGKILL mid-run: within seconds no process
#    of its job is left (mpiexec, its proxy, the 4 ranks: found by a word
#    of their argv), and the run says it was interrupted, its build id
#    kept;
#  - a rank that died of SIGSEGV is named with its signal by drdb record
#    and `drdb log info`, the ranks killed after it as killed;
#  - a replay whose replay-out/rank-R is a symbolic link says where the
#    files go, and leaves no directory behind in TMPDIR;
#  - a script that sources itself stops with one error.
# usage: test-lifetime-record.sh DRDB MPIEXEC CRASH
set -u
drdb=$(realpath "$1") mpiexec=$2 crash=$(realpath "$3")
tmp=$(mktemp -d)
mark=drdb-life-mark-$$-$RANDOM
cleanup() {
    pkill -KILL -f -- "$mark" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; sed 's/^/#   /' "${3:-/dev/null}" | head -12; fi; }
# the processes whose argv holds the mark
job() { pgrep -f -- "$mark" | grep -vx $$; }

# ---- drdb record killed with SIGKILL --------------------------------------
# Rank 1 sleeps after its first iteration, the others wait for it: the job
# runs until it is killed.
"$drdb" record -o killed -- "$mpiexec" -n 4 "$crash" sleep 1 10 "$mark" \
    > killed.out 2> killed.err &
rec=$!
for _ in $(seq 100); do
    grep -q "sleeping" killed.out 2>/dev/null && break
    sleep 0.2
done
job > before
kill -KILL $rec
wait $rec 2>/dev/null
left=1
for _ in $(seq 25); do
    job > after || { left=0; break; }
    sleep 0.2
done
check "the job ran (drdb, mpiexec and its 4 ranks: $(wc -l < before) processes with the mark)" \
    '[ "$(wc -l < before)" -ge 6 ]' killed.err
check "SIGKILL of drdb record: no process of its job is left 5 s later" \
    '[ $left = 0 ]' after
ps -o pid,ppid,args -p "$(paste -sd, after)" 2>/dev/null | sed 's/^/#   /' | head -8
"$drdb" log info killed > killed.info 2>&1
hasre "log info: the run says drdb record was killed" killed.info \
    '^complete: *no, drdb record was killed'
check "drdb.run keeps the program's build id" \
    'grep -q "^exe_build_id [0-9a-f]\{16,\}$" killed/drdb.run' killed/drdb.run

# ---- a crashed rank and the ranks killed after it -------------------------
"$drdb" record -o segv -- "$mpiexec" -n 4 "$crash" segv 2 > segv.out 2> segv.err
hasre "drdb record names rank 1's signal" segv.err \
    '^drdb: rank 1: died of SIGSEGV (Segmentation fault) mid-run'
hasre "  ... and the others as killed after it" segv.err \
    '^drdb: ranks 0,2[-,]3: killed mid-run$'
"$drdb" log info segv > segv.info 2>&1
hasre "log info: rank 1 died of SIGSEGV" segv.info \
    '^1 .*  died of SIGSEGV (Segmentation fault) mid-run'
hasre "log info: the other ranks were killed mid-run" segv.info \
    '^0 .*  killed mid-run' '^2 .*  killed mid-run' '^3 .*  killed mid-run'

# ---- replay-out/rank-R a symbolic link: no directory left behind ----------
"$drdb" record -o ok -- "$mpiexec" -n 2 "$crash" none 2 3 > ok.out 2> ok.err ||
    { fail "recording crash none"; cat ok.err; }
mkdir -p ok/replay-out elsewhere
ln -s "$tmp/elsewhere" ok/replay-out/rank-0
mkdir -m 700 private
TMPDIR=$tmp/private "$drdb" replay -q --rank 0 ok > replay.out 2> replay.err
check "the replay ran" '[ $? = 0 ]' replay.err
hasre "the replay says where rank 0's files go instead" replay.err \
    "^drdb: rank 0 writes its files in $tmp/private/drdb-replay-[0-9]*-[^/]*/rank-0, removed when drdb ends: '.*/replay-out/rank-0' cannot hold them (a symbolic link there, not followed)"
check "  ... and leaves nothing in TMPDIR" '[ -z "$(ls -A private)" ]' <(ls -la private)
check "  ... nor through the link" '[ -z "$(ls -A elsewhere)" ]'

# ---- a script that sources itself -----------------------------------------
echo "source $tmp/self.drdb" > self.drdb
timeout 60 "$drdb" batch --start lazy --ranks 0 ok self.drdb > self.out 2> self.err
check "a script sourcing itself fails" '[ $? = 1 ]' self.err
hasre "  ... with one error naming the depth" self.err \
    "^drdb: source '$tmp/self.drdb': scripts sourced 64 deep (a script that sources itself?): stopped"
check "  ... and no other ('Too many open files', a line per level)" \
    '[ "$(grep -c "^drdb:" self.err)" -le 2 ] && ! grep -q "Too many open files" self.err' self.err

echo "1..$n"
exit $status
