#!/bin/sh
# Record/replay fidelity (issue 16): each program is recorded under mpiexec
# (each rank's stdout in its own file), then EVERY rank is replayed alone
# from its log; its complete stdout and its exit status must equal the
# recorded ones. Programs print what they saw (received data, callback
# calls, error codes, times, ...), so equal output means the rank went
# through the same states.
#
# usage: test-fidelity.sh DRDB MPIEXEC [OPTIONS] PROG... [OPTIONS] PROG...
# Options apply to the programs after them, until changed:
#   --np N          ranks (default 4)
#   --args "A B"    the program's arguments ("" for none)
#   --rec "OPTS"    extra `drdb record` options ("" for none)
#   --env "V=X ..." environment of the recording and the replay ("" for none)
#   --twice / --once  replay twice (nondeterministic programs: both replays
#                   must reproduce the recording) or once (default)
#   --rc N          the exit status every rank's replay must have (default 0)
#   --needs-gib N   (first) skip the whole test, saying why, unless N GiB of
#                   memory are available and N GiB free in the temporary
#                   directory's file system
set -u
drdb=$1 mpiexec=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

np=4 args= rec= envs= twice=0 want_rc=0

# same_output NAME TAG: every rank's replayed stdout equals the recorded one
# (a rank that printed nothing has no file in either).
same_output() {
    good=0 r=0
    while [ $r -lt "$np" ]; do
        a=$tmp/$1.rec.$r b=$tmp/$1.$2.$r
        [ -f "$a" ] || : > "$a"
        [ -f "$b" ] || : > "$b"
        if ! cmp -s "$a" "$b"; then
            echo "# $1 rank $r: replay ($2) differs from the recording:"
            diff "$a" "$b" | head -8 | sed 's/^/#   /'
            good=1
        fi
        r=$((r + 1))
    done
    return $good
}

# check PROG: record it, replay every rank alone (once or twice).
check() {
    name=$(basename "$1")
    [ -s "$tmp/$name.rec.log" ] && name=$name.$n
    # shellcheck disable=SC2086
    if ! env $envs timeout 300 "$drdb" record $rec -o "$tmp/$name.run" -- \
            "$mpiexec" -n "$np" -outfile-pattern "$tmp/$name.rec.%r" \
            "$1" $args > "$tmp/$name.rec.log" 2>&1; then
        fail "$name: recording failed"
        sed 's/^/# /' "$tmp/$name.rec.log" | tail -10
        return
    fi
    for tag in a b; do
        # shellcheck disable=SC2086
        env $envs timeout 300 "$drdb" replay --quiet --ranks "0-$((np - 1))" \
            --outfile-pattern "$tmp/$name.$tag.%r" "$tmp/$name.run" \
            > /dev/null 2> "$tmp/$name.$tag.err"
        rc=$?
        if [ $rc != "$want_rc" ]; then
            fail "$name: replay exited $rc"
            sed 's/^/# /' "$tmp/$name.$tag.err" | tail -10
        elif same_output "$name" "$tag"; then
            ok "$name${args:+ $args}: $np ranks replayed alone, output identical ($tag)"
        else
            fail "$name: replayed output differs ($tag)"
            sed 's/^/# /' "$tmp/$name.$tag.err" | tail -5
        fi
        [ $twice = 1 ] || break
    done
}

if [ "${1:-}" = --needs-gib ]; then
    mem=$(awk '/^MemAvailable:/ { print int($2 / 1048576) }' /proc/meminfo)
    disk=$(df -Pk "$tmp" | awk 'NR == 2 { print int($4 / 1048576) }')
    if [ "${mem:-0}" -lt "$2" ] || [ "${disk:-0}" -lt "$2" ]; then
        echo "1..0 # SKIP needs $2 GiB of memory and of disk in $tmp: $mem GiB available, $disk GiB free"
        exit 0
    fi
    shift 2
fi
while [ $# -gt 0 ]; do
    case $1 in
    --np) np=$2; shift ;;
    --args) args=$2; shift ;;
    --rec) rec=$2; shift ;;
    --env) envs=$2; shift ;;
    --twice) twice=1 ;;
    --once) twice=0 ;;
    --rc) want_rc=$2; shift ;;
    *) check "$1" ;;
    esac
    shift
done
echo "1..$n"
exit $status
