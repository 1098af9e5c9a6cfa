#!/bin/sh
# The worked examples of docs/queries.md ("## Examples"), each run as
# written there (its SQL taken from the page) on a recorded run of
# tests/events/sql-pattern.c, the answers computed by hand from the
# program's pattern (its header comment numbers each rank's calls). For
# the examples about times or the order wildcard receives matched in, what
# the pattern fixes: who sent, which calls, which could have matched.
# Example 15 is othello's (tests/examples/test-othello-late.sh).
# usage: test-sql-examples.sh DRDB MPIEXEC SQL_PATTERN QUERIES_MD
set -u
drdb=$1 mpiexec=$2 prog=$3 doc=$4
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

# ex N: example N's answer (CSV) in $tmp/N
ex() {
    "$drdb" log sql --csv "$tmp/run" "$(cat "$tmp/ex-$1.sql")" > "$tmp/$1" \
        2> "$tmp/$1.err"
}
# same NAME N EXPECTED: example N's answer is exactly EXPECTED (lines).
same() {
    if [ "$(cat "$tmp/$2")" = "$3" ]; then ok "$1"; else
        fail "$1"; echo "# want:"; echo "$3" | sed 's/^/#   /'
        echo "# got:"; sed 's/^/#   /' "$tmp/$2" "$tmp/$2.err"
    fi
}

doc_examples "$doc" "$tmp"
[ "$(ls "$tmp"/ex-*.sql | wc -l)" -ge 16 ] &&
    ok "docs/queries.md has $(ls "$tmp"/ex-*.sql | wc -l) worked examples" ||
    fail "docs/queries.md: fewer than 16 examples"
"$drdb" record -o "$tmp/run" -- "$mpiexec" -n 4 "$prog" > "$tmp/rec" 2>&1 ||
    { fail "record sql-pattern"; sed 's/^/# /' "$tmp/rec"; exit 1; }

ex 1
same "1. calls per rank" 1 "rank,call,count(*)
0,MPI_Allreduce,2
0,MPI_Barrier,2
0,MPI_Bcast,1
0,MPI_Comm_rank,1
0,MPI_Comm_size,1
0,MPI_Comm_split,1
0,MPI_Finalize,1
0,MPI_Init,1
0,MPI_Recv,9
0,MPI_Send,4
1,MPI_Allreduce,2
1,MPI_Barrier,2
1,MPI_Bcast,1
1,MPI_Comm_rank,1
1,MPI_Comm_size,1
1,MPI_Comm_split,1
1,MPI_Finalize,1
1,MPI_Init,1
1,MPI_Recv,4
1,MPI_Send,5
2,MPI_Allreduce,2
2,MPI_Barrier,2
2,MPI_Bcast,1
2,MPI_Comm_rank,1
2,MPI_Comm_size,1
2,MPI_Comm_split,1
2,MPI_Finalize,1
2,MPI_Init,1
2,MPI_Irecv,1
2,MPI_Recv,3
2,MPI_Send,5
2,MPI_Wait,1
3,MPI_Allreduce,2
3,MPI_Barrier,2
3,MPI_Bcast,1
3,MPI_Comm_rank,1
3,MPI_Comm_size,1
3,MPI_Comm_split,1
3,MPI_Finalize,1
3,MPI_Init,1
3,MPI_Isend,1
3,MPI_Recv,3
3,MPI_Send,5
3,MPI_Wait,1"

# the ring: 4 + 8 + 12 bytes per link; wildcards: 2 x 8 from each of 1-3
# to 0; 3 -> 1 and 0 -> 2: one int
ex 2
same "2. bytes per rank pair, a matrix" 2 'from,to 0,to 1,to 2,to 3
0,,24,4,
1,16,,24,
2,16,,,24
3,40,4,,'

# rank 3 receives only from rank 2: its ring receives 3, 5, 7 of rank 2's
# sends 4, 6, 8
ex 3
if [ "$(wc -l < "$tmp/3")" = 2 ] &&
    tail -n 1 "$tmp/3" | grep -Eq '^2,(4,3|6,5|8,7),[0-9.]+$'; then
    ok "3. the message rank 3 waited longest for: rank 2's"
else
    fail "3. longest wait"; sed 's/^/#   /' "$tmp/3" "$tmp/3.err"
fi

# rank 0's wildcard receives 9-14, two from each of 1-3, in the order they
# matched; the others that could have: every other sender of a later one
# (nothing rank 0 does between them reaches ranks 1-3)
ex 4
tail -n +2 "$tmp/4" > "$tmp/4.rows"
cut -d, -f3 "$tmp/4.rows" > "$tmp/4.src"
want=$(awk '{ s[NR] = $1 } END {
    for (i = 1; i <= NR; i++) {
        o = ""; delete seen
        for (j = i + 1; j <= NR; j++)
            if (s[j] != s[i] && !seen[s[j]]++) o = o (o == "" ? "" : ",") s[j]
        if (o ~ /,/) o = "\"" o "\""
        printf "0,%d,%s,%s\n", 8 + i, s[i], o
    } }' "$tmp/4.src")
if [ "$(sort "$tmp/4.src" | uniq -c | awk '{ print $1 $2 }' | tr '\n' ' ')" = "21 22 23 " ] &&
    [ "$(cat "$tmp/4.rows")" = "$want" ]; then
    ok "4. wildcard receives and who else could have matched each"
else
    fail "4. wildcard receives"; echo "# want:"; echo "$want" | sed 's/^/#   /'
    sed 's/^/#   /' "$tmp/4" "$tmp/4.err"
fi

ex 5
same "5. the wildcard receives' sources, counted" 5 "peer,count(*)
1,2
2,2
3,2"

# rank 1's collectives: instances 0-4 of MPI_COMM_WORLD, 0 of its half
ex 6
hc=$(grep -c . "$tmp/6")
if [ "$(head -n 1 "$tmp/6")" = "comm,instance,call,enter" ] &&
    ! tail -n +2 "$tmp/6" | grep -Evq '^(0,[0-4],MPI_(Barrier|Bcast|Allreduce|Comm_split)|[0-9]+,0,MPI_Allreduce),[0-9.]+$'; then
    ok "6. the collectives rank 1 arrived last at ($((hc - 1))): its own"
else
    fail "6. arrived last"; sed 's/^/#   /' "$tmp/6" "$tmp/6.err"
fi

ex 7
if grep -qxF "0,0,MPI_Barrier,0 1 2 3" "$tmp/7" &&
    grep -qxF "0,1,MPI_Bcast,0 1 2 3" "$tmp/7" &&
    grep -qxF "0,2,MPI_Allreduce,0 1 2 3" "$tmp/7" &&
    grep -qxF "0,3,MPI_Comm_split,0 1 2 3" "$tmp/7" &&
    grep -qxF "0,4,MPI_Barrier,0 1 2 3" "$tmp/7" &&
    grep -Eqx "[1-9][0-9]*,0,MPI_Allreduce,0 2" "$tmp/7" &&
    grep -Eqx "[1-9][0-9]*,0,MPI_Allreduce,1 3" "$tmp/7" &&
    [ "$(wc -l < "$tmp/7")" = 8 ]; then
    ok "7. the members of each collective instance"
else
    fail "7. members"; sed 's/^/#   /' "$tmp/7" "$tmp/7.err"
fi

ex 8
if [ "$(tail -n +2 "$tmp/8" | cut -d, -f2 | sort | tr '\n' ';')" = "0 2;1 3;" ]; then
    ok "8. the split's halves"
else
    fail "8. communicators"; sed 's/^/#   /' "$tmp/8" "$tmp/8.err"
fi

# the first round of the ring: 0's send 3 to 1, 1's 4 to 2, 2's 4 to 3,
# 3's 4 to 0, whose receive 4 that is
ex 9
same "9. the causal past of rank 0's receive 4: its sends" 9 "rank,seq,call
0,3,MPI_Send
1,4,MPI_Send
2,4,MPI_Send
3,4,MPI_Send"

ex 10
same "10. happened-before both ways" 10 '"happened_before(1, 4, 0, 4)","happened_before(0, 4, 1, 4)"
1,0'

ex 11
same "11. pending at rank 1 before its event 16: rank 3's Isend" 11 \
"kind,rank,seq,call,peer,tag,comm,bytes
incoming,3,16,MPI_Isend,1,30,0,4"

ex 12
if [ "$(tail -n +2 "$tmp/12" | cut -d, -f1-4 | sort | tr '\n' ';')" = \
    "2,16,MPI_Irecv,MPI_Wait;3,16,MPI_Isend,MPI_Wait;" ] &&
    ! tail -n +2 "$tmp/12" | cut -d, -f5 | grep -Evq '^[0-9.]+$'; then
    ok "12. the nonblocking operations, both completed"
else
    fail "12. requests"; sed 's/^/#   /' "$tmp/12" "$tmp/12.err"
fi

ex 13
same "13. no unmatched message" 13 \
"send_rank,send_seq,send_done,send_call,recv_rank,recv_seq,recv_done,recv_call,comm,tag,bytes,any_source,any_tag"

# the calls of every rank: sends 3 x 4 (ring) + 6 (wildcards) + 1 (tag
# 40); receives 3 x 4 + 6 + 1 (tag 30)
ex 14
tail -n +2 "$tmp/14" | cut -d, -f1,2 | sort > "$tmp/14.calls"
if [ "$(tr '\n' ';' < "$tmp/14.calls")" = "MPI_Allreduce,8;MPI_Barrier,8;MPI_Bcast,4;MPI_Comm_rank,4;MPI_Comm_size,4;MPI_Comm_split,4;MPI_Finalize,4;MPI_Init,4;MPI_Irecv,1;MPI_Isend,1;MPI_Recv,19;MPI_Send,19;MPI_Wait,2;" ]; then
    ok "14. calls and time per function"
else
    fail "14. time per call"; sed 's/^/#   /' "$tmp/14" "$tmp/14.err"
fi

ex 16
same "16. receives from rank 0 in rank 0's half" 16 "rank,seq,call
2,16,MPI_Irecv"
sed 's/m.comm = (SELECT comm FROM events WHERE rank = 0 AND seq = 19)/m.comm = 0/' \
    "$tmp/ex-16.sql" > "$tmp/ex-16w.sql"
ex 16w
same "16. the same in MPI_COMM_WORLD" 16w "rank,seq,call
1,3,MPI_Recv
1,5,MPI_Recv
1,7,MPI_Recv
2,16,MPI_Irecv"

echo "1..$n"
exit $status
