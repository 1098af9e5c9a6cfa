#!/bin/bash
# bench-bigmsg.sh - a very large message (issue 16, class 13): rank 0 sends
# rank 1 BYTES bytes (default 2.5 GiB) with MPI_Send_c/MPI_Recv_c, then the
# same as a large-count receive of a 2^20-byte contiguous type
# (tests/fidelity/big-msg.c). Recorded with and without compression,
# rank 1 replayed alone from each: the replay must print what the recorded
# rank printed. Prints the wall-clock times and the log sizes.
# Needs about 4 x BYTES of memory (two ranks, the log's pages, the replay).
# Each time is wall-clock, then the CPU time (user + system) of the command
# and its children: on a loaded machine the second is the steadier.
#
# usage: bench-bigmsg.sh DRDB MPIEXEC BIG_MESSAGE [BYTES]
set -u
drdb=$1 mpiexec=$2 prog=$3 bytes=${4:-2684354560}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
status=0

# timed CMD...: "WALL s (cpu CPU s)" of the command (its output in
# $tmp/out); exits on failure.
timed() {
    if ! /usr/bin/time -o "$tmp/time" -f '%e %U %S' "$@" > "$tmp/out" 2>&1; then
        echo "$(basename "$0"): '$*' failed:" >&2
        tail -n 10 "$tmp/out" >&2
        exit 1
    fi
    awk '{ printf "%.1f s (cpu %.1f s)", $1, $2 + $3 }' "$tmp/time"
}

echo "== a message of $bytes bytes between 2 ranks, sent twice (MPI_BYTE; 2^20-byte type)"
t=$(timed "$mpiexec" -n 2 "$prog" "$bytes")
echo "native run: $t"
for mode in no-compress compress; do
    opt=; [ $mode = no-compress ] && opt=--no-compress
    # shellcheck disable=SC2086
    t=$(timed "$drdb" record $opt -o "$tmp/$mode" -- "$mpiexec" -n 2 \
          -outfile-pattern "$tmp/$mode.rec.%r" "$prog" "$bytes")
    size=$(stat -c %s "$tmp/$mode/rank-1.log")
    printf 'record (%s): %s, rank 1 log %s bytes\n' "$mode" "$t" "$size"
    t=$(timed "$drdb" replay --quiet --rank 1 \
          --outfile-pattern "$tmp/$mode.rpl.%r" "$tmp/$mode")
    if cmp -s "$tmp/$mode.rec.1" "$tmp/$mode.rpl.1"; then
        printf 'replay rank 1 (%s): %s, output identical\n' "$mode" "$t"
    else
        printf 'replay rank 1 (%s): output DIFFERS:\n' "$mode"
        diff "$tmp/$mode.rec.1" "$tmp/$mode.rpl.1" | head -5
        status=1
    fi
    rm -rf "${tmp:?}/$mode"
done
exit $status
