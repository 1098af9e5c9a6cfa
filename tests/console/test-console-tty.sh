#!/bin/sh
# The interactive console through a real terminal (tmux): the prompt shows
# the focus, tab completion, history, a rank printing in the background
# while the user types (the line being typed survives), Ctrl-C pausing a
# busy rank without killing drdb.
# usage: test-console-tty.sh DRDB MPIEXEC CRASH
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 crash=$3
command -v tmux > /dev/null || { echo "1..0 # SKIP tmux not installed"; exit 0; }
tmp=$(mktemp -d)
sock=$tmp/tmux.sock
# (the consoles end on the hang-up; give them a moment before the rm)
trap 'tmux -S "$sock" kill-server 2>/dev/null; sleep 0.5; rm -rf "$tmp"' EXIT
n=0 status=0
# (tests/lib.sh's tmux helpers, under this test's names)
screen() { tty_screen; }
wait_for() { tty_wait "$1"; }
keys() { tty_keys "$@"; }
last_line() { screen | sed '/^$/d' | tail -n 1; }

# A run whose rank 1 sleeps forever after printing "sleeping" (it was
# killed there while recorded): its replay is a busy rank.
record_killed "$drdb" "$mpiexec" "$crash" 2 "$tmp/cr" 2

HOME=$tmp tmux -S "$sock" new-session -d -x 150 -y 45 \
    "HOME=$tmp '$drdb' console --ranks 0-1 '$tmp/cr'; echo drdb-exited-\$?; sleep 60"
# (capture-pane drops trailing blanks)
wait_for '^\(drdb 0,1\) ?$' && ok "the prompt shows the focus" || fail "no prompt"

keys 'pri' Tab
wait_for '^\(drdb 0,1\) print ?$' && ok "tab completes a command" ||
    fail "tab completion"
keys C-u 'break prog_fai' Tab
wait_for '^\(drdb 0,1\) break prog_fail ?$' &&
    ok "tab completes a function name (GDB's completion)" ||
    fail "location completion"
keys C-u '@al' Tab
wait_for '^\(drdb 0,1\) @all ?$' && ok "tab completes a set name" ||
    fail "set completion"
keys C-u 'print '
keys '6 * 7' Enter
wait_for '^\[0,1\] \$1 = 42$' && ok "a merged answer" || fail "print"
# The answer right under the command, as in GDB: no second prompt between
# them (whose rest a shorter answer with a tab would leave on the screen).
tty_screen | grep -A1 -x '(drdb 0,1) print 6 \* 7' | tail -1 |
    grep -qx '\[0,1\] \$1 = 42' && ok "  ... right under the command" ||
    fail "  ... not right under the command: $(tty_screen | grep -A1 -x '(drdb 0,1) print 6 \* 7' | tail -1)"

keys Up
wait_for '^\(drdb 0,1\) print 6 \* 7$' && ok "history: Up recalls the command" ||
    fail "history"
keys C-u

# Rank 1 runs in the background; its output appears above the prompt while
# the user types, and the typed text stays on the line.
keys '@1 continue &' Enter 'sta'
wait_for '^\[1\] rank 1: sleeping, pid [0-9]+$' &&
    ok "a background rank's output shows while at the prompt" ||
    fail "background output"
wait_for '^\(drdb 0,1\) sta$' && ok "the line being typed survives the output" ||
    fail "typed text after output: '$(last_line)'"
keys 'tus' Enter
wait_for '^1 +running ' && ok "status: rank 1 running" || fail "status"

keys C-c
wait_for '^Program received signal SIGINT, Interrupt\.$' &&
    ok "Ctrl-C pauses the busy rank, in GDB's words" || fail "Ctrl-C"
keys 'print 1 + 1' Enter
wait_for '^\[0,1\] \$2 = 2$' && ok "drdb survives Ctrl-C: both ranks answer" ||
    fail "after Ctrl-C"

keys 'quit' Enter
wait_for 'drdb-exited-0' && ok "quit exits 0" || fail "quit"
grep -q '^print 6 \* 7$' "$tmp/.drdb_history" 2>/dev/null &&
    ok "history saved in ~/.drdb_history" || fail "history file"

# A terminal that cannot clear a line (TERM=dumb): still no second prompt
# that the answer would be printed on or over.
tmux -S "$sock" kill-server 2>/dev/null
sock=$tmp/tmux-dumb.sock
HOME=$tmp tmux -S "$sock" new-session -d -x 150 -y 45 \
    "HOME=$tmp TERM=dumb '$drdb' console --ranks 0-1 '$tmp/cr'; sleep 60"
wait_for '^\(drdb 0,1\) ?$' || fail "no prompt on a dumb terminal"
keys 'print 6 * 7' Enter
wait_for '\$1 = 42$' > /dev/null
after=$(screen | grep -A1 -x '(drdb 0,1) print 6 \* 7' | tail -1)
[ "$after" = "[0,1] \$1 = 42" ] &&
    ok "a dumb terminal: the answer right under the command" ||
    fail "a dumb terminal: under the command: '$after'"

echo "1..$n"
exit $status
