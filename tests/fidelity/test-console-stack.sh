#!/bin/sh
# The console's ranks start with the recorded stack (docs/replaying.md,
# "Addresses"), as `drdb replay`'s do: tests/fidelity/addr-stack, whose
# ranks put into a stack array of main through a dynamic window at the
# displacement MPI_Get_address gives (an argument the replay checks) and
# print its address, replayed in a batch console whose environment is not
# the recording's (a variable of 333 bytes more, and GDB's own). Expected:
# the address each rank printed when recorded, from its recorded output;
# at main, `print &local` shows it; `continue` runs every rank to its end
# with the recorded output, no divergence; after `restart`, the same. A
# console given arguments that need a shell (which adds variables of its
# own) is not padded: said in docs, not checked here.
#
# usage: test-console-stack.sh DRDB MPIEXEC ADDR_STACK
set -u
drdb=$1 mpiexec=$2 prog=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
unset LD_PRELOAD DRDB_RUN_DIR DRDB_REPLAY_DIR DRDB_REPLAY_RANK

record_or_end 3 "$prog"
# Each rank's own recorded address: the launcher's environment differs by
# rank (PMI_FD=14 against PMI_FD=8), which can put one rank's stack 16
# bytes away from the others'.
: > "$tmp/want.addr"
for r in 0 1 2; do
    a=$(sed -n "s/^rank $r: stack array at \(0x[0-9a-f]*\),.*/\1/p" \
        "$tmp/rec.$r")
    printf '%s %s\n%s %s\n' "$r" "$a" "$r" "$a" >> "$tmp/want.addr"
done
addr=$(sed -n 's/^0 //p' "$tmp/want.addr" | head -1)

filler=$(printf '%333s' '' | tr ' ' f)
DRDB_TEST_FILLER=$filler console_batch s "$tmp/run" 0-2 -- \
    "print &local" continue restart "print &local" continue
if [ "$(rc s)" = 0 ] && ! grep -q diverged "$tmp/s" "$tmp/s.err"; then
    ok "addr-stack in the console: every command passed, no divergence"
else
    fail "addr-stack in the console (rc $(rc s))"
    sed 's/^/#   /' "$tmp/s" "$tmp/s.err" | tail -15
fi
# "[0,1] $1 = (int (*)[32]) 0x..." and "[2] ...": one line per rank
batch_every s "print &local" | awk '
    /^\[[0-9,-]+\] \$[12] = \(int \(\*\)\[32\]\) 0x[0-9a-f]+$/ {
        n = split(substr($1, 2, length($1) - 2), part, ",")
        for (i = 1; i <= n; i++)
            if (split(part[i], ab, "-") == 2)
                for (k = ab[1]; k <= ab[2]; k++) print k, $NF
            else
                print part[i], $NF
    }' | sort > "$tmp/got.addr"
sort -o "$tmp/want.addr" "$tmp/want.addr"
cmp -s "$tmp/want.addr" "$tmp/got.addr" &&
    ok "at main, each rank's stack array is where its recording had it, before and after restart" ||
    fail "at main, &local is not each rank's recorded address: $(batch_every s "print &local" | tr '\n' ' ')"
good=0
for r in 0 2 1; do
    # the rank's output, twice (before and after restart), as recorded
    sed "s/^/[$r] /" "$tmp/rec.$r" "$tmp/rec.$r" > "$tmp/want.$r"
    grep "^\[$r\] rank $r:" "$tmp/s" > "$tmp/got.$r"
    if ! cmp -s "$tmp/want.$r" "$tmp/got.$r"; then
        good=1
        diff "$tmp/want.$r" "$tmp/got.$r" | head -6 | sed 's/^/#   /'
    fi
done
[ $good = 0 ] &&
    ok "each rank's output, twice, is its recorded output (the array at its recorded address)" ||
    fail "the ranks' output differs from the recording's"
[ "$(grep -c '^\[0-2\] \[Inferior 1 (process \*) exited normally\]$' "$tmp/s")" = 2 ] &&
    ok "the ranks ran to their end, twice" ||
    fail "the ranks did not end normally twice"

echo "1..$n"
exit $status
