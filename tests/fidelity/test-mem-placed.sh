#!/bin/sh
# Memory MPI allocated goes to the recorded address in a replay
# (replayer/rpl-mem.c); when that address is taken, it goes elsewhere and
# the replay says so. tests/fidelity/addr-winbase (2 ranks: MPI_Win_allocate
# and MPI_Alloc_mem bases allgathered, stored through) in a batch console:
# rank 0 stopped before its MPI_Alloc_mem (goto), the page of the recorded
# address (from `drdb log event`: its baseptr) mapped by the program
# itself through GDB (`call mmap`, MAP_FIXED_NOREPLACE), then run to its
# end. Expected: one line saying the recorded address (as the log has it)
# is taken and where the memory is instead; the program then does not
# find its buffer in the gathered table (its own output), and ends
# normally. (That every rank replays as recorded when nothing is in
# the way: fidelity-addr.)
#
# usage: test-mem-placed.sh DRDB MPIEXEC ADDR_WINBASE
set -u
drdb=$1 mpiexec=$2 prog=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
unset LD_PRELOAD DRDB_RUN_DIR DRDB_REPLAY_DIR DRDB_REPLAY_RANK

record_or_end 2 "$prog"
ev=$("$drdb" log dump "$tmp/run" --rank 0 | awk '$2 == "MPI_Alloc_mem" { print $1; exit }')
# "raw baseptr 8 bytes: 50d65a55 55550000": little-endian
hex=$("$drdb" log event "$tmp/run" "0:$ev" |
    sed -n 's/^ *raw *baseptr *8 bytes: \([0-9a-f]*\) \([0-9a-f]*\)$/\1\2/p')
addr=
for i in 15 13 11 9 7 5 3 1; do addr=$addr$(echo "$hex" | cut -c$i-$((i + 1))); done
addr=0x$(echo "$addr" | sed 's/^0*//')
page=$(printf '%#x' $((addr & ~4095)))
if [ -z "$ev" ] || [ "$addr" = 0x ]; then
    fail "the log's MPI_Alloc_mem and its address (event '$ev', '$hex')"
    echo "1..$n"
    exit 1
fi

console_batch s "$tmp/run" 0 -- "goto $ev" \
    "call (long)mmap((void *)$page, 4096, 3, 0x100022, -1, 0)" continue
if [ "$(rc s)" = 0 ] && grep -qxF "[0] \$1 = $(printf '%d' "$page")" "$tmp/s"; then
    ok "rank 0 stopped before its MPI_Alloc_mem (event $ev); the page $page mapped by the program"
else
    fail "goto $ev and the program's own mmap at $page (rc $(rc s))"
    sed 's/^/#   /' "$tmp/s" "$tmp/s.err" | tail -12
fi
hasre "the replay says the recorded address $addr is taken, and where the memory is" \
    "$tmp/s" "^\[0\] drdb-replay: rank 0: event $ev (MPI_Alloc_mem): the address the recorded process got ($addr, 12328 bytes) is taken in this replay; the memory is at 0x[0-9a-f]* instead (a program that sends this address"
# (its window too, unless MPICH's random address for it in the recording
# is taken in this replay: then said as well)
said=$(grep '^\[0\] rank 0: the table holds' "$tmp/s")
if echo "$said" | grep -Eq '^\[0\] rank 0: the table holds its window (yes|no), its buffer no$' &&
        grep -Eq '^\[0\] \[Inferior 1 \(process [0-9]*\) exited normally\]$' "$tmp/s"; then
    ok "the program then finds its buffer not in the table, and ends normally"
else
    fail "the program's answer: '$said'; its end: '$(grep '^\[0\] \[Inferior' "$tmp/s")'"
    sed 's/^/#   /' "$tmp/s" "$tmp/s.err" | tail -12
fi

echo "1..$n"
exit $status
