#!/bin/sh
# The replay runs with the arguments the program was recorded with, and a
# replay started with other ones says so as a divergence (issue 34): the
# program (argv-strtok: a loop counted by argv[1], which it splits with
# strtok before MPI_Init) recorded with "1:65536", then
#  - replayed as recorded: the same output, exit 0;
#  - its drdb.run's argv changed to "1:4" and signed again (the run is the
#    user's own): the replay stops at MPI_Init, exit 97, saying the
#    arguments are not those rank 0 was recorded with;
#  - drdb replay RUNDIR -- PROGRAM ARGS (the user's on purpose): it runs
#    them, saying once which argument is not the recorded one;
#  - the program run by hand with the stub (STUBDIR) and other arguments:
#    the replay stops at MPI_Init, naming the argument, recorded and now.
#
# usage: test-replay-argv.sh DRDB MPIEXEC PROG STUBDIR
set -u
drdb=$1 mpiexec=$2 prog=$3 stubdir=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
run=$tmp/run

if ! "$drdb" record -o "$run" -- "$mpiexec" -n 2 -outfile-pattern \
        "$tmp/rec.%r" "$prog" 1:65536 > "$tmp/rec.log" 2>&1; then
    fail "recording failed"
    sed 's/^/# /' "$tmp/rec.log" | tail -5
    echo "1..$n"
    exit 1
fi

"$drdb" replay --quiet --rank 0 "$run" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc = 0 ] && cmp -s "$tmp/rec.0" "$tmp/out"; then
    ok "replayed with the recorded arguments: the recorded output"
else
    fail "replay as recorded: exit $rc, output:"
    diff "$tmp/rec.0" "$tmp/out" | sed 's/^/# /' | head -8
    sed 's/^/# /' "$tmp/err" | tail -5
fi

sed "s/^\(argv .*\)1:65536\$/\11:4/" "$run/drdb.run" > "$tmp/edited"
cat "$tmp/edited" > "$run/drdb.run"
"$drdb" log sign "$run" > /dev/null 2>&1 || fail "drdb log sign failed"
"$drdb" replay --quiet --rank 0 "$run" > "$tmp/out" 2> "$tmp/err"
rc=$?
want="rank 0: event 0: replay diverged: the program was started with other arguments than rank 0 was recorded with, though drdb.run's argv says the same: it was changed after the recording"
if [ $rc = 97 ] && grep -qF "$want" "$tmp/err" &&
        grep -q "argv-strtok.c:[0-9]* in main()" "$tmp/err" &&
        ! grep -q rounds "$tmp/out"; then
    ok "drdb.run's argv edited: the replay stops at MPI_Init, exit 97"
else
    fail "drdb.run's argv edited: exit $rc, stderr:"
    sed 's/^/# /' "$tmp/err" | tail -5
    sed 's/^/# out: /' "$tmp/out" | tail -3
fi

"$drdb" replay --quiet --rank 0 "$run" -- "$prog" 1:65536 > "$tmp/out" \
    2> "$tmp/err"
rc=$?
want="drdb: replaying with the arguments given, not the recorded ones (argument 1 is '1:65536', recorded '1:4')"
if [ $rc = 0 ] && cmp -s "$tmp/rec.0" "$tmp/out" &&
        grep -qF "$want" "$tmp/err"; then
    ok "the user's own arguments: run as given, said once"
else
    fail "the user's own arguments: exit $rc, stderr:"
    sed 's/^/# /' "$tmp/err" | tail -5
fi

# drdb.run now says 1:4: run by hand with 1:65536.
DRDB_REPLAY_DIR=$run DRDB_REPLAY_RANK=0 \
    LD_LIBRARY_PATH="$stubdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$prog" 1:65536 > "$tmp/out" 2> "$tmp/err"
rc=$?
want="drdb-replay: rank 0: event 0: replay diverged: the program was started with other arguments than recorded: argument 1 is '1:65536', recorded '1:4'"
if [ $rc = 97 ] && grep -qF "$want" "$tmp/err" && ! grep -q rounds "$tmp/out"
then
    ok "run by hand with other arguments: stops at MPI_Init, naming them"
else
    fail "run by hand with other arguments: exit $rc, stderr:"
    sed 's/^/# /' "$tmp/err" | tail -5
fi

echo "1..$n"
exit $status
