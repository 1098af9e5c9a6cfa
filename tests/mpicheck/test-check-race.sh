#!/bin/sh
# race.* (docs/check.md): a wildcard receive that could have taken another
# sender's message. The planted program and its twin (expected findings
# from the programs' header comments), then examples/othello: every late
# Result (docs/queries.md, example 15, found here with the Result's own
# send event) that race.any-source names as an alternative is named with
# the Search it was computed for, and some are.
# usage: test-check-race.sh DRDB MPIEXEC BAD OK OTHELLO PROBE_BAD
set -u
drdb=$1 mpiexec=$2 bad=$3 good=$4 othello=$5 probe_bad=$6
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

record() {
    timeout 120 "$drdb" record -o "$tmp/$1" -- "$mpiexec" -n "$2" \
        -outfile-pattern "$tmp/$1.out.%r" "$3" > "$tmp/$1.rec" 2>&1
    echo $? > "$tmp/$1.rst"
}
check() {
    "$drdb" check --checks 'race.*' "$tmp/$1" > "$tmp/$1.out" 2>&1
}

record bad 3 "$bad"
check bad
hasre "race.any-source: the first wildcard receive, either sender taken" \
    "$tmp/bad.out" \
    "^warning race.any-source: MPI_Recv(MPI_ANY_SOURCE, tag 7, MPI_COMM_WORLD) at rank 0 took rank \([12]\)'s message (tag 7); rank [12]'s (tag 7) could have come first$" \
    "^    0:3 wildcard receive$" "^    [12]:3 took$" \
    "^    [12]:3 could have been taken$" \
    "^0 errors, 1 warnings, 0 portability$"
took=$(sed -n 's/^    \([12]\):3 took$/\1/p' "$tmp/bad.out")
alt=$(sed -n 's/^    \([12]\):3 could have been taken$/\1/p' "$tmp/bad.out")
first=$(sed -n 's/^rank 0: first from \([0-9]\)$/\1/p' "$tmp/bad.out.0")
[ -n "$took" ] && [ "$took" = "$first" ] && [ "$alt" = $((3 - took)) ] &&
    ok "the sender taken is the one the program saw ($first), the other the alternative" ||
    fail "taken '$took', alternative '$alt', the program saw '$first'"

record ok 3 "$good"
check ok
has "the fixed twin (ordered by a message, named sources): no finding" \
    "$tmp/ok.out" "0 errors, 0 warnings, 0 portability"

record probe 3 "$probe_bad"
check probe
hasre "race.any-source-probe: the first wildcard probe, none on the second" \
    "$tmp/probe.out" \
    "^warning race.any-source-probe: MPI_Probe(MPI_ANY_SOURCE, tag 7, MPI_COMM_WORLD) at rank 0 saw rank [12]'s message (tag 7); rank [12]'s (tag 7) could have come first$" \
    "^    0:3 wildcard probe$" "^    [12]:3 seen$" \
    "^    [12]:3 could have been taken$" \
    "^0 errors, 1 warnings, 0 portability$"

# othello: 4 ranks; exit status 3 when its planted bug showed
record oth 4 "$othello"
st=$(cat "$tmp/oth.rst")
if [ "$st" = 0 ] || [ "$st" = 3 ]; then
    ok "recorded othello (exit status $st)"
else
    fail "recording othello: exit status $st"; echo "1..$n"; exit 1
fi
check oth
# The late Results (example 15 of docs/queries.md, with the Result's send):
# searcher:result-send and rank 0's Search send.
"$drdb" log sql --csv "$tmp/oth" "SELECT r.send_rank, r.send_seq, s.send_seq
FROM matches r
JOIN matches s ON s.tag = 1 AND s.recv_rank = r.send_rank
 AND s.recv_seq = (SELECT max(recv_seq) FROM matches
                   WHERE tag = 1 AND recv_rank = r.send_rank
                     AND recv_seq < r.send_seq)
JOIN matches c ON c.tag = 2 AND c.send_rank = 0
 AND c.recv_rank = r.send_rank
 AND data_int(c.recv_rank, c.recv_done, 4) = 1
 AND data_int(c.recv_rank, c.recv_done, 0) = data_int(s.recv_rank, s.recv_done, 0)
 AND c.send_seq > s.send_seq AND c.send_seq < r.recv_done
WHERE r.tag = 4 AND r.recv_rank = 0" > "$tmp/late.csv" 2>&1 ||
    fail "the late Results query"
tail -n +2 "$tmp/late.csv" | awk -F, '{ print $1 ":" $2, "0:" $3 }' |
    sort -u > "$tmp/late"
# Each alternative of a finding with what its sender received before it.
awk '/^[a-z]/ { alt = "" } / could have been taken$/ { alt = $1; next }
     / received by its sender before it$/ && alt { print alt, $1 }' \
    "$tmp/oth.out" | sort -u > "$tmp/alt"
awk '/ could have been taken$/ { print $1 }' "$tmp/oth.out" | sort -u \
    > "$tmp/alt.res"
cut -d' ' -f1 "$tmp/late" | sort -u > "$tmp/late.res"
comm -12 "$tmp/late.res" "$tmp/alt.res" > "$tmp/both"
nlate=$(wc -l < "$tmp/late.res") nboth=$(wc -l < "$tmp/both")
[ "$nboth" -gt 0 ] &&
    ok "race.any-source names $nboth of the $nlate late Results as the message a Result receive could have taken" ||
    { fail "no late Result ($nlate) is an alternative of a race.any-source finding";
      head -20 "$tmp/oth.out" | sed 's/^/# /'; }
miss=0
while read -r res; do
    search=$(grep "^$res " "$tmp/late" | cut -d' ' -f2)
    grep -qx "$res $search" "$tmp/alt" || { miss=$((miss + 1));
        echo "# late Result $res: its Search $search is not named"; }
done < "$tmp/both"
[ "$miss" = 0 ] && [ "$nboth" -gt 0 ] &&
    ok "each of them is named with the Search it was computed for (the query's, from the messages' data)" ||
    fail "$miss late Results named without their Search"
# Every finding is rank 0's wildcard Result receive (tag 4): the
# searchers receive from their parent by name.
bad_first=$(awk '/^warning race/ { getline; print $1 }' "$tmp/oth.out" |
    grep -vc '^0:')
nf=$(grep -c '^warning race.any-source: MPI_Irecv(MPI_ANY_SOURCE, tag 4, MPI_COMM_WORLD) at rank 0 ' "$tmp/oth.out")
[ "$bad_first" = 0 ] && [ "$nf" -gt 0 ] &&
    [ "$nf" = "$(grep -c '^warning ' "$tmp/oth.out")" ] &&
    ok "all $nf findings are rank 0's MPI_Irecv(MPI_ANY_SOURCE, tag 4) of a Result" ||
    fail "findings other than rank 0's Result receives"
# Many findings from one call: the heading's next line sums them by their
# main site's source line (each finding's first site line, as printed)
if [ "$nf" -gt 3 ]; then
    at=$(awk '/^warning race.any-source/ { getline; getline; print }' \
        "$tmp/oth.out" | sed -n 's|.*  at .*/\([^/]*:[0-9]*\) (in .*|\1|p' |
        sort | uniq -c | sort -k1,1nr -k2 | awk '{ printf "%s %s (%d)", (NR > 1 ? "," : ""), $2, $1 }')
    has "the findings summed by source line under the heading" "$tmp/oth.out" \
        "   from$at"
else
    skip "othello gave $nf findings: no summary line to check"
fi
echo "1..$n"
exit $status
