#!/bin/sh
# Pictures of a run (drdb log graph, drdb log trace; docs/pictures.md) on
# tests/events/sql-pattern.c's known pattern and on examples/jacobi's halo
# exchange: every expected rank line, mark, arrow, band and highlighted
# event is computed here from the programs' sources (sql-pattern's header
# numbers each rank's calls), never from drdb. The SVG and DOT are parsed
# with xmllint, the trace with jq, the HTML page is loaded in headless
# Chromium (a script in the page drives a hover, a zoom and a click and
# reports what the rendered DOM holds). A tool that is missing skips its
# checks, saying so.
# usage: test-graph.sh DRDB MPIEXEC SQL_PATTERN JACOBI THR_ANYSRC GEN_RUN
set -u
drdb=$(realpath "$1") mpiexec=$2 prog=$(realpath "$3") jacobi=$(realpath "$4")
thr=$(realpath "$5") gen=$(realpath "$6")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$here/../lib.sh"

# g NAME ARGS...: drdb log graph run ARGS; stderr NAME.err, status NAME.rc
g() {
    name=$1
    shift
    "$drdb" log graph "$@" > "$name.out" 2> "$name.err"
    echo $? > "$name.rc"
}
# count FILE XPATH-CONDITION: how many elements of the SVG match
count() {
    xmllint --xpath "count(//*[$2])" "$1" 2>/dev/null || echo error
}
# attrs FILE CONDITION ATTR: ATTR of each matching element, one a line
attrs() {
    xmllint --xpath "//*[$2]/@$3" "$1" 2>/dev/null |
        sed -n 's/.*="\(.*\)"/\1/p'
}
# same NAME GOT WANT
same() {
    if [ "$2" = "$3" ]; then ok "$1"; else
        fail "$1"; echo "# want: $3" | head -20; echo "# got:  $2" | head -20
    fi
}
# nonzero NAME FILE REGEX: the command failed and said REGEX on stderr
refused() {
    if [ "$(cat "$2.rc")" -ne 0 ] && grep -q "$3" "$2.err"; then
        ok "$1"
    else
        fail "$1 (status $(cat "$2.rc"))"; sed 's/^/#   /' "$2.err"
    fi
}

svg_need
cls() { svg_cls "$1"; }
if "$drdb" record -o run -- "$mpiexec" -n 4 "$prog" > rec.out 2>&1; then
    ok "record sql-pattern"
else
    fail "record sql-pattern"; sed 's/^/# /' rec.out; exit 1
fi

# ---- the pattern (sql-pattern.c's header) ------------------------------
# events per rank: 0: 23, 1: 19, 2: 20, 3: 20
events=$((23 + 19 + 20 + 20))
# messages: the ring's 3 rounds of 4, 6 wildcard ones, 3 -> 1 and 0 -> 2
# at the end; each arrow from the send's call to the receive's completion
ring=""
for i in 0 1 2; do
    ring="$ring 0:$((3 + 2 * i))>1:$((3 + 2 * i))"
    ring="$ring 1:$((4 + 2 * i))>2:$((3 + 2 * i))"
    ring="$ring 2:$((4 + 2 * i))>3:$((3 + 2 * i))"
    ring="$ring 3:$((4 + 2 * i))>0:$((4 + 2 * i))"
done
tail_msgs="3:16>1:17 0:21>2:18"
sorted() { printf '%s\n' "$@" | tr ' ' '\n' | grep . | sort | tr '\n' ' '; }
# collectives: Barrier, Bcast, Allreduce, Comm_split, Barrier on the world;
# the Allreduce on each half
bands=7

# ---- the full picture ---------------------------------------------------
g full run -o full.svg
same "graph: exit status" "$(cat full.rc)" 0
if xmllint --noout full.svg 2> full.xml.err; then ok "svg: well-formed"
else fail "svg: well-formed"; sed 's/^/#   /' full.xml.err; fi
same "svg: a line per rank" "$(count full.svg "$(cls rank-line)")" 4
same "svg: a mark per event" "$(count full.svg "$(cls ev)")" "$events"
same "svg: a band per collective instance" \
    "$(count full.svg "$(cls coll)")" "$bands"
same "svg: nothing highlighted" "$(count full.svg "$(cls hl)")" 0
paste -d'>' "$(attrs full.svg "$(cls msg)" data-from > from; echo from)" \
    "$(attrs full.svg "$(cls msg)" data-to > to; echo to)" > arrows
same "svg: an arrow per message" "$(wc -l < arrows)" 20
same "svg: the ring's and the last two messages" \
    "$(grep -v '^[123]:\(9\|10\)>0:' arrows | sort | tr '\n' ' ')" \
    "$(sorted $ring $tail_msgs)"
# the 6 wildcard receives (0:9-14) took ranks 1-3's 2 sends each (9, 10)
same "svg: the wildcard receives' senders" \
    "$(grep '>0:\(9\|1[0-4]\)$' arrows | cut -d'>' -f1 | sort | tr '\n' ' ')" \
    "1:10 1:9 2:10 2:9 3:10 3:9 "
same "svg: the wildcard receives" \
    "$(grep '>0:\(9\|1[0-4]\)$' arrows | cut -d'>' -f2 | sort | tr '\n' ' ')" \
    "0:10 0:11 0:12 0:13 0:14 0:9 "
# rank 2's Irecv (16) is completed by its Wait (18): one dotted tie
same "svg: the Irecv tied to its Wait" "$(count full.svg "$(cls post)")" 1

# ---- logical time: every arrow goes forward, every rank in order -------
g logical run --logical -o logical.svg
xmllint --xpath "//*[$(cls msg)]/@*[name()='x1' or name()='x2']" \
    logical.svg 2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' | paste - - |
    awk '$2 <= $1 { bad++ } END { exit bad > 0 || NR != 20 }' &&
    ok "logical: every message arrow points forward" ||
    fail "logical: every message arrow points forward"
xmllint --xpath "//*[$(cls ev)]/@*[name()='data-r' or name()='cx']" \
    logical.svg 2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' | paste - - |
    awk '{ if (($2 in last) && $1 <= last[$2]) bad++; last[$2] = $1 }
         END { exit bad > 0 || NR != '"$events"' }' &&
    ok "logical: each rank's events left to right" ||
    fail "logical: each rank's events left to right"

# ---- marks on top of each other: by recorded time a short program's
# calls crowd; drdb says how many (marks closer than 30 px, a label's
# room, to the one before on their rank's line) and points to --logical;
# with --logical, it says nothing. Counted here from the SVG, whose
# positions are rounded to 0.1 px: a gap within 0.1 of 30 may count
# either way, so drdb's count must lie between the gaps under 29.9 and
# those under 30.1.
gaps() {
    xmllint --xpath "//*[$(cls ev)]/@*[name()='data-r' or name()='cx']" \
        full.svg 2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' | paste - - |
        sort -k2,2n -k1,1g | awk -v lim="$1" '$2 == r && $1 - x < lim { n++ }
            { r = $2; x = $1 } END { print n + 0 }'
}
lo=$(gaps 29.9) hi=$(gaps 30.1)
said=$(sed -n "s/^drdb: \([0-9]*\) of the $events events are drawn on top of each other (calls close in time): --logical spaces them evenly$/\1/p" full.err)
if [ "$lo" -le $((events / 4)) ]; then
    fail "the pattern's time picture should be crowded ($lo of $events)"
elif [ -n "$said" ] && [ "$said" -ge "$lo" ] && [ "$said" -le "$hi" ]; then
    ok "crowded marks: said ($said of $events), with --logical"
else
    fail "crowded marks: said '$said', want $lo to $hi of $events"
    sed 's/^/#   /' full.err
fi
if grep -q "on top of each other" logical.err; then
    fail "--logical: no crowding note"
else
    ok "--logical: no crowding note"
fi

# ---- --ranks: ranks 1 and 2 only ----------------------------------------
g two run --ranks 1-2 -o two.svg
same "--ranks: two lines" "$(count two.svg "$(cls rank-line)")" 2
same "--ranks: their events" "$(count two.svg "$(cls ev)")" $((19 + 20))
same "--ranks: only the messages between them (the ring's 1 -> 2)" \
    "$(paste -d'>' "$(attrs two.svg "$(cls msg)" data-from > f2; echo f2)" \
        "$(attrs two.svg "$(cls msg)" data-to > t2; echo t2)" | sort |
        tr '\n' ' ')" "1:4>2:3 1:6>2:5 1:8>2:7 "
# the 5 world collectives and both halves' Allreduce (one member each)
same "--ranks: the collectives they are in" \
    "$(count two.svg "$(cls coll)")" 7

# ---- --around: rank 0's receive of the ring's first round (0:4) --------
# its partner is rank 3's send (3:4): ranks 0 and 3, events 2-6 of each
g around run --around 0:4 --window 2 -o around.svg
same "--around: the two ranks involved" \
    "$(attrs around.svg "$(cls rank)" data-r | tr '\n' ' ')" "0 3 "
same "--around: 2 x 5 events" "$(count around.svg "$(cls ev)")" 10
same "--around: the highlighted pair" \
    "$(xmllint --xpath "//*[$(cls ev) and $(cls hl)]/@*[name()='data-r' or \
name()='data-n']" around.svg 2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' |
        paste -d: - - | tr '\n' ' ')" "0:4 3:4 "
same "--around: its message highlighted, the next round's not" \
    "$(attrs around.svg "$(cls msg)" data-from | tr '\n' ' ')/$(attrs \
        around.svg "$(cls hl) and $(cls msg)" data-from)" "3:4 3:6 /3:4"
# rank 2's Wait (18) completing its Irecv (16) of rank 0's send (21): the
# Irecv kept with it; bands: the Barrier (0:20, 2:17), the half's
# Allreduce (0:19, 2:15), the Comm_split (2:14 only)
g wait run --around 2:18 --window 2 -o wait.svg
same "--around a Wait: events 2:14-19 and 0:19-22" \
    "$(xmllint --xpath "//*[$(cls ev)]/@*[name()='data-r' or \
name()='data-n']" wait.svg 2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' |
        paste -d: - - | tr '\n' ' ')" \
    "0:19 0:20 0:21 0:22 2:14 2:15 2:16 2:17 2:18 2:19 "
same "--around a Wait: the message to it, tied to the Irecv" \
    "$(attrs wait.svg "$(cls msg) and $(cls hl)" data-from)>$(attrs \
        wait.svg "$(cls msg)" data-to)/$(count wait.svg "$(cls post)")" \
    "0:21>2:18/1"
same "--around a Wait: the bands of its neighbourhood" \
    "$(count wait.svg "$(cls coll)")" 3

# ---- the program's tag names: the ring's first round is tag 10 (4 sends,
# 4 receives), the wildcard messages tag 20 (6 and 6)
g names run --tag-names 10=Ring0,20=Wild -o names.svg
same "--tag-names: the labels" \
    "$(count names.svg "$(cls lbl)"" and .='Send Ring0'")/$(count names.svg \
        "$(cls lbl)"" and .='Recv Ring0'")/$(count names.svg \
        "local-name()='desc' and .='Wild'")" "4/4/12"
g names2 run --tag-names 10=a.b -o x.svg
refused "--tag-names: a bad name" names2 "TAG=NAME"

# ---- --from/--to: from rank 0's Barrier (15) to its Send (21), times
# from drdb log sql (the SQL tables, not the picture's code), 1 ns wider
"$drdb" log sql run --csv "SELECT printf('%.3f', enter - 0.001) FROM events
    WHERE rank = 0 AND seq = 15" "SELECT printf('%.3f', enter + 0.001) FROM
    events WHERE rank = 0 AND seq = 21" > times 2>&1
from=$(sed -n 2p times) to=$(sed -n 4p times)
"$drdb" log sql run --csv "SELECT rank || ':' || seq FROM events WHERE enter
    BETWEEN $from AND $to ORDER BY rank, seq" 2>&1 | sed 1d | tr '\n' ' ' \
    > want
g range run --from "${from}us" --to "${to}us" -o range.svg
same "--from/--to: the events that entered in the range" \
    "$(xmllint --xpath "//*[$(cls ev)]/@*[name()='data-r' or \
name()='data-n']" range.svg 2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' |
        paste -d: - - | tr '\n' ' ')" "$(cat want)"
case " $(cat want)" in
*" 0:15 0:16 0:17 0:18 0:19 0:20 0:21 "*) ok "--from/--to: rank 0's 15-21" ;;
*) fail "--from/--to: rank 0's 15-21"; echo "# $(cat want)" ;;
esac

# ---- DOT -----------------------------------------------------------------
g dot run -o full.dot
same "dot: an edge per message" "$(grep -c 'class=msg' full.dot)" 20
same "dot: a node per event" \
    "$(grep -c '^    r[0-9]*_[0-9]* \[label' full.dot)" "$events"
# rendered by graphviz (bootstrap.sh installs it): its SVG has a cluster
# per rank, a node per event (named r<R>_<N>), the ranks' chains (events -
# 4 edges), the Irecv's dotted tie, and the picture's 20 messages (class
# msg), each from the send to the receive the SVG picture has
gsvg() { # gsvg CLASS: the titles of graphviz's <g class="CLASS">, sorted
    xmllint --nonet --xpath "//*[local-name()='g' and @class='$1']/*[
        local-name()='title']/text()" dot.svg 2>/dev/null |
        sed 's/-&gt;/>/; s/r\([0-9][0-9]*\)_\([0-9]\)/\1:\2/g' | sort |
        tr '\n' ' '
}
if ! command -v dot > /dev/null; then
    skip "dot: graphviz not installed (bootstrap.sh installs it)"
elif ! dot -Tsvg full.dot > dot.svg 2> dot.err; then
    fail "dot: graphviz renders it"; sed 's/^/#   /' dot.err
else
    same "dot rendered: a cluster per rank" "$(gsvg cluster)" \
        "cluster_rank0 cluster_rank1 cluster_rank2 cluster_rank3 "
    same "dot rendered: a node per event" "$(gsvg node)" \
        "$(for r in 0 1 2 3; do seq 0 $((r ? (r == 1 ? 18 : 19) : 22)) |
            sed "s/^/$r:/"; done | sort | tr '\n' ' ')"
    same "dot rendered: the picture's messages" "$(gsvg 'edge msg')" \
        "$(sort arrows | tr '\n' ' ')"
    same "dot rendered: each rank's chain and the Irecv's tie" \
        "$(gsvg edge | wc -w)" $((events - 4 + 1))
fi

# ---- bad input -------------------------------------------------------------
g bad1 run --ranks 0,7 -o x.svg
refused "a rank that does not exist" bad1 "no such rank"
g bad2 run --around 9:0 -o x.svg
refused "--around on a rank that does not exist" bad2 "no rank 9"
g bad3 run --around 0:99 -o x.svg
refused "--around past a rank's end" bad3 "99"
g bad4 run --around 0:4 --window 500 -o x.svg
refused "a window larger than the run" bad4 "larger than the run"
g bad5 run --from 3600s -o x.svg
refused "an empty selection" bad5 "selection is empty"
g bad6 run -o "$tmp/no/such/dir/x.svg"
refused "an unwritable output path" bad6 "cannot write"
g bad7 run -o x.png
refused "an unknown picture kind" bad7 "svg, .html or .dot"
[ -e x.svg ] && fail "no file left by a refused picture" ||
    ok "no file left by a refused picture"

# ---- the HTML page ---------------------------------------------------------
g page run --around 0:4 --window 2 -o around.html
if [ ! -s around.html ] ||
    grep -Eqi '(src|href)=|@import|url\(["'"'"']?http' around.html ||
    grep -o 'https\?://[^"]*' around.html | grep -qv '^http://www.w3.org/2000/svg$'
then
    fail "html: self-contained (fetches nothing)"
else
    ok "html: self-contained (fetches nothing)"
fi
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
    skip "html in a browser: chromium not installed (bootstrap.sh installs it)"
else
    # root cannot use Chromium's sandbox: --no-sandbox then
    nosb=; [ "$(id -u)" -eq 0 ] && nosb=--no-sandbox
    timeout 120 "$chrome" --headless $nosb --disable-gpu \
        --window-size=1000,400 --dump-dom "file://$tmp/around.html#selftest" \
        > dom.html 2> chrome.err
    sed -n '/<pre id="selftest">/,/<\/pre>/p' dom.html |
        sed 's/<[^>]*>//g; s/&gt;/>/g' > seen
    if [ ! -s seen ]; then
        fail "html in a browser: the page ran"; tail -5 chrome.err |
            sed 's/^/#   /'
    else
        has "html in a browser: rank lines, events, arrows, highlighted pair" \
            seen ranks=2 events=10 arrows=2 bands=0 "hl=0:4 3:4" \
            "hlmsg=3:4>0:4" drawn=true
        hasre "html in a browser: hover shows the event's details" seen \
            '^tip=0:4  MPI_Recv  peer 3  tag 10  bytes 4  at [0-9.]* us'
        has "html in a browser: the wheel zooms, a click copies R:N" seen \
            zoom=1.25 copied=0:4
    fi
    timeout 120 "$chrome" --headless $nosb --disable-gpu \
        --window-size=900,300 --screenshot="$tmp/shot.png" \
        "file://$tmp/around.html" > /dev/null 2>&1
    # non-blank: the decoded pixels take many values (a blank page, 2-3)
    if ! command -v python3 > /dev/null; then
        skip "html screenshot: no python3 to decode the PNG"
    elif [ -s shot.png ] && python3 -c '
import sys, zlib, struct
d = open(sys.argv[1], "rb").read()
i, idat = 8, b""
while i < len(d):
    ln, = struct.unpack(">I", d[i:i + 4]); t = d[i + 4:i + 8]
    if t == b"IDAT": idat += d[i + 8:i + 8 + ln]
    i += 12 + ln
px = zlib.decompress(idat)
sys.exit(0 if len(set(px)) > 20 else 1)' shot.png; then
        ok "html screenshot: not blank"
    else
        fail "html screenshot: not blank"
    fi
fi

# ---- the trace ---------------------------------------------------------------
"$drdb" log trace run -o run.json > trace.out 2> trace.err
same "trace: exit status" "$?" 0
if ! command -v jq > /dev/null; then
    skip "trace checks: jq not installed (bootstrap.sh installs it)"
else
    jq -e . run.json > /dev/null 2> jq.err && ok "trace: JSON parses" ||
        { fail "trace: JSON parses"; sed 's/^/#   /' jq.err | head; }
    same "trace: a slice per event, per rank" \
        "$(jq -r '[.traceEvents[] | select(.ph == "X") | .pid] | group_by(.)
            | map("\(.[0]):\(length)") | join(" ")' run.json)" \
        "0:23 1:19 2:20 3:20"
    same "trace: process and thread names" \
        "$(jq '[.traceEvents[] | select(.ph == "M" and (.name ==
            "process_name" or .name == "thread_name"))] | length' run.json)" 8
    same "trace: a message flow per message" \
        "$(jq '[.traceEvents[] | select(.ph == "s" and .cat == "msg")] |
            length' run.json)" 20
    # 5 world instances x 3 other members, the halves' 2 x 1
    same "trace: collective flows" \
        "$(jq '[.traceEvents[] | select(.ph == "s" and .cat == "coll")] |
            length' run.json)" 17
    same "trace: every flow has both ends" \
        "$(jq '[.traceEvents[] | select(.ph == "s" or .ph == "f")] |
            group_by([.cat, .id]) | map(select(length != 2 or
            (map(.ph) | sort) != ["f", "s"])) | length' run.json)" 0
    same "trace: each flow end is a slice's start on its rank" \
        "$(jq '[.traceEvents[] | select(.ph == "X") | "\(.pid)/\(.ts)"] as $x
            | [.traceEvents[] | select(.ph == "s" or .ph == "f") |
            "\(.pid)/\(.ts)" | select(. as $k | $x | index($k) | not)] |
            length' run.json)" 0
    same "trace: the ring's first message, 0:3 to 1:3" \
        "$(jq -r '.traceEvents as $e | [$e[] | select(.ph == "X")] as $x |
            [$e[] | select(.ph == "s" and .cat == "msg" and .pid == 0)
            | . as $s | $x[] | select(.pid == 0 and .ts == $s.ts) |
            .args.event] | min' run.json)" 3
    # a send logs no data: its slice's bytes are its message's (the
    # header: the ring's rounds i + 1 ints, the wildcard messages 2, rank
    # 3's Isend and rank 0's last Send 1)
    want=$(for r in 0 1 2 3; do
        o=$((r ? 4 : 3))
        echo "$r:$o=4 $r:$((o + 2))=8 $r:$((o + 4))=12"
        [ $r -gt 0 ] && echo "$r:9=8 $r:10=8"
    done | tr ' ' '\n'; echo "0:21=4"; echo "3:16=4")
    same "trace: each send's bytes, its message's" \
        "$(jq -r '.traceEvents[] | select(.ph == "X" and (.name == "MPI_Send"
            or .name == "MPI_Isend")) | "\(.pid):\(.args.event)=\(
            .args.bytes)"' run.json | sort | tr '\n' ' ')" \
        "$(echo "$want" | sort | tr '\n' ' ')"
    # slices in order on each rank, none overlapping the next
    same "trace: every slice within its rank's span, in order" \
        "$(jq '[.traceEvents[] | select(.ph == "X")] | group_by(.pid) |
            map(. as $s | range(1; length) | select($s[.].ts <
            $s[. - 1].ts + $s[. - 1].dur - 0.001 or $s[.].ts < 0)) |
            length' run.json)" 0
fi
"$drdb" log trace run -o "$tmp/no/dir/run.json" > t2.out 2> t2.err
echo $? > t2.rc
refused "trace: an unwritable output path" t2 "cannot write"

# ---- threads (MPI_THREAD_MULTIPLE): tests/fidelity/thr-anysrc.c on 2
# ranks: per rank the main thread (Init_thread, Comm_rank, Comm_size,
# Finalize), 3 receivers (one Recv each: 1 peer x 3 messages) and a sender
# (3 Isends, a Waitall): 5 tracks, each named, the calls on them 4 1 1 1 4
if "$drdb" record -o thr -- "$mpiexec" -n 2 "$thr" > thr.out 2>&1 &&
    "$drdb" log trace thr -o thr.json > thr.err 2>&1; then
    if command -v jq > /dev/null; then
        same "trace: a named track per thread" \
            "$(jq '[.traceEvents[] | select(.ph == "M" and .name ==
                "thread_name") | "\(.pid)/\(.tid)"] | unique | length' \
                thr.json)" 10
        same "trace: each thread's calls on its track" \
            "$(jq -r '[.traceEvents[] | select(.ph == "X") | "\(.pid)/\(.tid)"]
                | group_by(.) | map(length) | sort | map(tostring) |
                join(" ")' thr.json)" "1 1 1 1 1 1 4 4 4 4"
        same "trace: every slice's track is named" \
            "$(jq '[.traceEvents[] | select(.ph == "M" and .name ==
                "thread_name") | "\(.pid)/\(.tid)"] as $n | [.traceEvents[]
                | select(.ph == "X" or .ph == "s" or .ph == "f") |
                "\(.pid)/\(.tid)" | select(. as $k | $n | index($k) | not)]
                | length' thr.json)" 0
    else
        skip "trace threads: jq not installed"
    fi
else
    fail "record and trace thr-anysrc"; sed 's/^/# /' thr.out thr.err
fi

# ---- a halo exchange: examples/jacobi, 4 ranks, 3 iterations --------------
# per rank: Init, Comm_rank, Comm_size, per iteration Irecv up, Irecv down,
# Isend up, Isend down, Waitall, Allreduce (events 3 + 6i ..), Reduce,
# Finalize. Neighbours exchange one row each way: 3 pairs x 2 x 3.
if "$drdb" record -o halo -- "$mpiexec" -n 4 "$jacobi" 16 3 > halo.out 2>&1
then ok "record jacobi"
else fail "record jacobi"; sed 's/^/# /' halo.out; fi
g halo halo -o halo.svg
same "halo: events" "$(count halo.svg "$(cls ev)")" $((4 * (5 + 6 * 3)))
paste -d' ' "$(attrs halo.svg "$(cls msg)" data-from > hf; echo hf)" \
    "$(attrs halo.svg "$(cls msg)" data-to > ht; echo ht)" | tr ':' ' ' > ha
same "halo: an arrow per row sent" "$(wc -l < ha)" 18
same "halo: every arrow between neighbours, Isend to Waitall" \
    "$(awk '{ d = $1 - $3; i = int(($2 - 3) / 6)
             if ((d != 1 && d != -1) || ($2 - 3) % 6 < 2 ||
                 ($2 - 3) % 6 > 3 || $4 != 7 + 6 * i) print }
             END { print NR " arrows" }' ha)" "18 arrows"
same "halo: each Irecv tied to its Waitall" \
    "$(count halo.svg "$(cls post)")" 18
same "halo: the Allreduces and the Reduce" \
    "$(count halo.svg "$(cls coll)")" 4

# ---- --around in the halo: rank 1's Waitall of iteration 1 (event 13) ----
# Its partners: rank 0's Irecv down (10) and Isend down (12), rank 2's
# Irecv up (9) and Isend up (11), all completed by their Waitall (13).
# Window 6 either side of each call and completion: rank 0 4-19, ranks 1
# and 2 3-19 (rank 1 from its Irecv up, 9); rank 3 not involved. Every
# message of the pattern with both ends drawn; those rank 1's Waitall
# completes (4) highlighted, as are its partners' calls and completions.
k=6 b=9
lo0=$((b + 1 - k)) lo1=$((b - k)) lo2=$((b - k)) hi=$((b + 4 + k))
want_ev=$(for r in 0 1 2; do
    eval "seq \$lo$r $hi" | sed "s/^/$r:/"; done | sort | tr '\n' ' ')
# the pattern's messages "from>to post hl", both ends drawn
awk -v k=$k -v b=$b -v hi=$hi -v lo0=$lo0 -v lo1=$lo1 -v lo2=$lo2 '
    function drawn(r, e) { return r <= 2 && e <= hi &&
        e >= (r == 0 ? lo0 : r == 1 ? lo1 : lo2) }
    function msg(r, e, p, w, post) {
        if (drawn(r, e) && drawn(p, w))
            print r ":" e ">" p ":" w, drawn(p, post),
                (w == b + 4 && (r == 1 || p == 1) && e < b + 4 && e >= b)
    }
    BEGIN { for (i = 0; i < 3; i++) for (r = 0; r < 4; r++) {
        c = 3 + 6 * i
        if (r > 0) msg(r, c + 2, r - 1, c + 4, c + 1) # up, to its Irecv down
        if (r < 3) msg(r, c + 3, r + 1, c + 4, c)     # down, to its Irecv up
    } }' | sort > halo.want
want_msg=$(cut -d' ' -f1 halo.want | tr '\n' ' ')
want_hlmsg=$(awk '$3' halo.want | cut -d' ' -f1 | tr '\n' ' ')
want_post=$(awk '$2' halo.want | wc -l)
want_hlev="0:$((b + 1)) 0:$((b + 3)) 0:$((b + 4)) 1:$((b + 4)) "
want_hlev="${want_hlev}2:$((b + 2)) 2:$((b + 4)) 2:$b "
for kind in svg html; do
    g haloa$kind halo --around 1:$((b + 4)) --window $k -o haloa.$kind
    f=haloa.$kind
    [ $kind = html ] && { sed -n '/^<svg /,/^<\/svg>/p' haloa.html > h.svg
        f=h.svg; }
    same "halo --around ($kind): ranks 0-2" \
        "$(attrs $f "$(cls rank)" data-r | tr '\n' ' ')" "0 1 2 "
    same "halo --around ($kind): the events" \
        "$(xmllint --xpath "//*[$(cls ev)]/@*[name()='data-r' or \
name()='data-n']" $f 2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' |
            paste -d: - - | sort | tr '\n' ' ')" "$want_ev"
    paste -d'>' "$(attrs $f "$(cls msg)" data-from > hf; echo hf)" \
        "$(attrs $f "$(cls msg)" data-to > ht; echo ht)" | sort > ha
    same "halo --around ($kind): the arrows" "$(tr '\n' ' ' < ha)" \
        "$want_msg"
    same "halo --around ($kind): every arrow between neighbours" \
        "$(tr ':>' '  ' < ha | awk '$1 - $3 != 1 && $3 - $1 != 1')" ""
    same "halo --around ($kind): the Waitall's own messages highlighted" \
        "$(paste -d'>' "$(attrs $f "$(cls msg) and $(cls hl)" data-from \
            > hf; echo hf)" "$(attrs $f "$(cls msg) and $(cls hl)" data-to \
            > ht; echo ht)" | sort | tr '\n' ' ')" "$want_hlmsg"
    same "halo --around ($kind): the Waitall and its partners highlighted" \
        "$(xmllint --xpath "//*[$(cls ev) and $(cls hl)]/@*[name()='data-r' \
or name()='data-n']" $f 2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' |
            paste -d: - - | sort | tr '\n' ' ')" \
        "$want_hlev"
    same "halo --around ($kind): each Irecv drawn tied to its Waitall" \
        "$(count $f "$(cls post)")" "$want_post"
    # the Allreduce of iterations 0 and 1 (events 8, 14), across 3 lines
    same "halo --around ($kind): the Allreduces drawn" \
        "$(count $f "$(cls coll)")" 2
done

# ---- a message with one end in the picture: a stub at that end naming the
# other (R:N), never dropped without a mark. Expected from the run's SQL
# table of matches (the send's call, the call completing the receive) and
# the events the picture drew: every message with exactly one of its two
# ends drawn, and only those.
# stubs_want RUN SVG: "from>to" of those messages; stubs_got SVG: the
# picture's stubs, both sorted
stubs_want() {
    xmllint --xpath "//*[$(cls ev)]/@*[name()='data-r' or name()='data-n']" \
        "$2" 2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' | paste -d: - - \
        > drawn
    "$drdb" log sql "$1" --csv "SELECT send_rank || ':' || send_seq,
        recv_rank || ':' || coalesce(recv_done, recv_seq) FROM matches
        WHERE send_rank IS NOT NULL AND recv_rank IS NOT NULL" | sed 1d |
        awk -F, 'NR == FNR { d[$1] = 1; next }
            (($1 in d) + ($2 in d)) == 1 { print $1 ">" $2 }' drawn - |
        sort | tr '\n' ' '
}
stubs_got() {
    paste -d'>' "$(attrs "$1" "$(cls stub)" data-from > sf; echo sf)" \
        "$(attrs "$1" "$(cls stub)" data-to > st; echo st)" | sort |
        tr '\n' ' '
}
for pic in "run around.svg" "run two.svg" "halo haloa.svg"; do
    set -- $pic
    want=$(stubs_want "$1" "$2")
    if [ -z "$want" ]; then
        fail "stubs ($2): the picture should cut some message"
    else
        same "stubs ($2): each message cut by the picture, at its drawn end" \
            "$(stubs_got "$2")" "$want"
    fi
done
# each stub says where its other end is, in words a user can type
hasre "stubs: labelled with the other end (R:N)" around.svg \
    '<text class="stub-lbl"[^>]*>to [0-9]*:[0-9]*</text>' \
    '<text class="stub-lbl"[^>]*>from [0-9]*:[0-9]*</text>'
g haloadot halo --around 1:13 --window 6 -o haloa.dot
same "stubs (dot): an edge to a node naming each cut message's other end" \
    "$(sed -n 's/^  \(r[0-9_]*\) -> \(stub[0-9]*\) .*class=stub.*/\1/p;
        s/^  \(stub[0-9]*\) -> \(r[0-9_]*\) .*class=stub.*/\2/p' haloa.dot |
        wc -l)" "$(echo "$(stubs_want halo haloa.svg)" | wc -w)"

# ---- a run smaller than the default window: jacobi with no iteration, 2
# ranks of 5 events (Init, Comm_rank, Comm_size, Reduce, Finalize): the
# default window (8) takes the whole run; a window given as large is refused
if "$drdb" record -o small -- "$mpiexec" -n 2 "$jacobi" 16 0 > small.out 2>&1
then
    g small small --around 0:3 -o small.svg
    same "--around, default window, a smaller run: all of it" \
        "$(cat small.rc)/$(count small.svg "$(cls ev)")/$(count small.svg \
            "$(cls coll)")" "0/10/1"
    g small5 small --around 0:3 --window 5 -o small5.svg
    refused "--around, a window given as large as the run" small5 \
        "window 5 is larger than the run: rank 0 has 5 events"
else
    fail "record jacobi, no iteration"; sed 's/^/# /' small.out
fi
# ---- a picture too large to read: a synthetic 4-rank run of 12,000 events
# (gen-run: 4 x (3000 + a few)). Past 5,000 events drawn drdb refuses,
# says how many and how to draw a part, and writes nothing; its --to
# suggestion draws at most 5,000; --max-events raises the limit.
"$gen" syn 4 3000 > /dev/null 2>&1
total=$("$drdb" log sql syn --csv "SELECT count(*) FROM events" | sed 1d)
g huge syn -o huge.svg
refused "a whole large run: refused" huge \
    "^drdb: $total events on 4 ranks to draw: more than a picture shows (5000, --max-events)"
has "a whole large run: how to draw a part of it" huge.err \
    "drdb: draw a part: --around R:N [--window K] (the events near one), --from T --to T (a time range), --ranks SET; or raise --max-events (0: no limit)"
[ -e huge.svg ] && fail "a refused large picture: no file" ||
    ok "a refused large picture: no file"
to=$(sed -n 's/^drdb: the first 5000 events end at --to \([0-9.]*us\)$/\1/p' \
    huge.err)
g cut syn --to "$to" -o cut.svg
drawn=$(count cut.svg "$(cls ev)")
[ -n "$to" ] && [ "$(cat cut.rc)" = 0 ] && [ "$drawn" -le 5000 ] &&
    [ "$drawn" -gt 4900 ] &&
    ok "the suggested --to $to draws the run's first $drawn events" ||
    fail "the suggested --to '$to': status $(cat cut.rc), $drawn events"
g all syn --max-events 0 -o all.svg
same "--max-events 0: every event drawn" \
    "$(cat all.rc)/$(count all.svg "$(cls ev)")" "0/$total"
g dotbig syn -o big.dot
refused "the limit holds for DOT too" dotbig "more than a picture shows"

# ---- Ctrl-C while a large trace is being written (a synthetic 64-rank
# run of 1,000,000 events, tests/bench/gen-run.c): drdb says nothing was
# written, the file that was there is untouched, no temporary is left
"$gen" big 64 15625 > /dev/null 2>&1
echo keep > big.json
"$drdb" log trace big -o big.json > /dev/null 2> bigint.err &
job=$!
for _ in $(seq 600); do
    ls big.json.drdb-* > /dev/null 2>&1 && break
    sleep 0.05
done
kill -INT $job
wait $job
rc=$?
if [ $rc = 130 ] && grep -q "^drdb: interrupted: nothing written$" bigint.err &&
   [ "$(cat big.json)" = keep ] && ! ls big.json.drdb-* > /dev/null 2>&1; then
    ok "Ctrl-C during a trace: nothing written, the old file kept"
else
    fail "Ctrl-C during a trace (exit $rc)"; sed 's/^/#   /' bigint.err
    ls -la big.json* | sed 's/^/#   /'
fi

echo "1..$n"
exit $status
