#!/bin/sh
# The console starts a host's ranks pipelined (docs/architecture.md,
# "Remote replay nodes"): every rank's SETUP is sent before any SETUP's
# answer is read, and every GDB's START before any STARTED: two round
# trips to the host's agent, not two per rank.
#
# The agent here is a local one (localhost:RUNDIR, the code path of a
# remote host but ssh) behind wire-spy, which relays the connection and
# writes down each frame in the order it passed it on; what the console
# wrote at once is passed on at once. A run of examples/jacobi with 4
# ranks (all started together: the first rank goes alone only above 4).
#
# usage: test-remote-pipeline.sh DRDB MPIEXEC JACOBI WIRE_SPY
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3") spy=$(realpath "$4")
. "$(dirname "$0")/../lib.sh"
n=0 status=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/drdb-rpipe-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
unset LD_PRELOAD

"$drdb" record -o "$tmp/run" -- "$mpiexec" -n 4 "$jacobi" 16 2 \
    > "$tmp/rec" 2>&1 || { fail "recording jacobi with 4 ranks"; echo "1..$n"; exit 1; }

# (argc: set at main, the same on every rank: one merged answer)
printf '%s\n' "print argc" > "$tmp/s.drdb"
WIRE_SPY_DRDB=$drdb WIRE_SPY_LOG=$tmp/log \
    "$drdb" batch --remote-drdb "$spy" --ranks 0-3 "localhost:$tmp/run" \
    "$tmp/s.drdb" > "$tmp/out" 2> "$tmp/out.err"
has "the 4 ranks reach main through the agent" "$tmp/out" "[0-3] \$1 = 3"

# The frames of SETUP and START and their answers, in the order passed on.
awk '$1 == ">" && ($2 == "SETUP" || $2 == "START") { req[$3] = $2; print; next }
     $1 == "<" && ($2 == "DATA" || $2 == "STARTED" || $2 == "ERROR") && ($3 in req) {
         print; delete req[$3] }' "$tmp/log" > "$tmp/seq"
# requests_before KIND ANSWER: how many KIND requests went out before the
# first ANSWER to one of them came back.
requests_before() {
    awk -v kind="$1" -v ans="$2" '$1 == ">" && $2 == kind { n++; ch[$3] = 1 }
        $1 == "<" && $2 == ans && ($3 in ch) { print n; exit }' "$tmp/seq"
}
if [ "$(grep -c '^> SETUP ' "$tmp/seq")" = 4 ] &&
   [ "$(grep -c '^> START ' "$tmp/seq")" = 4 ]; then
    ok "one SETUP and one START per rank"
else
    fail "one SETUP and one START per rank"
    sed 's/^/#   /' "$tmp/seq"
fi
for k in "SETUP DATA" "START STARTED"; do
    set -- $k
    b=$(requests_before "$1" "$2")
    if [ "$b" = 4 ]; then
        ok "all 4 ${1}s sent before the first $2"
    else
        fail "all 4 ${1}s sent before the first $2 (were: ${b:-none})"
        sed 's/^/#   /' "$tmp/seq"
    fi
done

echo "1..$n"
exit $status
