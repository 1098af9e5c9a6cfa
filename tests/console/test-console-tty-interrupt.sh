#!/bin/sh
# Ctrl-C in a real terminal (tmux) stops a long operation where it stands
# and gives the prompt back: a goto to the far end of a slow replay
# (tests/console/spin.c: recorded fast, replayed with heavy work between
# its barriers), then a backward goto, which re-runs from the start; the
# ranks are left stopped and `status` says where.
# usage: test-console-tty-interrupt.sh DRDB MPIEXEC SPIN
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 spin=$3
command -v tmux > /dev/null || { echo "1..0 # SKIP tmux not installed"; exit 0; }
tmp=$(mktemp -d)
sock=$tmp/tmux.sock
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
n=0 status=0

# Events: MPI_Init 0, barriers 1-300, MPI_Finalize 301. Replayed with
# 100 million additions between barriers: a minute or so to the end.
"$drdb" record -o "$tmp/spin" -- "$mpiexec" -n 2 "$spin" 300 0 \
    > /dev/null 2>&1 || fail "recording spin"
HOME=$tmp tmux -S "$sock" new-session -d -x 150 -y 50 \
    "HOME=$tmp '$drdb' console --ranks 0-1 '$tmp/spin' -- '$spin' 300 100000000; echo drdb-exited-\$?; sleep 60"
tty_wait '^\(drdb 0,1\) ?$' && ok "the prompt" || fail "no prompt"

# A command typed after Ctrl-C runs at once: the goto has ended.
tty_keys 'goto 290' Enter
sleep 8
tty_keys C-c
tty_keys 'status' Enter
tty_wait '^1 +stopped +(before|after|inside) [0-9]+/302 ' 80 &&
    ok "Ctrl-C ends a long goto: status answers at once, the ranks stopped" ||
    fail "Ctrl-C did not end the goto (no status within 8 s)"
ev=$(tty_screen | sed -En 's/^0 +stopped +(before|after|inside) ([0-9]+)\/302 .*/\2/p' | tail -n 1)
[ -n "$ev" ] && [ "$ev" -gt 0 ] && [ "$ev" -lt 290 ] &&
    ok "status: rank 0 stands between the start and the target (event $ev)" ||
    fail "status: rank 0 at event '$ev'"

# A backward goto re-runs from the start: Ctrl-C stops it too.
tty_keys C-l
sleep 0.5; tmux -S "$sock" clear-history
tty_keys "goto $((ev - 1))" Enter
sleep 3
tty_keys C-c
tty_keys 'status' Enter
tty_wait '^1 +stopped +(before|after|inside) [0-9]+/302 ' 80 &&
    ok "Ctrl-C ends a backward goto (a re-run)" ||
    fail "Ctrl-C during a re-run"
ev2=$(tty_screen | sed -En 's/^0 +stopped +(before|after|inside) ([0-9]+)\/302 .*/\2/p' | tail -n 1)
[ -n "$ev2" ] && [ "$ev2" -lt $((ev - 1)) ] &&
    ok "the re-run stopped on its way (event $ev2 of $((ev - 1)))" ||
    fail "the re-run: rank 0 at event '$ev2', the target $((ev - 1))"
tty_keys 'print 6 * 7' Enter
tty_wait '^\[0,1\] \$1 = 42$' && ok "both ranks answer after Ctrl-C" ||
    fail "after Ctrl-C"
tty_keys 'quit' Enter
tty_wait 'drdb-exited-' && ok "quit" || fail "quit"

echo "1..$n"
exit $status
