#!/bin/sh
# drdb check's buf.* checks (events/ev-check-buf.c) on programs with the
# error planted (AREA-NAME-bad.c, AREA-NAME-blocking-bad.c) and their
# fixed twins (-ok.c); the
# expected findings are written here from the programs' comments.
# usage: test-check-buf.sh DRDB MPIEXEC OVERLAP_BAD OVERLAP_OK
#                          BLOCKING_BAD BLOCKING_OK FREED_BAD FREED_OK
#                          FILE_BAD FILE_OK RPUT_OK STRIDED_BAD
#                          STRIDED_OK
set -u
drdb=$(realpath "$1") mpiexec=$2 bad=$(realpath "$3") good=$(realpath "$4")
bbad=$(realpath "$5") bgood=$(realpath "$6")
fbad=$(realpath "$7") fgood=$(realpath "$8")
iobad=$(realpath "$9") iogood=$(realpath "${10}") rput=$(realpath "${11}")
sbad=$(realpath "${12}") sgood=$(realpath "${13}")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; return 1; fi; }

# run NAME PROG: records PROG on 2 ranks, then drdb check --checks 'buf.*'
# into $tmp/NAME.out, with the sites' lines alone in $tmp/NAME.sites.
run() {
    timeout 120 "$drdb" record -o "$tmp/$1" -- "$mpiexec" -n 2 "$2" \
        > /dev/null 2> "$tmp/$1.err"
    check "$1: recorded" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/$1.err"
    "$drdb" check --checks 'buf.*' "$tmp/$1" > "$tmp/$1.out" 2>&1
    echo $? > "$tmp/$1.status"
    grep -E '^(error|warning|portability) |^    [0-9]' "$tmp/$1.out" \
        > "$tmp/$1.sites"
}

run bad "$bad"
cat > "$tmp/want" <<'WANT'
warning buf.overlap
    0:2 writes here
    0:3 writes here
error buf.overlap
    0:7 reads here
    0:8 writes here
warning buf.overlap
    0:10 writes here
    0:11 writes here
warning buf.overlap
    0:10 writes here
    0:12 writes here
WANT
sed 's/^\(\(error\|warning\) buf.overlap\): .*/\1/' "$tmp/bad.sites" > "$tmp/got"
# (two receives into one buffer: a warning; the same two calls on rank 1:
# one finding with rank 0's, "and 1 more pairs")
check "buf.overlap: two receives into overlapping memory, a send's buffer received into, a small receive inside a wide one, two wide ones overlapping, each pair of calls once" \
    'cmp -s "$tmp/want" "$tmp/got"' ||
    { diff "$tmp/want" "$tmp/got" | sed 's/^/# /'; sed 's/^/# /' "$tmp/bad.out"; }
check "buf.overlap: the message names the shared bytes (two receives: a warning)" \
    'grep -q "^warning buf.overlap: MPI_Irecv.s buffer \[0x[0-9a-f]*, 0x[0-9a-f]*) and MPI_Irecv.s \[0x[0-9a-f]*, 0x[0-9a-f]*) share 16 bytes while both are pending" "$tmp/bad.out"'
check "buf.overlap: exit status 1 (errors found)" \
    '[ "$(cat "$tmp/bad.status")" = 1 ]'

run ok "$good"
check "buf.overlap: silent on the fixed twin" '[ ! -s "$tmp/ok.sites" ]' ||
    sed 's/^/# /' "$tmp/ok.out"
check "buf.overlap: exit status 0 on the twin" \
    '[ "$(cat "$tmp/ok.status")" = 0 ]'
# A blocking call on a pending operation's memory (buf-overlap-blocking-
# bad.c's comment lists the events): the recorder logs its buffers only
# while a request is pending (LOG_REC_BUFS).
run bbad "$bbad"
cat > "$tmp/want" <<'WANT'
error buf.overlap
    0:2 reads here
    0:3 writes here
error buf.overlap
    0:5 writes here
    0:6 reads here
error buf.overlap
    0:8 reads here
    0:9 writes here
error buf.overlap
    0:12 writes here
    0:13 writes here
WANT
sed 's/^\(\(error\|warning\) buf.overlap\): .*/\1/' "$tmp/bbad.sites" > "$tmp/got"
check "buf.overlap: MPI_Recv into a pending MPI_Isend's buffer, MPI_Send from a pending MPI_Irecv's, MPI_Allreduce and MPI_Sendrecv_replace (which sends from it too: an error) writing pending operations' memory; rank 1's the same pairs" \
    'cmp -s "$tmp/want" "$tmp/got"' ||
    { diff "$tmp/want" "$tmp/got" | sed 's/^/# /'; sed 's/^/# /' "$tmp/bbad.out"; }
check "buf.overlap: the message names both calls, the bytes shared, and the pending one" \
    'grep -q "^error buf.overlap: MPI_Isend.s buffer \[0x[0-9a-f]*, 0x[0-9a-f]*) and MPI_Recv.s \[0x[0-9a-f]*, 0x[0-9a-f]*) share 16 bytes while the first is pending, and MPI writes the second" "$tmp/bbad.out"'
check "buf.overlap: every blocking call checked (no note of calls left out)" \
    '! grep -q "not checked" "$tmp/bbad.out"' || sed 's/^/# /' "$tmp/bbad.out"
run bok "$bgood"
check "buf.overlap: silent on the blocking calls' fixed twin" \
    '[ ! -s "$tmp/bok.sites" ]' || sed 's/^/# /' "$tmp/bok.out"
# Which blocking calls logged their buffers (drdb log event: "buffers"):
# a call site's first call (with the calling frame), and later those made
# while a request was pending, and no other (buf-overlap-blocking-ok.c's
# comment lists the events: its second round is 25 events after the
# first).
bufs_at() { "$drdb" log event "$tmp/bok" "$1" 2>&1 | grep -q '^  buffers'; }
check "recorder: a site's first blocking call logs its buffers (MPI_Recv after the wait)" \
    'bufs_at 0:5 && bufs_at 1:5'
check "recorder: blocking calls log their buffers while a request is pending (MPI_Sendrecv, MPI_Allreduce, MPI_Recv during a persistent send)" \
    'bufs_at 0:28 && bufs_at 0:35 && bufs_at 1:35 && bufs_at 0:44'
check "recorder: and not once it completed (MPI_Wait, MPI_Request_free of a persistent request, MPI_Waitall)" \
    '! bufs_at 0:30 && ! bufs_at 0:47 && ! bufs_at 1:47 && ! bufs_at 0:51'
# A send freed by MPI_Request_free while active: its buffer received into
# before anything says the send is over (buf-overlap-freed-bad.c's comment
# lists the events), and only after a barrier that follows its receipt.
run fbad "$fbad"
printf '%s\n' 'error buf.overlap' '    0:2 reads here' '    0:4 writes here' \
    > "$tmp/want"
sed 's/^\(\(error\|warning\) buf.overlap\): .*/\1/' "$tmp/fbad.sites" > "$tmp/got"
check "buf.overlap: a freed MPI_Isend's buffer received into before its receipt is known (rank 1's the same pair)" \
    'cmp -s "$tmp/want" "$tmp/got"' ||
    { diff "$tmp/want" "$tmp/got" | sed 's/^/# /'; sed 's/^/# /' "$tmp/fbad.out"; }
run fok "$fgood"
check "buf.overlap: silent when the freed send's buffer is reused after a barrier that follows its receipt" \
    '[ ! -s "$tmp/fok.sites" ]' || sed 's/^/# /' "$tmp/fok.out"
# File and one-sided operations that return a request
# (buf-overlap-file-bad.c's comment lists the events): a receive into a
# pending MPI_File_iwrite_at's buffer, an MPI_Rget into a pending
# MPI_File_iread_at's.
run iobad "$iobad"
printf '%s\n' 'error buf.overlap' '    0:5 reads here' '    0:6 writes here' \
    'warning buf.overlap' '    0:9 writes here' '    0:10 writes here' \
    > "$tmp/want"
sed 's/^\(\(error\|warning\) buf.overlap\): .*/\1/' "$tmp/iobad.sites" > "$tmp/got"
check "buf.overlap: MPI_Irecv into a pending MPI_File_iwrite_at's buffer, MPI_Rget into a pending MPI_File_iread_at's (a warning: two writes)" \
    'cmp -s "$tmp/want" "$tmp/got"' ||
    { diff "$tmp/want" "$tmp/got" | sed 's/^/# /'; sed 's/^/# /' "$tmp/iobad.out"; }
run iook "$iogood"
check "buf.overlap: silent on the file and one-sided twin" \
    '[ ! -s "$tmp/iook.sites" ]' || sed 's/^/# /' "$tmp/iook.out"
# MPI_Rputs sharing MPICH's builtin handle, the first completed by
# MPI_Waitany, its buffer then received into (buf-overlap-rput-ok.c)
run rput "$rput"
check "buf.overlap: silent on MPI_Rputs that share a builtin handle, completed oldest first" \
    '[ ! -s "$tmp/rput.sites" ]' || sed 's/^/# /' "$tmp/rput.out"
# Strided buffers (an MPI_Type_vector column of a matrix): the bytes are
# the type map's, not the span's. A column received into while a pending
# send reads the same column (events 4 and 5 of each rank, 8 bytes x 8
# shared), and its twin, whose send reads the next column: the spans
# overlap, no byte does (a halo exchange).
run sbad "$sbad"
check "buf.overlap: a strided receive and send on the same column, their bytes" \
    'grep -q "^error buf.overlap: MPI_Irecv.s buffer \[0x[0-9a-f]*, 0x[0-9a-f]*) and MPI_Isend.s \[0x[0-9a-f]*, 0x[0-9a-f]*) share 64 bytes while both are pending, and MPI writes the first" "$tmp/sbad.out" &&
     grep -qx "    0:4 writes here" "$tmp/sbad.sites" &&
     grep -qx "    0:5 reads here" "$tmp/sbad.sites"' ||
    sed 's/^/# /' "$tmp/sbad.out"
run sok "$sgood"
check "buf.overlap: silent on interleaved columns (spans overlap, bytes do not)" \
    '[ ! -s "$tmp/sok.sites" ]' || sed 's/^/# /' "$tmp/sok.out"
echo "1..$n"
exit $status
