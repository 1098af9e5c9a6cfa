#!/bin/sh
# drdb log events/event/match/queues on recorded runs of the focused MPI
# programs: every expectation comes from what the programs must do (their
# sources, their printed output, MPI's matching rules), never from drdb.
# usage: test-events.sh DRDB MPIEXEC ANYSOURCE PROG...
#   ANYSOURCE: examples/anysource; PROG: tests/progs programs (by file name)
set -u
drdb=$(realpath "$1") mpiexec=$2 anysource=$(realpath "$3")
shift 3
for p in "$@"; do
    eval "path_$(basename "$p" | tr - _)=\$(realpath \"\$p\")"
done
path() { eval "echo \${path_$(echo "$1" | tr - _):-}"; }
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }

# rec NAME PROG ARGS...: records PROG at 4 ranks into NAME (output NAME.out,
# each rank's lines whole: on a shared stdout Hydra can interleave them)
# and lists its events (NAME.ev) and matches (NAME.match).
rec() {
    name=$1 prog=$2
    shift 2
    if "$drdb" record -o "$name" -- "$mpiexec" -n 4 \
            -outfile-pattern "$tmp/$name.out.%r" "$prog" "$@" \
            > /dev/null 2> "$name.err"; then
        ok "record $name"
    else
        fail "record $name"; sed 's/^/# /' "$name.err"
    fi
    cat "$name".out.[0-9]* > "$name.out"
    "$drdb" log events "$name" > "$name.ev"
    "$drdb" log match "$name" --all > "$name.match"
}

# pairs NAME: one line per receive of NAME.match,
#   "R N P T C S E I B": receiver, its event, status source (world), tag,
# comm id, matched sender, its event, its *_init event (or -), bytes; an
# unmatched receive has S = -.
pairs() {
    grep ' <- ' "$1.match" | awk '{
        split($0, h, " <- ")
        nl = split(h[1], l, " "); nr = split(h[2], r, " ")
        P = "?"; T = "?"; C = 0
        for (i = 1; i < nl; i++) {
            if (l[i] == "from") P = l[i + 1]
            if (l[i] == "tag") T = l[i + 1]
            if (l[i] == "comm") { C = l[i + 1]; sub("#", "", C) }
        }
        S = "-"; E = "-"; I = "-"; B = "-"
        if (r[1] == "rank") {
            S = r[2]; E = r[4]
            for (i = 1; i < nr; i++) {
                if (r[i] == "(of" && r[i + 1] == "event") I = r[i + 2]
                if (r[i + 1] ~ /^bytes\)/) { B = r[i]; sub("\\(", "", B) }
            }
        }
        print l[2], l[4], P, T, C, S, E, I, B
    }'
}

# check_pairs NAME ESIZE UNMATCHED: the generic rules on a run.
#  - every receive matched but UNMATCHED ones (PROC_NULL, cancelled);
#  - a receive's status source is the matched sender, and the send (its
#    event, or its *_init for a persistent one) has the receive's tag and
#    communicator, and count x ESIZE bytes (ESIZE 0: not checked);
#  - no send matches two receives, and every send of the run to a real
#    peer (Send/Bsend/Ssend/Rsend, their I- forms, Sendrecv) is matched.
check_pairs() {
    name=$1 esize=$2 unmatched=$3
    pairs "$name" > "$name.pairs"
    check "$name: all receives but $unmatched matched" \
        '[ "$(awk "\$6 == \"-\"" "$name.pairs" | wc -l)" = "$unmatched" ] &&
         [ -s "$name.pairs" ]'
    check "$name: each receive's status source is the matched sender" \
        '[ -z "$(awk "\$6 != \"-\" && \$3 != \$6" "$name.pairs")" ]'
    awk -v es="$esize" 'NR == FNR { t[$1 " " $2] = $5; c[$1 " " $2] = $6;
                                     k[$1 " " $2] = $7; next }
        $6 != "-" {
            key = $6 " " ($8 != "-" ? $8 : $7)
            if (t[key] != $4) print "tag", $0, t[key]
            if (c[key] != "#" $5) print "comm", $0, c[key]
            if (es > 0 && k[key] * es != $9) print "bytes", $0, k[key]
        }' "$name.ev" "$name.pairs" > "$name.bad"
    check "$name: each matched send has the receive's tag, communicator" \
        '[ ! -s "$name.bad" ] || { sed "s/^/# /" "$name.bad"; false; }'
    check "$name: no send matches two receives" \
        '[ -z "$(awk "\$6 != \"-\" { print \$6, \$7, \$8 }" "$name.pairs" |
                 sort | uniq -d)" ]'
    awk 'NR == FNR { if ($6 != "-") m[$6 " " $7] = 1; next }
         $3 ~ /^MPI_(Send|[BSR]send|I[bsr]?send|Sendrecv|Sendrecv_replace)$/ &&
         $4 !~ /^null/ && !(($1 " " $2) in m) { print }' \
        "$name.pairs" "$name.ev" > "$name.lost"
    check "$name: every send of the run is matched (a bijection)" \
        '[ ! -s "$name.lost" ] || { sed "s/^/# /" "$name.lost"; false; }'
}

# ev NAME R FN K: rank R's K-th (from 1) event of function FN.
ev() {
    awk -v r="$2" -v f="$3" -v k="$4" '$1 == r && $3 == f && ++i == k {
        print $2 }' "$1.ev"
}

# --- anysource-anytag: wildcards resolved by the statuses
rec any "$(path anysource-anytag)" 6
check_pairs any 4 0
# Phase 1: rank 0's first 18 receives; each payload says {sender, tag,
# seq, check}: the matched send must be that sender's seq-th send to 0.
bad=0
for k in $(seq 1 18); do
    e=$(ev any 0 MPI_Recv "$k")
    set -- $("$drdb" log event any "0:$e" | sed -n 's/.* x MPI_INT: //p')
    src=$1 tag=$2 seq=$3
    set -- $(awk -v e="$e" '$1 == 0 && $2 == e { print $6, $7 }' any.pairs)
    want=$(awk -v s="$src" '$1 == s && $3 == "MPI_Send" && $4 == 0 {
        print $2 }' any.ev | sed -n "$((seq + 1))p")
    [ "$1" = "$src" ] && [ "$2" = "$want" ] &&
        [ "$(awk -v s="$src" -v e="$want" '$1 == s && $2 == e { print $5 }' \
            any.ev)" = "$tag" ] || { bad=1; echo "# receive $e: $*"; }
done
check "any: each wildcard receive matches the send its payload names" \
    '[ $bad = 0 ]'
check "any: log event decodes the MPI_INT payload" \
    '"$drdb" log event any "0:$(ev any 0 MPI_Recv 1)" |
         grep -q "^    data     buf            16 bytes = 4 x MPI_INT: [1-3] [1-3] 0 [0-9]*$"'
check "any: --raw prints the payload in hex" \
    '"$drdb" log event any "0:$(ev any 0 MPI_Recv 1)" --raw |
         grep -q "^    data     buf            16 bytes: 0[1-3]000000 0[1-3]000000 00000000 "'
check "any: events --call recv lists rank 0's 24 receives" \
    '[ "$("$drdb" log events any --rank 0 --call recv | tail -n +2 | wc -l)" = 24 ]'
check "any: events --peer 2 --tag 77: 3 receives from 2, 3 sends to 2" \
    '"$drdb" log events any --peer 2 --tag 77 | tail -n +2 |
         awk "{ print \$1, \$3 }" | sort | tr "\n" " " |
         grep -qx "0 MPI_Bsend 0 MPI_Recv 1 MPI_Bsend 1 MPI_Recv 3 MPI_Bsend 3 MPI_Recv "'

# --- examples/anysource: the k-th receive matches the send the program
# printed ("message k: from rank S, its #I": S's I-th MPI_Send).
"$drdb" record -o ex -- "$mpiexec" -n 4 "$anysource" 5 > ex.out 2> ex.err
check "record examples/anysource" '[ $? = 0 ]'
"$drdb" log events ex > ex.ev
grep '^message' ex.out > ex.out.msgs
bad=0 k=0
while read -r _ i _ _ src _ seq; do
    k=$((k + 1)) src=${src%,} seq=${seq#\#}
    e=$(ev ex 0 MPI_Recv "$k")
    want=$(ev ex "$src" MPI_Send $((seq + 1)))
    got=$("$drdb" log match ex "0:$e" | sed -n 's/.* <- rank \([0-9]*\) event \([0-9]*\) .*/\1 \2/p')
    [ "$got" = "$src $want" ] || { bad=1; echo "# message $i: $got, want $src $want"; }
done < ex.out.msgs
check "anysource: 15 receives, each matching the printed sender's send" \
    '[ $k = 15 ] && [ $bad = 0 ]'

# --- p2p-blocking: send modes and datatypes
rec blk "$(path p2p-blocking)" 6
check_pairs blk 0 0
# round 3 sends 112 doubles tagged 103, element 0 = payload / 2.
e=$(awk '$1 == 1 && $3 == "MPI_Recv" && $5 == 103 { print $2 }' blk.ev)
v=$(( ((((0 * 1000003) ^ (1 * 7919)) * 31 + 103 * 131 + 3 * 65537) & 0xffffffff) * 2654435761 & 0x7fffffff ))
want=$(awk -v v="$v" 'BEGIN { printf "%.17g", v * 0.5 }')
check "blk: MPI_DOUBLE data decoded (112 elements, the first 32)" \
    '"$drdb" log event blk "1:$e" |
         grep -q "^    data     buf            896 bytes = 112 x MPI_DOUBLE: $want .* \.\.\.$"'
# The ready send: at rank r's MPI_Wait the message from the left neighbour
# (tag 7) is sent and its Irecv pending; after the Wait neither.
for r in 1 3; do
    l=$(( (r + 3) % 4 ))
    w=$(ev blk $r MPI_Wait 1)
    ir=$(awk -v r=$r '$1 == r && $3 == "MPI_Irecv" && $5 == 7 { print $2 }' blk.ev)
    rs=$(awk -v l=$l '$1 == l && $3 == "MPI_Rsend" { print $2 }' blk.ev)
    "$drdb" log queues blk "$r:$w" > q.$r
    check "blk: queues at rank $r's MPI_Wait: the Rsend from $l, the Irecv" \
        'grep -Eq "^ +$l +$rs  MPI_Rsend +7 #0 +256 .*event $w MPI_Wait \(posted event $ir MPI_Irecv\)$" q.$r &&
         grep -Eq "^ +$ir  MPI_Irecv +$l +7 #0 +event $w MPI_Wait$" q.$r'
    "$drdb" log queues blk "$r:$((w + 1))" > q2.$r
    check "blk: after rank $r's MPI_Wait: neither" \
        '! grep -q " $rs  MPI_Rsend" q2.$r && ! grep -q " $ir  MPI_Irecv" q2.$r'
done

# --- p2p-nonblocking: Isend/Irecv completed by Waitall, Wait, Test
rec nb "$(path p2p-nonblocking)"
check_pairs nb 4 0
# Phase 2: 64 tags, Irecvs posted in reverse tag order, each completed by
# MPI_Wait: the k-th Wait of rank r completes the Irecv of tag 1000+k-1.
w=$(ev nb 2 MPI_Wait 1)
want="^rank 2 event $w MPI_Wait: rank 2 event [0-9]+ MPI_Irecv from 1"
want="$want tag 1000 <- rank 1 event [0-9]+ MPI_Isend \\(128 bytes\\),"
want="$want completed by event $w MPI_Wait$"
check "nb: a Wait names its Irecv and the matched Isend" \
    '"$drdb" log match nb "2:$w" | grep -Eq "$want"'

# --- wait-test: every completion family, and a cancelled receive
rec wt "$(path wait-test)"
check_pairs wt 4 4
check "wt: the 4 unmatched receives are the cancelled tag-999 ones" \
    '[ "$(grep -c "MPI_Irecv from [0-3] tag 999 <- no message (cancelled)$" wt.match)" = 4 ]'
bad=0
for f in MPI_Waitany MPI_Waitsome MPI_Testany MPI_Testsome MPI_Testall MPI_Test; do
    e=$(awk -v f=$f '$1 == 1 && $3 == f && $4 ~ /^[0-9]/ { print $2; exit }' wt.ev)
    want="^rank 1 event $e $f: rank 1 event [0-9]* MPI_Irecv from 0 tag"
    want="$want [0-9]* <- rank 0 event [0-9]* MPI_Isend"
    "$drdb" log match wt "1:$e" | grep -q "$want" ||
        { bad=1; echo "# $f at event $e"; }
done
check "wt: Waitany/Waitsome/Testany/Testsome/Testall/Test complete Irecvs" \
    '[ $bad = 0 ]'

# --- persistent: each start of a persistent request is an instance
rec pers "$(path persistent)"
check_pairs pers 4 0
for r in 0 1 2 3; do
    l=$(( (r + 3) % 4 ))
    of="(of event [0-9]*"
    want="^rank $r event [0-9]* MPI_Startall $of MPI_Recv_init) from $l tag 1"
    want="$want <- rank $l event [0-9]* MPI_Startall $of MPI_Send_init)"
    check "pers: rank $r's 20 Startall receives match $l's Startall sends" \
        '[ "$(grep -c "$want" pers.match)" = 20 ]'
    want="^rank $r event [0-9]* MPI_Start $of MPI_Recv_init) from $l tag 1[012]"
    want="$want <- rank $l event [0-9]* MPI_Start $of MPI_[SBR]send_init)"
    check "pers: rank $r's 6 Starts match Ssend/Bsend/Rsend_init starts" \
        '[ "$(grep -c "$want" pers.match)" = 6 ]'
done
check "pers: rank 0's wildcard persistent receive: 6 instances" \
    '[ "$(grep -c "^rank 0 event [0-9]* MPI_Start (of event [0-9]* MPI_Recv_init) from [1-3] tag 3[01] <- " pers.match)" = 6 ]'

# --- probe: a message matched by Mprobe/Improbe is taken at the probe
rec prb "$(path probe)"
check_pairs prb 4 4
bad=0
for r in 0 1 2 3; do
    l=$(( (r + 3) % 4 ))
    k=0
    for e in $(ev prb $r MPI_Mrecv 1) $(ev prb $r MPI_Imrecv 1) \
             $(awk -v r=$r '$1 == r && $3 == "MPI_Recv" && $5 == 4 { print $2 }' prb.ev); do
        k=$((k + 1))
        s=$(awk -v l=$l '$1 == l && $3 == "MPI_Send" && $5 == 4 { print $2 }' prb.ev |
            sed -n "${k}p")
        "$drdb" log match prb "$r:$e" | grep -q "<- rank $l event $s MPI_Send" ||
            { bad=1; echo "# rank $r event $e: want $l:$s"; }
    done
    [ $k = 3 ] || bad=1
done
check "prb: Mrecv, Imrecv, Recv get the 1st, 2nd, 3rd tag-4 sends" '[ $bad = 0 ]'
want="^rank 1 event [0-9]* MPI_Mprobe matched a message from 0 tag 4"
want="$want <- rank 0 event [0-9]* MPI_Send;"
want="$want received by event $(ev prb 1 MPI_Mrecv 1) MPI_Mrecv$"
check "prb: the Mprobe names the send it matched" \
    '"$drdb" log match prb "1:$(ev prb 1 MPI_Mprobe 1)" | grep -q "$want"'
check "prb: a Probe names the send the next receive gets" \
    '"$drdb" log match prb "2:$(ev prb 2 MPI_Probe 1)" |
         grep -q "sees rank 1 event [0-9]* MPI_Send to 2 tag 1; received by event $(ev prb 2 MPI_Recv 1) MPI_Recv$"'

# --- sendrecv: both halves; PROC_NULL halves match nothing
rec sr "$(path sendrecv)" 4
# unmatched receives, PROC_NULL: 3 per rank, and rank 0's chain start
check_pairs sr 4 13
check "sr: 13 PROC_NULL sends match nothing" \
    '[ "$(grep -c " -> no message (MPI_PROC_NULL)$" sr.match)" = 13 ]'
bad=0
for k in 1 2 3 4; do
    for r in 0 1 2 3; do
        l=$(( (r + 3) % 4 ))
        e=$(ev sr $r MPI_Sendrecv $k) le=$(ev sr $l MPI_Sendrecv $k)
        "$drdb" log match sr "$r:$e" > m
        grep -q "^rank $r event $e MPI_Sendrecv from $l tag $k <- rank $l event $le MPI_Sendrecv (32 bytes)$" m &&
            grep -q "^rank $r event $e MPI_Sendrecv to $(( (r + 1) % 4 )) tag $k -> " m ||
            { bad=1; sed 's/^/# /' m; }
    done
done
check "sr: the k-th ring Sendrecv matches the left's k-th, both halves" \
    '[ $bad = 0 ]'

# --- collectives: the k-th call of every member is one instance
rec col "$(path collectives)"
bad=0
for k in 1 2 3 4; do
    e=$(ev col 0 MPI_Allreduce $k)
    want="MPI_Allreduce instance [0-9]* of comm #0: rank 0 event $e"
    for r in 1 2 3; do
        want="$want, rank $r event $(ev col $r MPI_Allreduce $k)"
    done
    "$drdb" log match col "0:$e" | grep -qx "$want" || bad=1
done
check "col: every member's k-th Allreduce is one instance" '[ $bad = 0 ]'
# collectives.c calls each collective at every rank: as many instances as
# rank 0 has collective calls, each of 4 members calling one function.
want="^MPI_[A-Za-z_]* instance [0-9]* of comm #0: rank 0 event [0-9]*,"
want="$want rank 1 event [0-9]*, rank 2 event [0-9]*, rank 3 event [0-9]*$"
colls="Barrier|Bcast|Gather|Gatherv|Scatter|Scatterv|Allgather|Allgatherv"
colls="$colls|Alltoall|Alltoallv|Alltoallw|Reduce|Allreduce|Reduce_scatter"
colls="$colls|Reduce_scatter_block|Scan|Exscan"
awk -v c="^MPI_($colls)\$" '$1 == 0 && $3 ~ c' col.ev > col.calls
check "col: every instance has 4 members calling the same function" \
    '[ "$(grep -c "$want" col.match)" = "$(wc -l < col.match)" ] &&
     [ "$(wc -l < col.match)" = "$(wc -l < col.calls)" ] &&
     [ -s col.calls ]'

# --- comms: communicators identified across ranks, world ranks right
rec com "$(path comms)"
check_pairs com 4 2
# Comm_split (parity, key reversed): "left is world L" for the ring on it
bad=0
for r in 0 1 2 3; do
    l=$(sed -n "s/^rank $r: split: .* left is world \([0-9]*\)$/\1/p" com.out)
    c=$(awk -v r=$r '$1 == r && $4 == 1 { print $5 }' com.pairs)
    awk -v r=$r -v l="$l" '$1 == r && $4 == 1 && $6 == l' com.pairs | grep -q . ||
        { bad=1; echo "# rank $r: left $l"; }
    eval "split_$r=$c"
done
check "com: a receive on the split communicator matches the printed world rank" \
    '[ $bad = 0 ]'
check "com: split communicators: one id per color, distinct from world" \
    '[ "$split_0" = "$split_2" ] && [ "$split_1" = "$split_3" ] &&
     [ "$split_0" != "$split_1" ] && [ "$split_0" != 0 ]'
bad=0
for r in 0 1 2 3; do
    p=$(sed -n "s/^rank $r: intercomm: .* partner world \([0-9]*\)$/\1/p" com.out)
    awk -v r=$r -v p="$p" '$1 == r && $4 == 6 && $6 == p' com.pairs | grep -q . ||
        { bad=1; echo "# rank $r: partner $p"; }
done
check "com: intercommunicator receives match the printed partners" '[ $bad = 0 ]'
check "com: the intercommunicator is one id at all ranks" \
    '[ "$(awk "\$4 == 6 { print \$5 }" com.pairs | sort -u | wc -l)" = 1 ]'
check "com: world, dup and idup: 3 communicators, the same at every rank" \
    '[ "$(awk "\$4 == 5 { print \$1, \$5 }" com.pairs | sort -u | wc -l)" = 12 ] &&
     [ "$(awk "\$4 == 5 { print \$5 }" com.pairs | sort -u | wc -l)" = 3 ]'

# --- errors
"$drdb" log match com 0-3 > /dev/null 2> err; st=$?
check "bad R:N: exit 2 and says how to write it" \
    '[ $st = 2 ] && grep -q "RANK:EVENT" err'
"$drdb" log match com 7:1 > /dev/null 2> err; st=$?
check "a rank not in the run: exit 2" '[ $st = 2 ] && grep -q "no rank 7" err'
"$drdb" log event com 1:999999 > /dev/null 2> err; st=$?
check "an event out of range: exit 2, naming the range" \
    '[ $st = 2 ] && grep -q "rank 1 has no event 999999: its events are 0-" err'
"$drdb" log dump com --rank 1 --from 999999 > /dev/null 2> err; st=$?
check "dump --from past the end: exit 2, naming the range" \
    '[ $st = 2 ] && grep -q "rank 1 has no event 999999: its events are 0-" err'
"$drdb" log events com --peer 77 > /dev/null 2> err; st=$?
check "events --peer not a rank: exit 2" '[ $st = 2 ] && grep -q "no rank 77: the run has ranks 0-" err'
"$drdb" log match com "1:$(ev com 1 MPI_Comm_rank 1)" > /dev/null 2> err; st=$?
check "a call without a partner: exit 1" \
    '[ $st = 1 ] && grep -q "(MPI_Comm_rank) has no partner" err'
# --- datatypes: data received through a derived type is printed element by
# element: the first receive at rank 1 uses MPI_Type_contiguous(5,
# MPI_INT) x 2, so 10 MPI_INT; the first one must be the first 4 bytes of
# the raw data, read little-endian.
if [ -n "$(path datatypes)" ]; then
    rec dt "$(path datatypes)"
    e=$(ev dt 1 MPI_Recv 1)
    "$drdb" log event dt "1:$e" > ev.txt 2>&1
    "$drdb" log event dt "1:$e" --raw > raw.txt 2>&1
    first=$(sed -n 's/.*made by MPI_Type_contiguous) 40 bytes = 10 x MPI_INT: \([0-9-]*\) .*/\1/p' ev.txt)
    hex=$(sed -n 's/.*data .* 40 bytes: \([0-9a-f]\{8\}\).*/\1/p' raw.txt)
    le=$(printf '%d' "0x$(echo "$hex" | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/')")
    check "a derived type's data, element by element" \
        '[ -n "$first" ] && [ "$first" = "$le" ]'
    # The struct {int a; double b; char c[3]} (resized to its C size) is
    # sent twice: two elements of 1 int, 1 double and 3 chars, 15 bytes
    # each; the first value is the raw data's first int.
    e=$(awk '$1 == 1 && $3 == "MPI_Type_create_struct" { s = 1 }
             s && $1 == 1 && $3 == "MPI_Recv" { print $2; exit }' dt.ev)
    "$drdb" log event dt "1:$e" > sev.txt 2>&1
    "$drdb" log event dt "1:$e" --raw > sraw.txt 2>&1
    sfirst=$(sed -n 's/.*made by MPI_Type_create_resized) 30 bytes: {\([0-9-]*\) [^}]*} {[^}]*}$/\1/p' sev.txt)
    shex=$(sed -n 's/.*data .* 30 bytes: \([0-9a-f]\{8\}\).*/\1/p' sraw.txt)
    sle=$(printf '%d' "0x$(echo "$shex" | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/')")
    nvals=$(sed -n 's/.* bytes: {\([^}]*\)}.*/\1/p' sev.txt | wc -w)
    check "a struct's data, member by member (its layout from the log)" \
        '[ -n "$sfirst" ] && [ "$sfirst" = "$sle" ] && [ "$nvals" = 5 ]'
fi
echo "1..$n"
exit $status
