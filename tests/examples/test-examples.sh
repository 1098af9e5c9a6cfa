#!/bin/sh
# The examples under mpiexec do what their comments promise.
# usage: test-examples.sh MPIEXEC ANYSOURCE JACOBI OTHELLO OTHELLO_C MPICC
set -u
mpiexec=$1 anysource=$2 jacobi=$3 othello=$4 othello_c=$5 mpicc=$6
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

# anysource: rank 0 gets every (sender, #i) exactly once, and each sender's
# messages in the order it sent them (MPI's non-overtaking rule).
if timeout 60 "$mpiexec" -n 4 "$anysource" 6 > "$tmp/any" 2>&1; then
    got=$(grep -c '^message ' "$tmp/any")
    [ "$got" = 18 ] && ok "anysource: 18 messages" || fail "anysource: $got messages, want 18"
    dups=$(sed -n 's/^message [0-9]*: //p' "$tmp/any" | sort | uniq -d)
    [ -z "$dups" ] && ok "anysource: no duplicates" || fail "anysource: duplicated: $dups"
    inorder=1
    for r in 1 2 3; do
        seq=$(sed -n "s/^message [0-9]*: from rank $r, its #//p" "$tmp/any" | tr '\n' ' ')
        [ "$seq" = "0 1 2 3 4 5 " ] || { inorder=0; echo "# rank $r order: $seq"; }
    done
    [ $inorder = 1 ] && ok "anysource: per-sender order kept" || fail "anysource: per-sender order broken"
else
    fail "anysource exited non-zero"; sed 's/^/# /' "$tmp/any"
fi

# jacobi: the answer does not depend on the decomposition.
for np in 1 2 4; do
    if ! timeout 60 "$mpiexec" -n $np "$jacobi" 37 8 > "$tmp/j$np" 2>&1; then
        fail "jacobi -n $np exited non-zero"; sed 's/^/# /' "$tmp/j$np"
    fi
done
lines=$(grep -c '^iteration ' "$tmp/j1")
[ "$lines" = 8 ] && ok "jacobi: 8 residual lines" || fail "jacobi: $lines residual lines"
if cmp -s "$tmp/j1" "$tmp/j2" && cmp -s "$tmp/j1" "$tmp/j4"; then
    ok "jacobi: 1, 2 and 4 ranks agree"
else
    fail "jacobi: results differ across rank counts"; diff "$tmp/j1" "$tmp/j4" | sed 's/^/# /'
fi
# The residual decreases every iteration.
if awk '/^iteration/ { if (NR > 1 && $4 + 0 >= prev) bad = 1; prev = $4 + 0 } END { exit bad }' "$tmp/j1"; then
    ok "jacobi: residual decreases"
else
    fail "jacobi: residual does not decrease"
fi
# othello: a run ends one of two ways only: exit 0, every turn agreeing
# with rank 0's own sequential search, or exit 3 with the BUG line, when
# the planted bug (a late Result taken as the answer to another Search)
# showed. The turns played before either end are the same in every run.
runs=6 good=0 buggy=0
for i in $(seq $runs); do
    st=0
    timeout 60 "$mpiexec" -n 4 "$othello" > "$tmp/o$i" 2>&1 || st=$?
    case $st in
    0)
        # 4 turns, no pass: 4 + 10 (the opening) + 4 discs on the board.
        if [ "$(grep -c '^turn [1-4]: \(black\|white\) plays [a-h][1-8], value -\{0,1\}[0-9]* ' "$tmp/o$i")" = 4 ] &&
           grep -q '^result: black [0-9]*, white [0-9]* discs; every turn agrees with the sequential search$' "$tmp/o$i" &&
           [ "$(sed -n 's/^result: black \([0-9]*\), white \([0-9]*\) discs.*/\1 + \2/p' "$tmp/o$i" | xargs expr)" = 18 ]; then
            good=$((good + 1))
        else
            fail "othello run $i: exit 0 without the right result"; sed 's/^/# /' "$tmp/o$i"
        fi ;;
    3)
        line=$(grep '^rank 0: BUG: result of search [0-9]* (from rank [1-3]) answered search [0-9]*: value -\{0,1\}[0-9]*, the right value is -\{0,1\}[0-9]*$' "$tmp/o$i")
        late=$(echo "$line" | sed -n 's/.*result of search \([0-9]*\) .*/\1/p')
        cur=$(echo "$line" | sed -n 's/.*answered search \([0-9]*\):.*/\1/p')
        if [ -n "$line" ] && [ "$late" != "$cur" ]; then
            buggy=$((buggy + 1))
        else
            fail "othello run $i: exit 3 without a BUG line naming two searches"; sed 's/^/# /' "$tmp/o$i"
        fi ;;
    *)
        fail "othello run $i: exit status $st"; sed 's/^/# /' "$tmp/o$i" ;;
    esac
done
[ $((good + buggy)) = $runs ] &&
    ok "othello: $runs runs, $good with the sequential search's result, $buggy with the bug detected"
# The turns every run played (without the counts, which vary): one game.
games=$(cat "$tmp"/o[0-9]* | sed -n 's/^\(turn [0-9]*: [a-z]* plays [a-h][1-8], value -\{0,1\}[0-9]*\) .*/\1/p' | sort -u)
if [ "$(echo "$games" | cut -d: -f1 | uniq -d)" = "" ]; then
    ok "othello: every run played the same moves"
else
    fail "othello: runs played different moves"; echo "$games" | sed 's/^/# /'
fi
# othello at 7 ranks: a deeper tree (ranks 1 and 2 are inner nodes with
# searchers of their own), which rank 0 prints; a run still ends one of the
# two ways only.
for i in 1 2; do
    st=0
    timeout 60 "$mpiexec" -n 7 "$othello" > "$tmp/d$i" 2>&1 || st=$?
    if [ $st != 0 ] && [ $st != 3 ]; then
        fail "othello -n 7 run $i: exit status $st"; sed 's/^/# /' "$tmp/d$i"
    elif [ $st = 0 ] && ! grep -q '^result: .*every turn agrees with the sequential search$' "$tmp/d$i"; then
        fail "othello -n 7 run $i: exit 0 without the right result"; sed 's/^/# /' "$tmp/d$i"
    elif [ $st = 3 ] && ! grep -q '^rank 0: BUG: result of search [0-9]* (from rank [1-3]) answered search [0-9]*: ' "$tmp/d$i"; then
        fail "othello -n 7 run $i: exit 3 without a BUG line"; sed 's/^/# /' "$tmp/d$i"
    elif ! grep -qx 'tree: 0 -> 1,2,3; 1 -> 4,5; 2 -> 6' "$tmp/d$i"; then
        fail "othello -n 7 run $i: no deeper tree line"; sed 's/^/# /' "$tmp/d$i"
    else
        ok "othello -n 7 run $i: the deeper tree, exit $st"
    fi
done
# With the stale check fixed ('<' -> '!='), the bug never shows.
if grep -q '^        if (!kid\[src\].busy || res.seq < kid\[src\].seq)$' "$othello_c"; then
    sed 's/^        if (!kid\[src\].busy || res.seq < kid\[src\].seq)$/        if (!kid[src].busy || res.seq != kid[src].seq)/' \
        "$othello_c" > "$tmp/fixed.c"
    if "$mpicc" -O0 -o "$tmp/fixed" "$tmp/fixed.c" 2> "$tmp/cc"; then
        bad=0
        for i in $(seq $runs); do
            st=0
            timeout 60 "$mpiexec" -n 4 "$tmp/fixed" > "$tmp/f$i" 2>&1 || st=$?
            [ $st = 0 ] || { bad=$((bad + 1)); sed 's/^/# /' "$tmp/f$i"; }
        done
        [ $bad = 0 ] && ok "othello, the stale check fixed: $runs runs exit 0" ||
            fail "othello, the stale check fixed: $bad of $runs runs did not exit 0"
    else
        fail "othello with the fix does not compile"; sed 's/^/# /' "$tmp/cc"
    fi
else
    fail "othello.c: the stale check is not the line this test fixes"
fi
echo "1..$n"
exit $status
