#!/bin/sh
# When drdb record compresses message data (docs/recording.md,
# "Compression"): --compress=background returns at once and compresses in a
# process of its own; `drdb log compress` compresses now, waits for the
# background one (--wait) or prints its state (--status); a session that
# uses the run (the console) holds it, and no log is replaced under it;
# Ctrl-C and a killed compressor leave the logs as they were, and the
# next compression removes what a killed one left. Message data that does
# not compress (tests/record/noise.c's random bytes) is left as it is, and
# the result says so.
# usage: test-record-compress.sh DRDB MPIEXEC JACOBI NOISE
set -u
drdb=$(realpath "$1") mpiexec=$2 prog=$(realpath "$3") noise=$(realpath "$4")
tmp=$(mktemp -d)
cleanup() {
    [ -n "${con:-}" ] && kill "$con" 2>/dev/null
    [ -n "${bgpid:-}" ] && kill -9 "$bgpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }

# record NAME OPTION...: jacobi on 2 ranks (the same events every time)
record() {
    name=$1
    shift
    "$drdb" record -o "$name" "$@" -- "$mpiexec" -n 2 "$prog" 400 4 \
        > "$name.out" 2> "$name.err"
}
# dump RUN: rank 1's events as "function peer tag bytes" (no times)
dump() { "$drdb" log dump "$1" --rank 1 | awk 'NR > 1 && !/^--/ { print $2, $3, $4, $7 }'; }
# until SECONDS CMD...: polls CMD every 0.1 s until it succeeds (0) or
# SECONDS pass (1)
until_ok() {
    i=$(($1 * 10))
    shift
    while [ $i -gt 0 ]; do
        "$@" && return 0
        sleep 0.1
        i=$((i - 1))
    done
    return 1
}
held() { ! flock -n -x "$1/.drdb.hold" true; }
tmpfiles() { find "$1" -name '.rank-*.tmp-*' | wc -l; }

record plain --no-compress
dump plain > plain.dump

# ---- background: drdb returns, the compressor runs on its own
record bg --compress=background
hasre "--compress=background says it runs in the background, with its pid" bg.err \
    "^drdb: compressing [0-9.]* MB of logs in the background (pid [0-9]*); the run is usable meanwhile"
"$drdb" log compress --wait bg > wait.out 2>&1
rc=$?
if [ $rc = 0 ] && grep -q "^bg: compressed: [0-9.]* MB of logs now take [0-9.]* MB ([0-9]*%), in [0-9.]* s\$" wait.out; then
    ok "log compress --wait waits for it and gives the ratio and time"
else
    fail "log compress --wait (rc $rc)"
    sed 's/^/#   /' wait.out
fi
check "the background compression made the logs smaller" \
    '[ "$(stat -c %s bg/rank-1.log)" -lt "$(stat -c %s plain/rank-1.log)" ]'
check "and they read as the uncompressed ones" 'dump bg > bg.dump && cmp -s bg.dump plain.dump'
check "the logs and the state file stay private (0600)" \
    '[ "$(stat -c %a bg/rank-1.log)" = 600 ] && [ "$(stat -c %a bg/drdb.compress)" = 600 ]'
check "no temporary file is left" '[ "$(tmpfiles bg)" = 0 ]'
"$drdb" log info bg > info.out 2>&1
hasre "drdb log info gives the compression's result" info.out "^compression bg: compressed: "

# ---- a session holds the run: nothing is replaced under it
record held --no-compress
mkfifo in
"$drdb" console held --ranks 0 < in > con.out 2>&1 &
con=$!
exec 7> in
check "the console holds the run while it lasts" 'until_ok 60 held held'
ino=$(stat -c %i held/rank-0.log)
"$drdb" log compress held > hc.out 2> hc.err &
hc=$!
check "a compression waits for the session, and says so" \
    'until_ok 60 grep -q "^drdb: waiting for the sessions using held to end before replacing its logs" hc.err'
check "no log was replaced while the session lasts" \
    '[ "$(stat -c %i held/rank-0.log)" = "$ino" ] && kill -0 $hc'
echo quit >&7
exec 7>&-
wait $con
con=
wait $hc
rc=$?
check "once the session ended the compression ends (status 0)" '[ $rc = 0 ]'
check "and replaced the logs with compressed ones that read the same" \
    '[ "$(stat -c %i held/rank-0.log)" != "$ino" ] && dump held > held.dump && cmp -s held.dump plain.dump'

# ---- Ctrl-C while waiting: the logs stay as they were
record intr --no-compress
"$drdb" console intr --ranks 0 < in > con2.out 2>&1 &
con=$!
exec 7> in
until_ok 60 held intr
ino=$(stat -c %i intr/rank-0.log)
"$drdb" log compress intr > ic.out 2> ic.err &
ic=$!
until_ok 60 grep -q "waiting for the sessions" ic.err
kill -INT $ic
wait $ic
rc=$?
check "Ctrl-C stops the compression (status 1) and says the logs stay" \
    '[ $rc = 1 ] && grep -q "^drdb: compression stopped: the logs not yet compressed stay as they are" ic.err'
check "the logs are the same files, no temporary file left" \
    '[ "$(stat -c %i intr/rank-0.log)" = "$ino" ] && [ "$(tmpfiles intr)" = 0 ]'

# ---- a background compressor killed (kill -9) while it waits for the
# session: its state says it ended without a result, the logs are whole,
# the next compression removes what it left
# (the same run, its console still holding it)
"$drdb" log compress --background intr > k9.out 2> k9.err
bgpid=$(sed -n 's/.*in the background (pid \([0-9]*\)).*/\1/p' k9.err)
check "log compress --background starts one and names its pid" '[ -n "$bgpid" ]'
check "--status says it waits for the session" \
    'until_ok 60 sh -c "\"$drdb\" log compress --status intr | grep -q \"^intr: waiting: .*(pid $bgpid); waiting for the sessions using the run to end\""'
check "it has written its compressed copies meanwhile" '[ "$(tmpfiles intr)" -gt 0 ]'
kill -9 "$bgpid"
until_ok 30 sh -c "! kill -0 $bgpid 2>/dev/null"
bgpid=
"$drdb" log compress --wait intr > k9w.out 2>&1
rc=$?
check "--wait on a killed compressor: status 1, it ended without a result" \
    '[ $rc = 1 ] && grep -q "^intr: the background compression (pid [0-9]*) ended without a result; .drdb log compress intr. compresses what is left" k9w.out'
check "killed: the logs are the originals and read the same" \
    'dump intr > k9.dump && cmp -s k9.dump plain.dump'
echo quit >&7
exec 7>&-
wait $con
con=
"$drdb" log compress intr > k9b.out 2> k9b.err
rc=$?
check "the next compression removes what the killed one left and compresses" \
    '[ $rc = 0 ] && [ "$(tmpfiles intr)" = 0 ] && [ "$(stat -c %s intr/rank-1.log)" -lt "$(stat -c %s plain/rank-1.log)" ]'

# ---- data that does not compress: rank 1 receives random bytes, rank 0 text
"$drdb" record -o nz --no-compress -- "$mpiexec" -n 2 "$noise" > nz.out 2> nz.err
cp -a nz nz.orig
"$drdb" log compress nz > nzc.out 2> nzc.err
rc=$?
check "a log whose data does not compress is left byte for byte" \
    '[ $rc = 0 ] && cmp -s nz/rank-1.log nz.orig/rank-1.log'
check "the other log is compressed" \
    '[ "$(stat -c %s nz/rank-0.log)" -lt 100000 ]'
has "the result names what was left and why" nzc.err \
    "drdb: 1 log (8.4 MB) left uncompressed: its message data does not compress (samples shrank by less than a tenth)"
hasre "and what was compressed, without the log left" nzc.err \
    "^drdb: compressed message data: 8.4 MB of logs now take 0.0 MB (0%), in [0-9.]* s\$"
check "both ranks replay what they received" \
    '"$drdb" replay --quiet --rank 0 nz > nz.0 2>&1 && "$drdb" replay --quiet --rank 1 nz > nz.1 2>&1 && grep -qx "$(grep "^rank 0 " nz.out)" nz.0 && grep -qx "$(grep "^rank 1 " nz.out)" nz.1'
cp -a nz.orig nzb
"$drdb" log compress --background nzb > /dev/null 2>&1
"$drdb" log compress --wait nzb > nzb.out 2>&1
has "a background compression says the same in its result" nzb.out \
    "nzb: 1 log (8.4 MB) left uncompressed: its message data does not compress (samples shrank by less than a tenth)"
"$drdb" log info nzb > nzb.info 2>&1
hasre "and so does drdb log info" nzb.info \
    "^compression nzb: 1 log (8.4 MB) left uncompressed: its message data does not compress"

# ---- bad input
"$drdb" log compress nosuch > /dev/null 2> nosuch.err
rc=$?
check "a directory that is not a run: status 2 and says so" \
    '[ $rc = 2 ] && grep -q "is not a drdb run directory" nosuch.err'
"$drdb" record -o unused --compress=bogus -- true 2> bogus.err
check "a bad --compress mode is refused" \
    'grep -q "^drdb: --compress takes auto, now, background or no, not .bogus." bogus.err'
"$drdb" log compress --status plain > st.out 2>&1
has "--status on a run never compressed in the background says so" st.out \
    "plain: no compression was started in the background"

echo "1..$n"
exit $status
