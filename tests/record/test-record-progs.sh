#!/bin/sh
# Every focused MPI program (tests/progs), recorded under mpiexec -n 4:
# recording changes nothing the program can see (its own self-checks pass,
# deterministic output is identical to a native run), every rank's log is
# complete and readable, and the reader finds the calls the program makes,
# with the data they received (sizes from each program's source, at 4 ranks).
# usage: test-record-progs.sh DRDB MPIEXEC LOG_FIELDS PROG...
set -u
drdb=$(realpath "$1") mpiexec=$2 fields=$(realpath "$3")
shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; return 1; fi; }

# Programs whose output depends on timing (arrival order, poll counts, time).
nondet="anysource-anytag probe wtime-errors"

# has PROG RANK FUNCTION [MIN]: rank's log has at least MIN (1) FUNCTION events.
has() {
    c=$(awk -v f="$3" '$2 == f' "$tmp/$1.dump$2" | wc -l)
    [ "$c" -ge "${4:-1}" ]
}

# bytes PROG RANK FUNCTION: the data bytes of each FUNCTION event, on a line.
bytes() {
    awk -v f="$3" '$2 == f { printf "%s ", $7 }' "$tmp/$1.dump$2"
}

# icollectives at 4 ranks (root 2, K = 6 ints, 30 overlap rounds): the data
# bytes of every call completing a request, in order, at rank R: one
# Waitall (Ibcast of K, non-roots; Iallreduce of K; Igather of 4K, at 0;
# Iscan of 1), Tests of Ialltoallv (10 ints) and Ibarrier, Testall of an
# Irecv of 8 ints, Waits of Iallgather (4K), Iscatterv (R % 3 + 1), Ireduce
# (K at 2), Iexscan (1), Ireduce_scatter_block (K), Ialltoall (8),
# Igatherv (10 at 0), Iallgatherv (10), Ireduce_scatter (R + 1), then 30
# Tests of an Iallreduce of 1 double.
icoll_want() {
    r=$1 w=$(( (r != 2) * 24 + 24 + (r == 0) * 96 + 4 ))
    printf '%s ' $w 40 0 32 96 $(( (r % 3 + 1) * 4 )) $(( (r == 2) * 24 )) \
        4 24 32 $(( (r == 0) * 40 )) 40 $(( (r + 1) * 4 ))
    i=0
    while [ $i -lt 30 ]; do printf '8 '; i=$((i + 1)); done
}
icoll_got() {
    awk '$2 ~ /^MPI_(Wait|Waitall|Test|Testall)$/ && $3 != "-" { printf "%s ", $7 }' \
        "$tmp/icollectives.dump$1"
}

# le32 HEX: the little-endian 32-bit integer HEX (8 digits), in decimal.
le32() {
    printf '%d' "0x$(echo "$1" | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/')"
}

for prog in "$@"; do
    name=$(basename "$prog")
    [ "$name" = crash ] && continue
    prog=$(realpath "$prog")
    run=$tmp/$name
    timeout 120 "$drdb" record -o "$run" -- "$mpiexec" -n 4 \
        -outfile-pattern "$tmp/$name.rec.%r" "$prog" > /dev/null 2> "$tmp/$name.err"
    check "$name: recorded run exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/$name.err" | tail -5
    check "$name: no FAIL from the program's own checks" '! cat "$tmp/$name".rec.* | grep -q FAIL'
    case " $nondet " in
    *" $name "*) ;;
    *)
        timeout 120 "$mpiexec" -n 4 -outfile-pattern "$tmp/$name.nat.%r" "$prog" > /dev/null 2>&1
        same=1
        for r in 0 1 2 3; do
            cmp -s "$tmp/$name.nat.$r" "$tmp/$name.rec.$r" || same=0
        done
        check "$name: output identical to a native run" '[ $same = 1 ]'
        ;;
    esac
    "$drdb" log info "$run" > "$tmp/$name.info" 2>&1
    check "$name: 4 complete logs" '[ "$(grep -cE " complete$" "$tmp/$name.info")" = 4 ]' ||
        sed 's/^/# /' "$tmp/$name.info"
    readable=1
    for r in 0 1 2 3; do
        "$drdb" log dump "$run" --rank $r > "$tmp/$name.dump$r.raw" 2> "$tmp/$name.dumperr" || readable=0
        [ -s "$tmp/$name.dumperr" ] && readable=0
        awk 'NR > 1 && !/^--/' "$tmp/$name.dump$r.raw" > "$tmp/$name.dump$r"
    done
    check "$name: every rank's log dumps cleanly" '[ $readable = 1 ]'
    check "$name: logs start at MPI_Init and end at MPI_Finalize" \
        'for r in 0 1 2 3; do head -1 "$tmp/$name.dump$r" | grep -q " MPI_Init" &&
         tail -1 "$tmp/$name.dump$r" | grep -q " MPI_Finalize" || exit 1; done'
    partial=$(cat "$tmp/$name".dump? | grep -c '(partial)')
    [ "$partial" -gt 0 ] && echo "# $name: $partial events with outputs not logged (partial)"

    # What the reader must find, per program.
    case $name in
    p2p-blocking) check "$name: Ssend, Bsend and Rsend logged" 'has $name 0 MPI_Ssend && has $name 0 MPI_Bsend && has $name 1 MPI_Rsend' ;;
    p2p-nonblocking) check "$name: Irecv completions carry data" \
        'awk "\$2 == \"MPI_Waitall\" && \$7 > 0" "$tmp/$name.dump0" | grep -q .' ;;
    probe) check "$name: Mprobe, Mrecv, Improbe, Imrecv" 'has $name 0 MPI_Mprobe && has $name 0 MPI_Mrecv && has $name 0 MPI_Improbe && has $name 0 MPI_Imrecv' ;;
    persistent) check "$name: Recv_init, Startall, Request_free" 'has $name 0 MPI_Recv_init && has $name 0 MPI_Startall && has $name 0 MPI_Request_free' ;;
    collectives)
        check "$name: Alltoallw, Reduce_scatter, Exscan" 'has $name 1 MPI_Alltoallw && has $name 1 MPI_Reduce_scatter && has $name 1 MPI_Exscan'
        check "$name: no record is partial" '[ "$partial" = 0 ]'
        # 4 peers x 2 ints (even ranks) or doubles (odd); rank r's block of
        # r + 1 ints; blocks of 5 ints; Scatter (root 0) of 5 ints and
        # Scatterv (root 3) of r + 1 ints at every rank, the root's too.
        for r in 0 1 2 3; do
            check "$name rank $r: Alltoallw, Reduce_scatter(_block), Scatter(v) log their data" \
                '[ "$(bytes $name $r MPI_Alltoallw)" = "$(( r % 2 ? 64 : 32 )) " ] &&
                 [ "$(bytes $name $r MPI_Reduce_scatter)" = "$(( (r + 1) * 4 )) " ] &&
                 [ "$(bytes $name $r MPI_Reduce_scatter_block)" = "20 " ] &&
                 [ "$(bytes $name $r MPI_Scatter)" = "20 " ] &&
                 [ "$(bytes $name $r MPI_Scatterv)" = "$(( (r + 1) * 4 )) " ]'
        done ;;
    icollectives)
        check "$name: Ialltoallv and Ibarrier" 'has $name 2 MPI_Ialltoallv && has $name 2 MPI_Ibarrier'
        check "$name: no record is partial (Igatherv, Iallgatherv, Ialltoallv, Ireduce_scatter...)" \
            '[ "$partial" = 0 ]'
        for r in 0 1 2 3; do
            check "$name rank $r: each completion logs the whole buffer MPI wrote" \
                '[ "$(icoll_got $r)" = "$(icoll_want $r)" ]' ||
                { echo "# want: $(icoll_want $r)"; echo "# got:  $(icoll_got $r)"; }
        done ;;
    comms) check "$name: Comm_split, Cart_create, Intercomm_create" 'has $name 3 MPI_Comm_split && has $name 3 MPI_Cart_create && has $name 3 MPI_Intercomm_create' ;;
    datatypes) check "$name: vector, struct, subarray, darray constructors" \
        'has $name 0 MPI_Type_vector && has $name 0 MPI_Type_create_struct && has $name 0 MPI_Type_create_subarray && has $name 0 MPI_Type_create_darray' ;;
    wait-test) check "$name: Waitany, Waitsome, Testany, Testsome" 'has $name 0 MPI_Waitany && has $name 0 MPI_Waitsome && has $name 0 MPI_Testany && has $name 0 MPI_Testsome' ;;
    wtime-errors)
        check "$name: Wtime logged, and an error return (ret=)" \
            'has $name 0 MPI_Wtime && grep -q "ret=" "$tmp/$name.dump0"'
        # Its first MPI_Comm_get_attr is MPI_TAG_UB: besides the attribute
        # pointer (RAW, argument 2, element 0), the int it points to
        # (element 1), the value the program printed.
        for r in 0 3; do
            v=$("$fields" "$run" $r 1 | awk '$1 == "MPI_Comm_get_attr"' | head -1 |
                sed -n 's/.* 1\.2\.1=\([0-9a-f]\{8\}\)\( .*\)*$/\1/p')
            check "$name rank $r: MPI_Comm_get_attr(MPI_TAG_UB) logs the value" \
                '[ -n "$v" ] && grep -qx "rank $r: MPI_TAG_UB $(le32 $v)" "$tmp/$name.rec.$r"'
        done ;;
    sendrecv) check "$name: a 1 MiB message logged in full" 'cat "$tmp/$name".dump? | awk "\$7 == 1048576" | grep -q .' ;;
    threads-serialized) check "$name: MPI_Init_thread logged" 'has $name 0 MPI_Init_thread' ;;
    fortran-p2p) check "$name: Fortran calls reach the recorder (Recv, Allreduce, Bcast)" \
        'has $name 1 MPI_Recv && has $name 1 MPI_Allreduce && has $name 1 MPI_Bcast' ;;
    esac
done
echo "1..$n"
exit $status
