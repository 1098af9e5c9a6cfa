#!/bin/sh
# drdb check's req.*, res.* and msg.* checks (events/ev-check-req.c) on the
# planted-error programs of tests/mpicheck and their fixed twins, recorded
# at 2 ranks: each check fires on its program, with the findings written
# here by hand from the program's source (events numbered from its calls:
# MPI_Init is event 0), and stays silent on the twin; a run killed mid-way
# has no leaks, only notes.
# usage: test-check-req.sh DRDB MPIEXEC CRASH PROG...
#   CRASH: tests/progs/crash; PROG: the programs (NAME-bad and NAME-ok)
set -u
drdb=$(realpath "$1") mpiexec=$2 crash=$(realpath "$3")
shift 3
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
for p in "$@"; do
    cp "$p" "$tmp/"
done
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"

# check NAME: records ./NAME at 2 ranks and runs the area's checks on it
# into NAME.check.
check() {
    if "$drdb" record -o "run-$1" -- "$mpiexec" -n 2 "./$1" \
            > "$1.rec" 2>&1; then
        ok "record $1"
    else
        fail "record $1"; sed 's/^/# /' "$1.rec" | tail -5
    fi
    "$drdb" check --checks 'req.*,res.*,msg.*' "run-$1" > "$1.check" \
        2> "$1.check.err"
    echo $? > "$1.check.rc"
}
# findings NAME COUNT: NAME.check has COUNT findings.
findings() {
    got=$(grep -Ec '^(error|warning|portability) ' "$1.check")
    if [ "$got" = "$2" ]; then
        ok "$1: $2 findings"
    else
        fail "$1: $got findings, want $2"; sed 's/^/#   /' "$1.check"
    fi
}
# twin NAME: the fixed twin NAME-ok has no finding.
twin() {
    check "$1-ok"
    findings "$1-ok" 0
    if [ "$(cat "$1-ok.check.rc")" = 0 ] && ! [ -s "$1-ok.check.err" ]; then
        ok "$1-ok: the checks ran"
    else
        fail "$1-ok: drdb check failed"; sed 's/^/#   /' "$1-ok.check.err"
    fi
}

check req-leak-bad
has "req-leak: the Irecv never waited for (an error: MPI 4.0 11.2.2)" req-leak-bad.check \
    'error req.leak: 1 request of MPI_Irecv(count 1, datatype MPI_INT, source 1, tag 7, comm MPI_COMM_WORLD) was never completed nor freed before MPI_Finalize' \
    '    0:2 created here'
findings req-leak-bad 1
twin req-leak

check req-double-wait-bad
hasre "req-double-wait: the copy waited on" req-double-wait-bad.check \
    '^error req\.used-after-free: MPI_Wait on request handle 0x[0-9a-f]\{8\} of MPI_Isend(count 1, datatype MPI_INT, dest 1, tag 3, comm MPI_COMM_WORLD), which MPI_Wait at 0:4 already completed or freed: the program used a copy of the handle$'
has "req-double-wait: its sites" req-double-wait-bad.check \
    '    0:5 used here' '    0:4 completed or freed here' \
    '    0:3 created here'
findings req-double-wait-bad 1
twin req-double-wait

check req-persistent-restart-bad
hasre "req-persistent-restart: the second start" \
    req-persistent-restart-bad.check \
    '^error req\.restart-active: MPI_Start of persistent request 0x[0-9a-f]\{8\} of MPI_Recv_init(count 1, datatype MPI_INT, source 0, tag 9, comm MPI_COMM_WORLD) while it is active: its start at 1:4 was not completed by a Wait or Test$'
has "req-persistent-restart: its sites" req-persistent-restart-bad.check \
    '    1:5 started again' '    1:4 started here' '    1:3 created here'
findings req-persistent-restart-bad 1
twin req-persistent-restart

# Three splits in a loop at each rank: one finding for the call, 6 in all.
check res-leak-bad
has "res-leak: communicators, type, group" res-leak-bad.check \
    'warning res.leak: 6 communicators made by MPI_Comm_split(comm MPI_COMM_WORLD, color 0, key 0) on 2 ranks were never freed (MPI_Comm_free) before MPI_Finalize' \
    '    0:2 created here' '    1:2 created here' \
    'warning res.leak: 2 datatypes made by MPI_Type_vector(count 2, blocklength 1, stride 2, oldtype MPI_INT) on 2 ranks were never freed (MPI_Type_free) before MPI_Finalize' \
    '    0:5 created here' '    1:5 created here' \
    'warning res.leak: 2 groups made by MPI_Comm_group(comm MPI_COMM_WORLD) on 2 ranks were never freed (MPI_Group_free) before MPI_Finalize' \
    '    0:7 created here' '    1:7 created here'
findings res-leak-bad 3
twin res-leak

# A file opened and closed, then one opened and left open, at each rank.
check res-file-leak-bad
has "res-file-leak: the second file" res-file-leak-bad.check \
    'warning res.leak: 2 files opened by MPI_File_open(comm MPI_COMM_SELF, amode 21, info MPI_INFO_NULL) on 2 ranks were never closed (MPI_File_close) before MPI_Finalize' \
    '    0:4 created here' '    1:4 created here'
findings res-file-leak-bad 1
twin res-file-leak

check msg-unreceived-bad
has "msg-unreceived: the Isend nobody receives" msg-unreceived-bad.check \
    'warning msg.unreceived: 1 message of MPI_Isend(count 1, datatype MPI_INT, dest 1, tag 4, comm MPI_COMM_WORLD) from rank 0 to rank 1 was never received' \
    '    0:2 sent here'
findings msg-unreceived-bad 1
twin msg-unreceived

check msg-unmatched-recv-bad
has "msg-unmatched-recv: the Irecv nothing matches" \
    msg-unmatched-recv-bad.check \
    'warning msg.unmatched-receive: 1 receive MPI_Irecv(count 1, datatype MPI_INT, source 0, tag 6, comm MPI_COMM_WORLD) at rank 1 was never matched by a message (nor cancelled) before MPI_Finalize' \
    '    1:2 posted here'
findings msg-unmatched-recv-bad 1
twin msg-unmatched-recv

# A run killed mid-way (rank 1 SIGKILLed while it sleeps, the others
# killed by mpiexec): what its ranks left pending is no leak (rank 0,
# killed alike, is named with it in one note).
if record_killed "$drdb" "$mpiexec" "$crash" 2 killed 5; then
    "$drdb" check --checks 'req.*,res.*,msg.*' killed > killed.check \
        2> killed.check.err
    findings killed 0
    hasre "killed: the rank that did not finish is named" killed.check \
        "^note req\.leak: \(rank 1's\|ranks 0-1: each rank's\) log does not reach MPI_Finalize (.*): its pending requests are not leaks\$" \
        "^note res\.leak: \(rank 1's\|ranks 0-1: each rank's\) log does not reach MPI_Finalize (.*): its objects are not leaks\$"
else
    fail "record a killed run"; sed 's/^/# /' killed.rec | tail -5
fi

echo "1..$n"
exit $status
