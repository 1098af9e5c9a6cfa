#!/bin/sh
# The examples under mpiexec do what their comments promise.
# usage: test-examples.sh MPIEXEC ANYSOURCE JACOBI
set -u
mpiexec=$1 anysource=$2 jacobi=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 status=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; status=1; }

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
echo "1..$n"
exit $status
