#!/bin/sh
# Every focused MPI program (tests/progs), recorded under mpiexec -n 4:
# recording changes nothing the program can see (its own self-checks pass,
# deterministic output is identical to a native run), every rank's log is
# complete and readable, and the reader finds the calls the program makes.
# usage: test-record-progs.sh DRDB MPIEXEC PROG...
set -u
drdb=$(realpath "$1") mpiexec=$2
shift 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 status=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; status=1; }
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }

# Programs whose output depends on timing (arrival order, poll counts, time).
nondet="anysource-anytag probe wtime-errors"

# has PROG RANK FUNCTION [MIN]: rank's log has at least MIN (1) FUNCTION events.
has() {
    c=$(awk -v f="$3" '$2 == f' "$tmp/$1.dump$2" | wc -l)
    [ "$c" -ge "${4:-1}" ]
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
    collectives) check "$name: Alltoallw, Reduce_scatter, Exscan" 'has $name 1 MPI_Alltoallw && has $name 1 MPI_Reduce_scatter && has $name 1 MPI_Exscan' ;;
    icollectives) check "$name: Ialltoallv and Ibarrier" 'has $name 2 MPI_Ialltoallv && has $name 2 MPI_Ibarrier' ;;
    comms) check "$name: Comm_split, Cart_create, Intercomm_create" 'has $name 3 MPI_Comm_split && has $name 3 MPI_Cart_create && has $name 3 MPI_Intercomm_create' ;;
    datatypes) check "$name: vector, struct, subarray, darray constructors" \
        'has $name 0 MPI_Type_vector && has $name 0 MPI_Type_create_struct && has $name 0 MPI_Type_create_subarray && has $name 0 MPI_Type_create_darray' ;;
    wait-test) check "$name: Waitany, Waitsome, Testany, Testsome" 'has $name 0 MPI_Waitany && has $name 0 MPI_Waitsome && has $name 0 MPI_Testany && has $name 0 MPI_Testsome' ;;
    wtime-errors) check "$name: Wtime logged, and an error return (ret=)" \
        'has $name 0 MPI_Wtime && grep -q "ret=" "$tmp/$name.dump0"' ;;
    sendrecv) check "$name: a 1 MiB message logged in full" 'cat "$tmp/$name".dump? | awk "\$7 == 1048576" | grep -q .' ;;
    threads-serialized) check "$name: MPI_Init_thread logged" 'has $name 0 MPI_Init_thread' ;;
    fortran-p2p) check "$name: Fortran calls reach the recorder (Recv, Allreduce, Bcast)" \
        'has $name 1 MPI_Recv && has $name 1 MPI_Allreduce && has $name 1 MPI_Bcast' ;;
    esac
done
echo "1..$n"
exit $status
