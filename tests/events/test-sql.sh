#!/bin/sh
# SQL over a recorded run (drdb log sql, the console's sql): every expected
# answer is computed by hand from tests/events/sql-pattern.c's known
# pattern (its header numbers each rank's calls), never from drdb.
# Then tests/progs/persistent and comms, from their sources' patterns.
# TEST_SQL_API (test-sql-api.c) checks the C API on the same run.
# usage: test-sql.sh DRDB MPIEXEC SQL_PATTERN PERSISTENT COMMS CRASH
#        TEST_SQL_API
set -u
drdb=$(realpath "$1") mpiexec=$2 prog=$(realpath "$3")
persistent=$(realpath "$4") comms=$(realpath "$5") crash=$(realpath "$6")
api=$(realpath "$7")
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"

# q NAME [OPTIONS] QUERY: the query's output in NAME (stderr NAME.err, exit
# status NAME.rc), CSV unless OPTIONS say otherwise.
q() {
    name=$1
    shift
    [ $# -gt 1 ] || set -- --csv "$@"
    "$drdb" log sql run "$@" > "$name" 2> "$name.err"
    echo $? > "$name.rc"
}
# same NAME FILE EXPECTED: FILE is exactly EXPECTED (lines).
same() {
    if [ "$(cat "$2")" = "$3" ]; then ok "$1"; else
        fail "$1"; echo "# want:"; echo "$3" | sed 's/^/#   /'
        echo "# got:"; sed 's/^/#   /' "$2"
        [ -f "$2.err" ] && sed 's/^/#   /' "$2.err"
    fi
}

if "$drdb" record -o run -- "$mpiexec" -n 4 "$prog" > rec.out 2>&1; then
    ok "record sql-pattern"
else
    fail "record sql-pattern"; sed 's/^/# /' rec.out; exit 1
fi

# ---- procs: one row per rank, its event count (the header's numbering)
q procs 'SELECT rank, events, ending FROM procs ORDER BY rank'
same "procs: events per rank" procs "rank,events,ending
0,23,complete
1,19,complete
2,20,complete
3,20,complete"

# ---- events: rank 1's calls in order, counts per call per rank
q ev1 'SELECT seq, call FROM events WHERE rank = 1 ORDER BY seq'
same "events: rank 1's calls in order" ev1 "seq,call
0,MPI_Init
1,MPI_Comm_rank
2,MPI_Comm_size
3,MPI_Recv
4,MPI_Send
5,MPI_Recv
6,MPI_Send
7,MPI_Recv
8,MPI_Send
9,MPI_Send
10,MPI_Send
11,MPI_Barrier
12,MPI_Bcast
13,MPI_Allreduce
14,MPI_Comm_split
15,MPI_Allreduce
16,MPI_Barrier
17,MPI_Recv
18,MPI_Finalize"
q counts "SELECT rank, call, count(*) FROM events WHERE call IN
  ('MPI_Send', 'MPI_Recv', 'MPI_Isend', 'MPI_Irecv', 'MPI_Barrier')
  GROUP BY rank, call ORDER BY rank, call"
same "events: counts per call per rank" counts "rank,call,count(*)
0,MPI_Barrier,2
0,MPI_Recv,9
0,MPI_Send,4
1,MPI_Barrier,2
1,MPI_Recv,4
1,MPI_Send,5
2,MPI_Barrier,2
2,MPI_Irecv,1
2,MPI_Recv,3
2,MPI_Send,5
3,MPI_Barrier,2
3,MPI_Isend,1
3,MPI_Recv,3
3,MPI_Send,5"
# round i of the ring: tag 10 + i, i + 1 ints (4 (i + 1) bytes) from r - 1
q ring "SELECT seq, role, peer, tag, count, datatype, bytes, comm
  FROM events WHERE rank = 2 AND seq BETWEEN 3 AND 8 ORDER BY seq"
same "events: role, peer, tag, count, datatype, bytes of a ring" ring \
"seq,role,peer,tag,count,datatype,bytes,comm
3,recv,1,10,1,MPI_INT,4,0
4,send,3,10,1,MPI_INT,4,0
5,recv,1,11,2,MPI_INT,8,0
6,send,3,11,2,MPI_INT,8,0
7,recv,1,12,3,MPI_INT,12,0
8,send,3,12,3,MPI_INT,12,0"
q bcast "SELECT DISTINCT call, root, count FROM events WHERE call = 'MPI_Bcast'"
same "events: a Bcast's root, as a world rank" bcast "call,root,count
MPI_Bcast,2,5"
q op "SELECT DISTINCT op, datatype FROM events WHERE call = 'MPI_Allreduce'"
same "events: an Allreduce's op and datatype" op "op,datatype
MPI_SUM,MPI_INT"
q times "SELECT count(*) FROM events WHERE enter IS NULL OR exit < enter
  OR abs(exit - enter - duration) > 0.01 OR ret != 0 OR calls != 1"
same "events: times are consistent, every call succeeded" times "count(*)
0"

# ---- wildcards: rank 0's 6 ANY_SOURCE receives, 2 from each other rank
q wild "SELECT peer, count(*) FROM events WHERE rank = 0 AND tag = 20
  GROUP BY peer ORDER BY peer"
same "events: wildcard receives resolved to their sources" wild \
"peer,count(*)
1,2
2,2
3,2"
q anysrc "SELECT recv_rank, send_rank, count(*) FROM matches
  WHERE any_source GROUP BY 1, 2 ORDER BY 1, 2"
same "matches: any_source marks exactly the wildcard receives" anysrc \
"recv_rank,send_rank,count(*)
0,1,2
0,2,2
0,3,2"

# ---- matches: bytes per rank pair (ring 4+8+12 per link; wildcards 2 x 8;
# rank 3 -> 1 and 0 -> 2: 4)
q pairs "SELECT send_rank, recv_rank, sum(bytes) FROM matches
  GROUP BY 1, 2 ORDER BY 1, 2"
same "matches: bytes per rank pair" pairs "send_rank,recv_rank,sum(bytes)
0,1,24
0,2,4
1,0,16
1,2,24
2,0,16
2,3,24
3,0,40
3,1,4"
q nb "SELECT send_rank, send_seq, send_done, recv_rank, recv_seq, recv_done
  FROM matches WHERE tag IN (30, 40) ORDER BY tag"
same "matches: nonblocking send and receive with their Waits" nb \
"send_rank,send_seq,send_done,recv_rank,recv_seq,recv_done
3,16,18,1,17,17
0,21,21,2,16,18"
q unmatched "SELECT count(*) FROM matches WHERE send_rank IS NULL
  OR recv_rank IS NULL"
same "matches: no unmatched message" unmatched "count(*)
0"

# ---- requests: the Isend and the Irecv, each with its Wait
q req "SELECT rank, seq, call, kind, done, done_call FROM requests
  ORDER BY rank"
same "requests: nonblocking calls and their completions" req \
"rank,seq,call,kind,done,done_call
2,16,MPI_Irecv,recv,18,MPI_Wait
3,16,MPI_Isend,send,18,MPI_Wait"

# ---- collectives: instances on MPI_COMM_WORLD, members, the split
q coll "SELECT instance, call, group_concat(rank, ' ') FROM
  (SELECT * FROM collectives WHERE comm = 0 AND call IN
   ('MPI_Barrier', 'MPI_Bcast', 'MPI_Allreduce') ORDER BY instance, rank)
  GROUP BY instance ORDER BY instance"
hasre "collectives: world's Barrier, Bcast, Allreduce, Barrier, every member" \
    coll '^[0-9]*,MPI_Barrier,0 1 2 3$' '^[0-9]*,MPI_Bcast,0 1 2 3$' \
    '^[0-9]*,MPI_Allreduce,0 1 2 3$'
[ "$(grep -c ',MPI_Barrier,0 1 2 3$' coll)" = 2 ] && ok "two Barriers" ||
    fail "two Barriers"
q seqs "SELECT rank, seq FROM collectives WHERE call = 'MPI_Bcast'
  ORDER BY rank"
same "collectives: each member's event" seqs "rank,seq
0,16
1,12
2,12
3,12"
q split "SELECT group_concat(rank, ' ') AS members FROM (SELECT m.comm, m.rank
  FROM comm_members m JOIN comms c USING (comm) WHERE c.size = 2
  ORDER BY m.comm, m.rank) GROUP BY comm ORDER BY 1"
same "comms, comm_members: the split's two halves" split \
"members
0 2
1 3"
q splitcoll "SELECT c.rank, c.seq FROM collectives c JOIN comms k
  USING (comm) WHERE k.size = 2 AND c.call = 'MPI_Allreduce' ORDER BY rank"
same "collectives: an Allreduce on the split" splitcoll "rank,seq
0,19
1,15
2,15
3,15"
q world "SELECT size, inter FROM comms WHERE comm = 0"
same "comms: MPI_COMM_WORLD" world "size,inter
4,0"

# ---- pending: before rank 1's second Barrier (16) rank 3's Isend is on its
# way; before rank 2's (17) its Irecv is pending and rank 0's Send (21)
# is one it has not received yet
q pend1 "SELECT kind, rank, seq, call, tag FROM pending(1, 16)"
same "pending: an incoming message" pend1 "kind,rank,seq,call,tag
incoming,3,16,MPI_Isend,30"
q pend2 "SELECT kind, rank, seq, call FROM pending(2, 17) ORDER BY kind"
same "pending: an incoming message and a request" pend2 "kind,rank,seq,call
incoming,0,21,MPI_Send
request,2,16,MPI_Irecv"

# ---- causality: rank 1's first receive (3) has in its past rank 0's
# events up to its first send (3) and its own before it; rank 2's first
# receive also rank 1's up to its send (4)
q past1 "SELECT rank, seq FROM causal_past(1, 3)"
same "causal_past: a receive's past" past1 "rank,seq
0,0
0,1
0,2
0,3
1,0
1,1
1,2"
q past2 "SELECT rank, count(*), max(seq) FROM causal_past(2, 3) GROUP BY rank"
same "causal_past: along the chain" past2 "rank,count(*),max(seq)
0,4,3
1,5,4
2,3,2"
# every receive of the run comes after rank 0's first send (the ring
# chains each round; the rest follows in program order)
q fut "SELECT count(*) AS recvs, sum((rank, seq) IN
  (SELECT rank, seq FROM causal_future(0, 3))) AS after FROM events
  WHERE role = 'recv'"
same "causal_future: rank 0's first send precedes every receive" fut \
    "recvs,after
20,20"
# rank 3's Comm_size (2) is concurrent with rank 0's first send
q conc "SELECT count(*) FROM causal_future(0, 3) WHERE rank = 3 AND seq = 2"
same "causal_future: a concurrent event is not in it" conc "count(*)
0"
q hb "SELECT happened_before(1, 4, 0, 4) AS a, happened_before(0, 4, 1, 4)
  AS b, happened_before(3, 2, 0, 3) AS c"
same "happened_before: around the ring, and not back" hb "a,b,c
1,0,0"
# a Barrier: every member's call (rank 3's: 11, after its send 10) before
# every member's return (rank 1's: 11), not a later call (rank 1's Bcast,
# 12) before it; a nonblocking send (rank 3's Isend, 16) before the
# receive (rank 1's 17), which nothing carries back to rank 3's Wait (18)
q hbc "SELECT happened_before(3, 10, 1, 11) AS a, happened_before(3, 11, 1, 11)
  AS b, happened_before(1, 12, 3, 11) AS c, happened_before(3, 16, 1, 17) AS d,
  happened_before(1, 17, 3, 18) AS e"
same "happened_before: collectives and a nonblocking send" hbc "a,b,c,d,e
1,1,0,1,0"
q join "SELECT e.call, count(*) FROM events e JOIN causal_past(0, 4) p
  USING (rank, seq) GROUP BY e.call ORDER BY e.call"
same "causal_past in a join: the first round's chain" join "call,count(*)
MPI_Comm_rank,4
MPI_Comm_size,4
MPI_Init,4
MPI_Recv,3
MPI_Send,4"
q noarg "SELECT * FROM pending"
has "pending without its event" noarg.err \
    "drdb: pending needs an event: pending(RANK, SEQ)"
q badev "SELECT * FROM causal_past(1, 99)"
same "causal_past: an event out of range" badev ""
has "causal_past: an event out of range is an error" badev.err \
    "drdb: causal_past: rank 1 has 19 events: no event 99"

# ---- data: what a receive got. Rank 3's Isend carries `one` (1) to rank
# 1's Recv (17); rank 0's Send of `one` to rank 2 completes at its Wait
# (18); the wildcard messages are two ints of the zeroed buf; a send holds
# no data; past the end (4 bytes from byte 1 of 4), NULL
q data "SELECT hex(data(1, 17)), data_int(1, 17, 0), data_int(2, 18, 0),
  data_int(0, 9, 4), data(3, 16) IS NULL, data_int(1, 17, 1) IS NULL,
  data_int(0, 9, 8) IS NULL, length(data(0, 9))"
same "data, data_int: what receives got" data \
"\"hex(data(1, 17))\",\"data_int(1, 17, 0)\",\"data_int(2, 18, 0)\",\"data_int(0, 9, 4)\",\"data(3, 16) IS NULL\",\"data_int(1, 17, 1) IS NULL\",\"data_int(0, 9, 8) IS NULL\",\"length(data(0, 9))\"
01000000,1,1,0,1,1,1,8"
q dataerr "SELECT data(9, 0)"
has "data: an event not in the run" dataerr.err \
    "drdb: data: no rank 9 in the run (ranks 0-3 with logs)"

# ---- output formats, errors, empty results
q table --json "SELECT rank, host IS NOT NULL AS h FROM procs WHERE rank < 2"
same "--json" table '[{"rank": 0, "h": 1},
 {"rank": 1, "h": 1}]'
"$drdb" log sql run "SELECT rank, events FROM procs WHERE rank = 2" > tab
same "aligned table" tab "rank  events
   2      20"
q empty "SELECT rank FROM events WHERE rank = 99" --time
has "empty result" empty "(no rows)"
same "empty result: exit status 0" empty.rc 0
q syntax "SELECT rank FRM events"
same "syntax error: exit status 1" syntax.rc 1
has "syntax error: SQLite's message and the position" syntax.err \
    'drdb: near "events": syntax error' "  SELECT rank FRM events" \
    "                  ^ (at character 17)"
q nocol "SELECT nosuch FROM events"
has "unknown column" nocol.err "drdb: no such column: nosuch"
q notab "SELECT * FROM message"
has "unknown table: the tables named" notab.err \
    "drdb: no such table: message (the tables: procs, comms, comm_members, events, matches, collectives, requests; docs/queries.md)"
q two "SELECT 1; SELECT 2"
has "one statement per query" two.err \
    "drdb: one statement per query: remove what follows the first ';'"

# ---- read-only: each refused, no file created
for s in "ATTACH 'att.db' AS a" "DETACH main" "PRAGMA writable_schema = 1" \
        "INSERT INTO procs (rank) VALUES (9)" "UPDATE procs SET pid = 0" \
        "DELETE FROM procs" "CREATE TABLE t (x)" "DROP TABLE procs" \
        "CREATE TEMP TABLE t AS SELECT 1" "VACUUM INTO 'vac.db'" \
        "SELECT load_extension('ext.so')" "SELECT fts3_tokenizer('simple')" \
        "BEGIN" \
        "DELETE FROM events" "PRAGMA temp_store = FILE"; do
    q ro "$s"
    if [ "$(cat ro.rc)" = 1 ] && grep -q '^drdb: .*\(refused\|may not be modified\)' ro.err
    then ok "refused: $s"; else fail "refused: $s"; sed 's/^/#   /' ro.err; fi
done
[ ! -e att.db ] && [ ! -e vac.db ] && [ ! -e run/att.db ] &&
    [ ! -e run/vac.db ] && ok "no file created" || fail "no file created"
q still "SELECT count(*) FROM procs"
same "the tables are intact" still "count(*)
4"
q pragma "PRAGMA table_info(procs)"
hasre "a read-only pragma is allowed" pragma '^0,rank,INTEGER'

# ---- the console's sql, in a batch session
printf '%s\n' "sql SELECT peer, count(*) FROM events WHERE rank = 0 AND tag = 20 GROUP BY peer" \
    "sql SELECT count(*) FROM causal_past(1, 3)" "sql SELECT rank FRM events" \
    > con.drdb
timeout 200 "$drdb" batch --ranks 0 --timeout 60 run con.drdb > con 2> con.err
has "console: sql prints the table" con "peer  count(*)" "   1         2" \
    "   2         2" "   3         2" "count(*)" "       7"
has "console: sql's error and position" con.err \
    'drdb: near "events": syntax error' "                  ^ (at character 17)"
echo "sql SELECT rank, host IS NULL AS nohost, ending FROM procs WHERE rank = 1" \
    > json.drdb
timeout 200 "$drdb" batch --json --ranks 0 --timeout 60 run json.drdb \
    > json 2> json.err
hasre "console --json: sql's rows as objects" json \
    '"results": \[{"rank": 1, "nohost": 0, "ending": "complete"}\]'
echo "sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c" \
    > runaway.drdb
timeout 100 "$drdb" batch --ranks 0 --timeout 2 run runaway.drdb \
    > runaway 2> runaway.err
has "console: a runaway query stops at the session's --timeout" runaway.err \
    "drdb: query stopped after 2 s: narrow it (a LIMIT, a WHERE on rank and seq) or raise the limit"
"$drdb" log --help > lhelp 2>&1
"$drdb" log sql --help >> lhelp 2>&1
hasre "drdb log --help: sql" lhelp "^  sql RUNDIR 'SELECT ...'"
hasre "drdb log sql --help: its options" lhelp "^      --csv " \
    "^      --json " "^      --time "
echo "help sql" > help.drdb
timeout 200 "$drdb" batch --ranks 0 --timeout 60 run help.drdb > help 2>&1
hasre "console: help sql" help 'sql SELECT'

# ---- the C API (ev-sql.h) on the same run
"$api" run > api 2>&1
while read -r word rest; do
    case "$word" in
    ok) ok "api: $rest" ;;
    not) fail "api: ${rest#ok }" ;;
    *) fail "api: $word $rest" ;;
    esac
done < api

# ---- persistent requests (tests/progs/persistent.c, 4 ranks, 20
# iterations): rank 0's Startall'ed send, 20 times from one Send_init,
# completed by Waitall; its 6 separate Starts of 3 send requests; its
# wildcard persistent receive getting 2 messages (tags 30, 31) from each
"$drdb" record -o pers -- "$mpiexec" -n 4 "$persistent" > pers.out 2>&1 ||
    fail "record persistent"
"$drdb" log sql pers --csv "SELECT call, done_call, count(*) AS n,
  count(DISTINCT init) AS inits FROM requests WHERE rank = 0 AND kind = 'send'
  GROUP BY call, done_call ORDER BY call" > preq 2>&1
same "requests: persistent sends, their *_init and completions" preq \
"call,done_call,n,inits
MPI_Start,MPI_Wait,6,3
MPI_Startall,MPI_Waitall,20,1"
"$drdb" log sql pers --csv "SELECT send_rank, count(*) AS n, min(tag) AS t0,
  max(tag) AS t1 FROM matches WHERE recv_rank = 0 AND any_source AND any_tag
  GROUP BY send_rank ORDER BY send_rank" > pwild 2>&1
same "matches: a wildcard persistent receive, resolved" pwild "send_rank,n,t0,t1
1,2,30,31
2,2,30,31
3,2,30,31"

# ---- an intercommunicator (tests/progs/comms.c: the even and odd halves
# of its MPI_Comm_split, whose key n - rank reverses each half's order:
# local rank 0 is world rank 2 (evens) and 3 (odds))
"$drdb" record -o comms -- "$mpiexec" -n 4 "$comms" > comms.out 2>&1 ||
    fail "record comms"
"$drdb" log sql comms --csv "SELECT c.size, c.size_a, c.size_b, m.side,
  group_concat(m.rank, ' ') AS members FROM comms c JOIN
  (SELECT * FROM comm_members ORDER BY comm, side, local_rank) m USING (comm)
  WHERE c.inter GROUP BY c.comm, m.side" > inter 2>&1
same "comms, comm_members: an intercommunicator's two groups" inter \
"size,size_a,size_b,side,members
4,2,2,0,2 0
4,2,2,1,3 1"

# ---- lookups by key: matches by (send_rank, send_seq) or (recv_rank,
# recv_seq) and requests by (rank, seq) go to the rank's events; by hand
# from sql-pattern.c: rank 1's Recv 3 took rank 0's Send 3 (round 0), rank
# 0's wildcard receives 9-14 came from ranks 1-3, rank 3's Isend 16 was
# received by rank 1's Recv 17 and completed by its Wait 18
q k1 "SELECT send_rank, send_seq, recv_rank, recv_seq, tag FROM matches
  WHERE recv_rank = 1 AND recv_seq = 3"
same "matches by the receive's key: one lookup" k1 "send_rank,send_seq,recv_rank,recv_seq,tag
0,3,1,3,10"
q k2 "SELECT count(*), min(recv_seq), max(recv_seq), count(DISTINCT send_rank)
  FROM matches WHERE recv_rank = 0 AND recv_seq BETWEEN 9 AND 14"
same "matches by the receive's key and a range of events" k2 "count(*),min(recv_seq),max(recv_seq),count(DISTINCT send_rank)
6,9,14,3"
q k3 "SELECT recv_rank, recv_seq, send_done FROM matches WHERE send_rank = 3
  AND send_seq > 15 AND send_seq < 17"
same "matches by the send's key" k3 "recv_rank,recv_seq,send_done
1,17,18"
q k4 "SELECT rank, seq, kind, done FROM requests WHERE rank = 3 AND seq >= 16"
same "requests by key" k4 "rank,seq,kind,done
3,16,send,18"
# The same rows by key as by a full scan (a unary + keeps SQLite from
# giving the key to the table), on three runs with persistent requests,
# wildcards, Sendrecv and nonblocking collectives.
for r in run pers comms; do
    for t in "matches:send_rank:send_seq" "matches:recv_rank:recv_seq" \
             "requests:rank:seq"; do
        tab=${t%%:*} rest=${t#*:} rk=${rest%%:*} sq=${rest#*:}
        keyed= scan=
        for k in 0 1 2 3; do
            keyed="$keyed${keyed:+ UNION ALL }SELECT * FROM $tab WHERE $rk = $k AND $sq >= 0"
            scan="$scan${scan:+ UNION ALL }SELECT * FROM $tab WHERE +$rk = $k AND +$sq >= 0"
        done
        "$drdb" log sql $r --csv "SELECT * FROM ($keyed) ORDER BY 1,2,3,4,5,6" > keyed 2>&1
        "$drdb" log sql $r --csv "SELECT * FROM ($scan) ORDER BY 1,2,3,4,5,6" > scan 2>&1
        if [ "$(wc -l < scan)" -gt 2 ] && cmp -s keyed scan; then
            ok "$r: $tab by ($rk, $sq): the rows of a full scan ($(($(wc -l < scan) - 1)))"
        else
            fail "$r: $tab by ($rk, $sq) differs from a full scan"
            diff scan keyed | head -5 | sed 's/^/#   /'
        fi
    done
done

# ---- queues against the SQL view: `drdb log queues R:N` lists the
# messages of pending(R, N) whose send does not follow R:N causally
# (happened_before(R, N, send) = 0) as sent before it, "before" when the
# send happened before R:N, else "concurrent"; and apart, as sent after
# it, those whose send follows it. On sql-pattern: before rank 1's first
# receive (0:3 sent before, the next rounds and 3:16 after), before its
# first send (all after), rank 0's wildcards (concurrent), rank 2's Wait.
for at in 1:3 1:4 0:9 2:16 2:18; do
    r=${at%:*} e=${at#*:}
    "$drdb" log sql run --csv "SELECT rank || ':' || seq AS ev,
        CASE WHEN happened_before($r, $e, rank, seq) THEN 'after'
             WHEN happened_before(rank, seq, $r, $e) THEN 'before'
             ELSE 'concurrent' END AS cls FROM pending($r, $e)
        WHERE kind = 'incoming' ORDER BY rank, seq" | sed 1d | tr , ' ' \
        > "qwant.$r.$e"
    "$drdb" log queues run "$at" > "qgot.$r.$e" 2>&1
    # the listing as "R:N CLASS" lines, each list's head with its count
    awk '/^messages sent to rank .* before event .* \(or concurrently\) and not received before it: / { l = 1; print "first " $NF; next }
         /^messages to rank .* sent after event .* \(their send follows it causally\), received after it: / { l = 2; print "after " $NF; next }
         /^pending requests/ { l = 0 }
         l && $1 ~ /^[0-9]+$/ { print $1 ":" $2, (l == 2 ? "after" : $7) }' \
        "qgot.$r.$e" > "qlist.$r.$e"
    nb=$(grep -vc ' after$' "qwant.$r.$e")
    na=$(grep -c ' after$' "qwant.$r.$e")
    { echo "first $nb"; grep -v ' after$' "qwant.$r.$e"
      [ "$na" -gt 0 ] && { echo "after $na"; grep ' after$' "qwant.$r.$e"; }
    } > "qexp.$r.$e"
    if cmp -s "qexp.$r.$e" "qlist.$r.$e"; then
        ok "queues $at: the messages sent before (or concurrently) and after, as the SQL says ($nb, $na)"
    else
        fail "queues $at: not the SQL's lists"
        diff "qexp.$r.$e" "qlist.$r.$e" | sed 's/^/#   /'
        sed 's/^/#   /' "qgot.$r.$e"
    fi
done
grep -q "^      0         3  MPI_Send               10 #0            4 before     event 3 MPI_Recv$" qgot.1.3 &&
    ok "queues 1:3: the ring's first message, sent before, received at 1:3" ||
    { fail "queues 1:3: the ring's first message"; sed 's/^/#   /' qgot.1.3; }

# ---- a rank killed mid-run (tests/progs/crash in sleep mode: rank 1
# SIGKILLed while it sleeps), and a rank whose log is gone
if record_killed "$drdb" "$mpiexec" "$crash" 3 killed 2; then
    # (mpiexec ends the other ranks when one dies: only rank 1 is sure)
    "$drdb" log sql killed --csv "SELECT rank, ending FROM procs
      WHERE rank = 1" > kend 2>&1
    same "procs: a log that ends mid-run" kend "rank,ending
1,killed"
    rm killed/rank-2.log
    "$drdb" log sql killed --csv "SELECT rank, ending, events IS NULL AS e,
      (SELECT count(*) FROM events WHERE rank = 2) AS n FROM procs
      WHERE rank = 2" > kmiss 2>&1
    same "procs, events: a rank without its log" kmiss "rank,ending,e,n
2,missing,1,0"
else
    fail "record a killed rank"
fi

echo "1..$n"
exit $status
