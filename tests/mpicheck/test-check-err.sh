#!/bin/sh
# drdb check's err.* on err-ignored-bad.c (planted) and err-ignored-ok.c (its
# fixed twin), and no finding on tests/progs/wtime-errors.c (which looks at
# every error it provokes). Every expectation comes from the programs'
# sources: their calls in order are their events.
# usage: test-check-err.sh DRDB MPIEXEC BAD OK WTIME_ERRORS
set -u
drdb=$(realpath "$1") mpiexec=$2 bad=$(realpath "$3") good=$(realpath "$4")
wtime=$(realpath "$5")
lib=$(realpath "$(dirname "$0")/../lib.sh")
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$lib"

# rec NAME NP PROG: records PROG at NP ranks into NAME.
rec() {
    if "$drdb" record -o "$1" -- "$mpiexec" -n "$2" "$3" > "$1.out" \
            2> "$1.err"; then
        ok "record $1"
    else
        fail "record $1"; sed 's/^/# /' "$1.err"
    fi
}
rec bad 2 "$bad"
rec good 2 "$good"
rec wtime 2 "$wtime"

# err-ignored-bad's events: rank 0: 0 Init, 1 Comm_rank, 2 Comm_size,
# 3 Comm_set_errhandler, 4 Send to rank 2 (fails: MPI_ERR_RANK, class 6),
# 5 Recv, 6 Allreduce, 7 Finalize. Rank 1: 0-3 the same, 4 Type_contiguous,
# 5 Type_commit, 6 Type_contiguous with count -1 (fails: MPI_ERR_COUNT,
# class 2), 7 Send with `pair`, 8 Allreduce, 9 Finalize.
"$drdb" check --checks 'err.*' bad > bad.check 2> bad.check.err
echo $? > bad.rc
has "bad: output used" bad.check \
    "    1:6 failed here" "    1:7 used its output"
hasre "bad: output-used message" bad.check \
    '^error err.output-used: MPI_Type_contiguous returned error 0x[0-9a-f]* (class 2), leaving its output newtype undefined (0x[0-9a-f]*); MPI_Send used it as if the call had succeeded$'
has "bad: ignored" bad.check "    0:4 failed here"
hasre "bad: ignored message" bad.check \
    '^warning err.ignored: MPI_Send returned error 0x[0-9a-f]* (class 6) and the program went on'
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
# the failed Type_contiguous is err.output-used's, not also err.ignored's
check "bad: two findings, no more" \
    "[ \$(grep -c '^[a-z]* err\.' bad.check) = 2 ]"
check "bad: exit status 1 (an error)" "[ \$(cat bad.rc) = 1 ]"

# alone, err.ignored does not report the used output's call either
"$drdb" check --checks err.ignored bad > bad-ign.check 2>&1
check "bad: err.ignored alone: rank 0's Send only" \
    "[ \$(grep -c '^warning err.ignored' bad-ign.check) = 1 ] && grep -qx '    0:4 failed here' bad-ign.check"

for r in good wtime; do
    "$drdb" check --checks 'err.*' "$r" > "$r.check" 2> "$r.check.err"
    echo $? > "$r.rc"
    has "$r: no finding" "$r.check" "0 errors, 0 warnings, 0 portability"
    check "$r: exit status 0" "[ \$(cat $r.rc) = 0 ]"
done
echo "1..$n"
exit $status
