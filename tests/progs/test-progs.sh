#!/bin/sh
# The focused MPI programs under mpiexec do what their comments promise:
# each exits 0 at every supported rank count up to 4, every rank prints only
# "rank R: " lines, the expected ones, no FAIL, and ends with
# "rank R: checksum <hex>"; the deterministic ones print the same thing
# twice; crash dies in each mode with its output complete up to the crash.
# usage: test-progs.sh MPIEXEC PROG...   (programs are found by file name)
#
# Each rank's output goes to its own file (-outfile-pattern): on a shared
# stdout Hydra can interleave partial lines of different ranks.
set -u
mpiexec=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

# name -> path
for p in "$@"; do
    eval "path_$(basename "$p" | tr - _)=\$p"
done
path() { eval "echo \${path_$(echo "$1" | tr - _):-}"; }

# run NAME NP TAG ARGS...: runs the program, each rank's stdout in
# $tmp/NAME.NP.TAG.R, stderr of everything in $tmp/NAME.NP.TAG.log;
# returns mpiexec's exit status.
run() {
    name=$1 np=$2 tag=$3
    shift 3
    timeout 60 "$mpiexec" -n "$np" -outfile-pattern "$tmp/$name.$np.$tag.%r" \
        "$(path "$name")" "$@" > "$tmp/$name.$np.$tag.log" 2>&1
}

# show FILE...: the files as TAP comments.
show() {
    for f in "$@"; do
        [ -f "$f" ] && sed "s|^|# $(basename "$f"): |" "$f" | head -40
    done
}

# well_formed NAME NP TAG: every rank's file has only its own lines, no FAIL,
# and ends with its checksum line.
well_formed() {
    r=0
    while [ $r -lt "$2" ]; do
        f="$tmp/$1.$2.$3.$r"
        [ -s "$f" ] || { echo "# rank $r printed nothing"; return 1; }
        if grep -v "^rank $r: " "$f" | grep -q .; then
            echo "# rank $r: foreign lines:"
            grep -v "^rank $r: " "$f" | sed 's/^/#   /' | head -5
            return 1
        fi
        grep -q "^rank $r: FAIL" "$f" && { grep FAIL "$f" | sed 's/^/# /'; return 1; }
        tail -n 1 "$f" | grep -Eq "^rank $r: checksum [0-9a-fA-F]+\$" ||
            { echo "# rank $r: no final checksum line"; return 1; }
        r=$((r + 1))
    done
}

# expect NAME NP TAG COUNT REGEX [RANK...]: each given rank (default: all)
# prints exactly COUNT lines "rank R: " + REGEX (an extended regex).
expect() {
    name=$1 np=$2 tag=$3 count=$4 re=$5
    shift 5
    ranks=$*
    [ -n "$ranks" ] || ranks=$(seq 0 $((np - 1)))
    for r in $ranks; do
        [ "$r" -lt "$np" ] || continue
        got=$(grep -Ec "^rank $r: $re" "$tmp/$name.$np.$tag.$r")
        if [ "$got" != "$count" ]; then
            echo "# $name -n $np rank $r: $got lines matching '$re', want $count"
            bad=1
        fi
    done
}

# The lines each program must print at NP ranks ($bad set on a mismatch).
expectations() {
    name=$1 np=$2 tag=$3 bad=0
    e() { expect "$name" "$np" "$tag" "$@"; }
    case $name in
    p2p-blocking)
        e 24 'round [0-9]+: (Send|Ssend|Bsend) of [0-9]+ [a-z_]+ from [0-9]+ ok$'
        e 1 'rsend from [0-9]+ ok$'
        e $((np - 1)) 'tags 3,1,2 from [0-9]+ ok$' 0
        e 1 '20 messages from [0-9]+ in order$'
        e 1 'short message: count 5 ok$' ;;
    p2p-nonblocking)
        e $((np - 1)) 'all-pairs: [0-9]+ ints from [0-9]+ ok$'
        e 1 '64 tagged messages from [0-9]+ ok$'
        e 3 'I(ssend|bsend|rsend) from [0-9]+ ok$'
        e 1 '10 same-tag messages from [0-9]+ in order$' ;;
    anysource-anytag)
        e 1 "arrival order:( [1-9]){$((12 * (np - 1)))}\$" 0
        e $((np - 1)) 'summary: 12 messages from [0-9]+ in order$' 0
        e 1 "tag 77 arrival order:( [0-9]){$((np - 1))}\$"
        e 1 "summary: tag 77 from all $((np - 1)) peers, then decoys\$"
        e 1 'summary: 3 wildcard Irecvs in order$' ;;
    probe)
        e 1 'probe \+ recv from [0-9]+ ok$'
        e 1 'iprobe: polls [0-9]+ before the message from [0-9]+$'
        e 1 'mprobe/mrecv and improbe/imrecv from [0-9]+ ok$'
        e 1 'PROC_NULL probes ok$' ;;
    persistent)
        e 1 'startall x20 from [0-9]+ ok$'
        e 1 'inactive persistent requests ok$'
        e 6 'iteration [0-5]: (Ssend|Bsend|Rsend)_init from [0-9]+ ok$'
        e 1 "wildcard persistent receive: 2 from each of $((np - 1)) ranks\$" 0 ;;
    collectives)
        for what in barrier bcast gather gatherv scatterv scatter allgather \
                    allgatherv alltoall alltoallv alltoallw 'reduce in place'; do
            e 1 "$what ok\$"
        done
        e 1 'reduce SUM MAX MIN PROD BXOR ok$'
        e 1 'allreduce double, maxloc, user op ok$'
        e 1 'non-commutative reduce, allreduce, scan, exscan ok$'
        e 1 'scan [0-9]+ exscan [0-9]+$'
        e 1 'reduce_scatter and reduce_scatter_block ok$' ;;
    icollectives)
        e 1 'ibcast iallreduce igather iscan ok \(scan [0-9]+\)$'
        e 1 'ialltoallv ibarrier \+ p2p ok$'
        e 1 'iallgather iscatterv ireduce iexscan ireduce_scatter_block ialltoall igatherv iallgatherv ireduce_scatter ok$'
        e 1 '30 overlapped iallreduce rounds ok$' ;;
    comms)
        e 1 'groups: even [0-9]+, no-zero [0-9]+, union [0-9]+, inter [0-9]+, diff [0-9]+$'
        e 1 'split: color [01] rank [0-9]+ of [0-9]+, left is world [0-9]+$'
        e 1 'dup and idup keep messages apart$'
        e 1 'comm_create: even communicator sum [0-9]+$' 0 2
        e 0 'comm_create: ' 1 3
        e 1 'comm_create_group: ranks ' 1 2 3
        e 0 'comm_create_group: ' 0
        e 2 'cart \([0-9]+,[0-9]+\) of [0-9]+x[0-9]+: dim [01] shift src -?[0-9]+ dst -?[0-9]+$'
        e 1 'cart_sub: row of [0-9]+, sum [0-9]+$'
        e 1 'graph: neighbours [0-9]+ [0-9]+$'
        e 1 'dist graph: in from [0-9]+ [0-9]+, out to [0-9]+ [0-9]+$'
        e 1 'intercomm: local [0-9]+ of [0-9]+, remote [0-9]+, '
        e 1 "intercomm_merge: (low|high) half, merged size $np\$" ;;
    datatypes)
        for t in contiguous vector dup indexed hindexed indexed_block \
                 resized subarray; do
            e 1 "$t: size [0-9]+ extent -?[0-9]+/[0-9]+ true -?[0-9]+/[0-9]+ ok\$"
        done
        e 1 'partial vector: count UNDEFINED, elements 7 ok$'
        e 1 'hvector of doubles ok$'
        e 1 'darray: grid [0-9]+x[0-9]+, coords \([0-9]+,[0-9]+\), [0-9]+ elements ok$'
        e 1 'struct x2 ok$'
        e 1 'pack/unpack: [0-9]+ bytes from rank-[0-9] ok$' ;;
    wait-test)
        e 7 'batch [0-6]: (Waitany|Waitsome|Testany|Testsome|Testall|Waitall|Test) completed 6 receives ok$'
        e 1 'status ignore and cancelled receive ok$' ;;
    wtime-errors)
        e 1 'wtime [0-9.]+ wtick [0-9.e-]+$'
        e 1 'spins [0-9]+: (odd|even) branch$'
        e 1 "send to rank $np: class MPI_ERR_RANK \\([0-9]+\\)\$"
        e 1 'error string: .'
        e 1 'count -1: class MPI_ERR_COUNT: .'
        e 1 'user error handler called once, class MPI_ERR_RANK$'
        e 1 'processor .'
        e 1 'MPI [0-9]+\.[0-9]+, library .'
        e 1 'MPI_TAG_UB [0-9]+$'
        e 1 'keyval: 1 copy, 3 deletes ok$' ;;
    sendrecv)
        e 1 '8 ring shifts ok, holding data of rank [0-9]+$'
        e 1 'sendrecv_replace both ways ok$'
        e 1 'PROC_NULL peers ok \(chain source -?[0-9]+\)$'
        e 1 'zero-count messages ok$'
        e 1 '1 MiB message from [0-9]+ ok$' ;;
    threads-serialized)
        e 1 'thread level provided >= SERIALIZED$'
        e 1 '10 iterations with a compute thread ok$'
        e 1 '3 rounds of MPI calls from a helper thread ok$' ;;
    rma)
        e 1 'put, get, accumulate with fence ok$'
        e 1 'fetch_and_op, get_accumulate, compare_and_swap ok$'
        e 1 "win_allocate: $np slots ok\$"
        e 1 'lock/get/unlock of rank [0-9]+ ok$' ;;
    fortran-p2p)
        e 1 'ring ok$'
        e 1 'bcast ok$'
        e 1 'allreduce ok$'
        e 1 'any_source: one message from every rank ok$' 0 ;;
    crash)
        e 10 'iteration [0-9] done sum [0-9]+$' ;;
    *)
        echo "# no expectations for $name"; bad=1 ;;
    esac
    return $bad
}

# Minimum rank count; output that legitimately differs between runs.
min_np() {
    case $1 in
    collectives|icollectives|datatypes|wait-test|wtime-errors|sendrecv|\
    threads-serialized|rma) echo 1 ;;
    *) echo 2 ;;
    esac
}
nondeterministic() {
    case $1 in anysource-anytag|probe|wtime-errors) return 0 ;; esac
    return 1
}

for p in "$@"; do
    name=$(basename "$p")
    np=$(min_np "$name")
    while [ "$np" -le 4 ]; do
        start=$(date +%s.%N)
        if run "$name" "$np" a; then
            secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
            if well_formed "$name" "$np" a && expectations "$name" "$np" a; then
                ok "$name -n $np (${secs}s)"
            else
                fail "$name -n $np: output"
                show "$tmp/$name.$np.a.0" "$tmp/$name.$np.a.1"
            fi
        else
            fail "$name -n $np exited $?"
            show "$tmp/$name.$np.a.log" "$tmp/$name.$np.a".[0-3]
        fi
        np=$((np + 1))
    done
    # Run again at 4 ranks: deterministic programs print the same lines.
    if nondeterministic "$name"; then
        skip "$name: output varies by design"
    elif run "$name" 4 b; then
        same=1
        for r in 0 1 2 3; do
            cmp -s "$tmp/$name.4.a.$r" "$tmp/$name.4.b.$r" || {
                same=0
                diff "$tmp/$name.4.a.$r" "$tmp/$name.4.b.$r" | sed 's/^/# /' | head -10
            }
        done
        [ $same = 1 ] && ok "$name: same output twice" ||
            fail "$name: output differs between runs"
    else
        fail "$name -n 4 (second run) exited non-zero"
    fi
done

# crash: rank 1 dies after iterations 0..4 (3 + 3*5 = 18 MPI calls); every
# rank printed iterations 0..4, none printed 5 or a checksum.
crash_output() { # MODE
    mode=$1 good=1
    f1="$tmp/crash.4.$mode.1"
    [ "$(grep -c '^rank 1: iteration [0-4] done' "$f1" 2>/dev/null)" = 5 ] || {
        echo "# rank 1 did not print iterations 0..4"; good=0; }
    grep -q "^rank 1: crashing now ($mode) after 18 MPI calls\$" "$f1" ||
        { echo "# rank 1: no 'crashing now' line"; good=0; }
    for r in 0 1 2 3; do
        f="$tmp/crash.4.$mode.$r"
        grep -q "^rank $r: iteration 4 done" "$f" 2>/dev/null ||
            { echo "# rank $r: no iteration 4"; good=0; }
        grep -Eq "^rank $r: (iteration [5-9]|checksum)" "$f" 2>/dev/null &&
            { echo "# rank $r: went past the crash"; good=0; }
    done
    [ $good = 1 ]
}
if [ -z "$(path crash)" ]; then
    fail "crash not given"
else
    for mode in segv abort mpi_abort; do
        run crash 4 "$mode" "$mode" 5
        rc=$?
        if [ $rc = 0 ]; then
            fail "crash $mode: exit status 0"
        elif [ $mode = mpi_abort ] && [ $rc != 3 ]; then
            fail "crash mpi_abort: exit status $rc, want 3 (the MPI_Abort code)"
        elif crash_output "$mode"; then
            ok "crash $mode: exit status $rc, output complete up to the crash"
        else
            fail "crash $mode: output"
            show "$tmp/crash.4.$mode".[0-3]
        fi
    done
    # sleep: SIGKILL rank 1 once it says it sleeps.
    run crash 4 sleep sleep 5 &
    job=$!
    pid=
    for _ in $(seq 300); do
        pid=$(sed -n 's/^rank 1: sleeping, pid \([0-9]*\)$/\1/p' \
            "$tmp/crash.4.sleep.1" 2>/dev/null)
        [ -n "$pid" ] && break
        sleep 0.1
    done
    if [ -z "$pid" ]; then
        fail "crash sleep: rank 1 never said it sleeps"
        kill "$job" 2>/dev/null
        wait "$job"
    else
        kill -KILL "$pid"
        wait "$job"
        rc=$?
        if [ $rc != 0 ] && crash_output sleep; then
            ok "crash sleep: SIGKILLed rank 1, exit status $rc, output complete"
        else
            fail "crash sleep: exit status $rc"
            show "$tmp/crash.4.sleep".[0-3]
        fi
    fi
fi
echo "1..$n"
exit $status
