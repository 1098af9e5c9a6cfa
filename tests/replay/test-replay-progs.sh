#!/bin/sh
# Record/replay equivalence: each program is recorded under mpiexec at 4
# ranks (each rank's stdout in its own file), then EVERY rank is replayed
# alone from its log, and its complete stdout and exit status must equal the
# recorded ones. The tests/progs programs end with a checksum over all they
# received, so equal output means equal final state. Nondeterministic
# programs (ANY_SOURCE arrival order, polls, Wtime) are replayed twice: both
# replays reproduce the recorded run.
# usage: test-replay-progs.sh DRDB MPIEXEC PROG...
set -u
drdb=$1 mpiexec=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

# Arguments some programs take.
prog_args() {
    case $1 in
    anysource) echo 3 ;;
    jacobi) echo 40 ;;
    crash) echo none ;;
    esac
}
nondeterministic() {
    case $1 in
    anysource|anysource-anytag|probe|wtime-errors|rma-modes) return 0 ;;
    esac
    return 1
}

# same_output NAME TAG: every rank's replayed stdout equals the recorded one
# (a rank that printed nothing has no file in either).
same_output() {
    good=0
    for r in 0 1 2 3; do
        a=$tmp/$1.rec.$r b=$tmp/$1.$2.$r
        [ -f "$a" ] || : > "$a"
        [ -f "$b" ] || : > "$b"
        if ! cmp -s "$a" "$b"; then
            echo "# $1 rank $r: replay ($2) differs from the recording:"
            diff "$a" "$b" | head -8 | sed 's/^/#   /'
            good=1
        fi
    done
    return $good
}

for p in "$@"; do
    name=$(basename "$p")
    # shellcheck disable=SC2046
    if ! timeout 120 "$drdb" record -o "$tmp/$name.run" -- "$mpiexec" -n 4 \
            -outfile-pattern "$tmp/$name.rec.%r" "$p" $(prog_args "$name") \
            > "$tmp/$name.rec.log" 2>&1; then
        fail "$name: recording failed"
        sed 's/^/# /' "$tmp/$name.rec.log" | tail -10
        continue
    fi
    for tag in a b; do
        timeout 120 "$drdb" replay --quiet --ranks 0-3 \
            --outfile-pattern "$tmp/$name.$tag.%r" "$tmp/$name.run" \
            > /dev/null 2> "$tmp/$name.$tag.err"
        rc=$?
        if [ $rc != 0 ]; then
            fail "$name: replay exited $rc"
            sed 's/^/# /' "$tmp/$name.$tag.err" | tail -10
        elif same_output "$name" "$tag"; then
            ok "$name: 4 ranks replayed alone, output identical ($tag)"
        else
            fail "$name: replayed output differs ($tag)"
        fi
        nondeterministic "$name" || break
    done
done
# A shared-memory window (on MPI_COMM_SELF, fence-synchronized): replayed
# like the others, the window's memory a private allocation of the stub's
# (docs/replaying.md, "Limits"; tests/fidelity/shm-*.c go further).
for p in "$@"; do
    [ "$(basename "$p")" = rma-modes ] || continue
    if ! timeout 120 "$drdb" record -o "$tmp/shared.run" -- "$mpiexec" -n 2 \
            -outfile-pattern "$tmp/shared.rec.%r" "$p" shared \
            > "$tmp/shared.rec.log" 2>&1; then
        fail "rma-modes shared: recording failed"
        sed 's/^/# /' "$tmp/shared.rec.log" | tail -10
        continue
    fi
    timeout 120 "$drdb" replay --quiet --ranks 0-1 \
        --outfile-pattern "$tmp/shared.a.%r" "$tmp/shared.run" \
        > /dev/null 2> "$tmp/shared.err"
    rc=$?
    if [ $rc = 0 ] && same_output shared a &&
            grep -q "shared window ok" "$tmp/shared.a.1"; then
        ok "rma-modes shared: 2 ranks replayed alone, output identical"
    else
        fail "rma-modes shared: replay exited $rc or its output differs"
        sed 's/^/# /' "$tmp/shared.err" | tail -5
    fi
done
echo "1..$n"
exit $status
