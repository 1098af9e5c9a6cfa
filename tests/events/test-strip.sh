#!/bin/sh
# Logs stripped of their message data (what a remote host sends the
# console, log/log-strip.h): for each program, recorded with and without
# compression, tests/events/test-strip.c checks that the event index built
# from the copies is the one built from the logs, with no message byte
# fetched, and that events shown from them fetch the original data; the
# replay refuses a stripped copy.
#
# usage: test-strip.sh DRDB MPIEXEC TEST_STRIP MARKER_PROG PROG...
set -u
drdb=$1 mpiexec=$2 check=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
marker="drdb-strip-marker"

for prog in "$@"; do
    name=$(basename "$prog")
    for mode in compress no-compress; do
        opt=; [ $mode = no-compress ] && opt=--no-compress
        run=$tmp/$name.$mode
        # shellcheck disable=SC2086
        if ! "$drdb" record $opt -o "$run" -- "$mpiexec" -n 2 "$prog" \
                > "$tmp/rec.log" 2>&1; then
            fail "$name ($mode): recording failed"
            sed 's/^/# /' "$tmp/rec.log" | tail -5
            continue
        fi
        if [ "$mode" = no-compress ]; then
            grep -q "$marker" "$run"/rank-*.log 2>/dev/null ||
                [ "$name" != strip-msg ] ||
                fail "$name: the marker is not in the logs (test broken)"
        fi
        cp -r "$run" "$run.copy"
        out=$("$check" "$run" "$marker" "$run.copy" 2>&1)
        rc=$?
        printf '%s\n' "$out" | grep -E '^#' | sed "s/^# /# $name ($mode): /"
        bad=$(printf '%s\n' "$out" | grep '^not ok')
        if [ $rc -eq 0 ] && [ -z "$bad" ]; then
            ok "$name ($mode): index, listings and events from the stripped copies"
        else
            fail "$name ($mode): stripped copies"
            printf '%s\n' "$out" | grep -E '^(not ok|Bail)' | sed 's/^/#   /'
        fi
    done
done

# The replay refuses a stripped copy, saying where to replay.
out=$("$drdb" replay --quiet --rank 1 "$tmp/strip-msg.compress.copy" 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s' "$out" | grep -q "without its message data"; then
    ok "the replay refuses a stripped copy (status $rc)"
else
    fail "the replay of a stripped copy: status $rc: $out"
fi
echo "1..$n"
exit $status
