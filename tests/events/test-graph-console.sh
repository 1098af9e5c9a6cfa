#!/bin/sh
# The console's graph (docs/pictures.md): the replayed ranks around their
# positions, on tests/events/sql-pattern.c's known pattern. Every expected
# rank, event and pending message comes from that program's header, never
# from drdb; the SVG is parsed with xmllint.
# usage: test-graph-console.sh DRDB MPIEXEC SQL_PATTERN
set -u
drdb=$(realpath "$1") mpiexec=$2 prog=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$here/../lib.sh"

svg_need
cls() { svg_cls "$1"; }
if "$drdb" record -o run -- "$mpiexec" -n 4 "$prog" > rec.out 2>&1; then
    ok "record sql-pattern"
else
    fail "record sql-pattern"; sed 's/^/# /' rec.out; exit 1
fi
count() { xmllint --xpath "count(//*[$2])" "$1" 2>/dev/null || echo error; }
# pairs FILE CONDITION A B: "A:B" of each matching element, space-separated
pairs() {
    xmllint --xpath "//*[$2]/@*[name()='$3' or name()='$4']" "$1" \
        2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' | paste -d"$5" - - |
        tr '\n' ' '
}
same() {
    if [ "$2" = "$3" ]; then ok "$1"; else
        fail "$1"; echo "# want: $3"; echo "# got:  $2"
        sed 's/^/#   /' con.err | tail -5
    fi
}

# Every rank before its event 4; then rank 3 past its Isend to rank 1
# (event 16, tag 30) and rank 1 before the Recv that takes it (17).
printf '%s\n' "goto 4" "graph -o c1.svg" "@3 goto 17" "@1 goto 17" \
    "graph --window 3 -o c2.svg" "@0 graph --around 0:4 --window 2 -o c3.html" \
    "@0 graph --around 0:4 --window 2 -o c3.svg" "graph -o c4.png" \
    "graph {SELECT rank, seq FROM events WHERE call = 'MPI_Bcast'} --window 1 -o c5.svg" \
    > con.drdb
timeout 300 "$drdb" batch --keep-going --ranks 0-3 --timeout 60 run \
    con.drdb > con 2> con.err

same "graph: a position per rank" "$(count c1.svg "$(cls here)")" 4
same "graph: each rank's next event" \
    "$(pairs c1.svg "$(cls next)" data-r data-n :)" "0:4 1:4 2:4 3:4 "
# events 0 .. 4 + 8 (the default window) of each rank
same "graph: the events around the positions" \
    "$(count c1.svg "$(cls ev)")" 52
same "graph: nothing pending before anyone sent" \
    "$(count c1.svg "$(cls pending)")" 0
same "graph: the positions after goto" \
    "$(pairs c2.svg "$(cls next)" data-r data-n :)" "0:4 1:17 2:4 3:17 "
# window 3: 0:1-7, 1:14-18, 2:1-7, 3:14-19
same "graph --window 3: the events" "$(count c2.svg "$(cls ev)")" 25
same "graph: the message sent to rank 1 and not received, pending" \
    "$(pairs c2.svg "$(cls pending)" data-from data-to '>')" "3:16>1:17 "
same "graph --around: the ranks involved" \
    "$(xmllint --xpath "//*[$(cls rank)]/@data-r" c3.svg 2>/dev/null |
        sed -n 's/.*="\(.*\)"/\1/p' | tr '\n' ' ')" "0 3 "
same "graph --around: the highlighted pair, rank 0's position" \
    "$(pairs c3.svg "$(cls hl)" data-r data-n :)/$(count c3.svg \
        "$(cls here)")" "0:4 3:4 /1"
[ -s c3.html ] && grep -q 'class="here"' c3.html &&
    ok "graph: an HTML page too" || fail "graph: an HTML page too"
grep -q "graph.*FILE: .svg, .html or .dot" con.err &&
    ok "graph: a file of no picture kind refused" ||
    { fail "graph: a file of no picture kind refused"; sed 's/^/#   /' con.err; }
# the Bcast: rank 0's event 16, the others' 12; a window of 1 takes the
# Barrier before and the Allreduce after: 3 bands. Positions not drawn
# (rank 1 and 3 at 17, outside) are not marked; ranks 0 and 2 at 4 neither.
same "graph {SELECT ...}: the events chosen, highlighted" \
    "$(pairs c5.svg "$(cls hl)" data-r data-n :)" "0:16 1:12 2:12 3:12 "
same "graph {SELECT ...}: their neighbours, the collectives" \
    "$(count c5.svg "$(cls ev)")/$(count c5.svg "$(cls coll)")/$(count \
        c5.svg "$(cls here)")" "12/3/0"

# --logical and --tag-names, as drdb log graph's: around 0:4, window 2,
# ranks 0 and 3, events 2-6 each; tag 10 the ring's first round: 0:3 Send
# (to 1), 0:4 Recv (from 3), 3:3 Recv (from 2), 3:4 Send (to 0); in logical
# time the arrow 3:4 > 0:4 points forward
printf '%s\n' "goto 4" \
    "@0 graph --around 0:4 --window 2 --logical --tag-names 10=Ring0 -o c6.svg" \
    > lt.drdb
timeout 300 "$drdb" batch --keep-going --ranks 0-3 --timeout 60 run \
    lt.drdb > lt 2> lt.err
same "graph --logical --tag-names: logical time, the tag's name" \
    "$(xmllint --xpath 'string(//*[local-name()="svg"]/@data-logical)' \
        c6.svg 2>/dev/null)/$(count c6.svg "$(cls lbl) and .='Send Ring0'")/$(
        count c6.svg "$(cls lbl) and .='Recv Ring0'")" "1/2/2"
same "graph --logical: the message drawn forward" \
    "$(xmllint --xpath "//*[$(cls msg) and @data-from='3:4']/@*[name()='x1' \
or name()='x2']" c6.svg 2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' |
        paste - - | awk '{ print ($2 > $1) }')" 1

# Bad input: each refused with its reason, no file left behind.
printf '%s\n' "goto 4" \
    "graph {SELECT rank, seq FROM events WHERE call = 'MPI_Nothing'} -o b1.svg" \
    "@7 graph -o b2.svg" "graph --around 9:0 -o b3.svg" \
    "graph --around 0:99 -o b4.svg" "graph --window 23 -o b5.svg" \
    "graph --around 0:4 --window 23 -o b6.svg" \
    "graph -o $tmp/no/such/dir/b7.svg" "graph --window 22 -o b8.svg" \
    "graph --tag-names 10=a.b -o b9.svg" > bad.drdb
timeout 300 "$drdb" batch --keep-going --ranks 0-3 --timeout 60 run \
    bad.drdb > bad 2> bad.err
# refused NAME LINE REGEX: script line LINE failed, saying REGEX just before
refused() {
    if grep -q "bad.drdb:$2: .* failed" bad.err &&
        grep -B2 "bad.drdb:$2: " bad.err | grep -q -e "$3"; then
        ok "$1"
    else
        fail "$1"; sed 's/^/#   /' bad.err | tail -8
    fi
}
refused "graph: an empty selection (a query with no rows)" 2 \
    "MPI_Nothing.*no rows"
refused "graph: a rank set with a rank that does not exist" 3 \
    "no such rank in this run"
refused "graph --around: a rank that does not exist" 4 \
    "--around 9:0: no rank 9 in this run (0-3)"
refused "graph --around: an event past its rank's end" 5 \
    "rank 0 has no event 99"
# 23: rank 0's events, the most of any rank (sql-pattern's header)
refused "graph --window: larger than the run" 6 \
    "--window 23 is larger than the run: the ranks drawn have 23 events"
refused "graph --around --window: larger than the run" 7 \
    "--window 23 is larger than the run: rank 0 has 23 events"
refused "graph: an unwritable path" 8 "cannot write '$tmp/no/such/dir/b7.svg'"
refused "graph --tag-names: a bad name" 10 "takes TAG=NAME pairs"
[ -e b1.svg ] || [ -e b2.svg ] || [ -e b3.svg ] || [ -e b4.svg ] ||
    [ -e b5.svg ] || [ -e b6.svg ] || [ -e b9.svg ] &&
    fail "graph: no file left when refused" ||
    ok "graph: no file left when refused"
# a window one short of rank 0's events: every event of every rank
same "graph --window 22: the whole run" \
    "$(grep -c 'bad.drdb:9:' bad.err)/$(count b8.svg "$(cls ev)")" "0/82"

# A picture past its limit (--max-events; 5,000 by default): refused, with
# the count and how to draw fewer events in the console
printf '%s\n' "goto 4" "graph --window 22 --max-events 40 -o m1.svg" \
    "graph --window 3 --max-events 40 -o m2.svg" > max.drdb
timeout 300 "$drdb" batch --keep-going --ranks 0-3 --timeout 60 run \
    max.drdb > max 2> max.err
has "graph past --max-events: refused, how many, how to draw fewer" max.err \
    "drdb: 82 events on 4 ranks to draw: more than a picture shows (40, --max-events)" \
    "drdb: draw fewer: a smaller --window K, fewer ranks (@SET), --around R:N, the events a query chooses ({SELECT rank, seq ...}); or raise --max-events (0: no limit)"
[ -e m1.svg ] && fail "graph past --max-events: no file" ||
    ok "graph past --max-events: no file"
# window 3 around event 4: events 1-7 of each rank, 28 in all
same "graph within --max-events: drawn" "$(count m2.svg "$(cls ev)")" 28
echo "1..$n"
exit $status
