#!/bin/sh
# Tab completion in a real terminal (tmux), on tests/console/complete.c,
# whose names begin as the replay stub's internals and libc's do: GDB's
# own completion for GDB's commands (print, break, list, info, set, x,
# gdb ...), less every name that is not the program's (the stub's
# rpl_*/log_*/ckpt_* and what GDB makes of them, libc's, ld.so's); drdb's
# commands, options and subjects; and, with no rank started (--start
# lazy), the program's names from its ELF file, starting no rank.
# usage: test-console-complete.sh DRDB MPIEXEC COMPLETE
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 prog=$3
command -v tmux > /dev/null || { echo "1..0 # SKIP tmux not installed"; exit 0; }
tmp=$(mktemp -d)
sock=$tmp/tmux.sock
# (the consoles end on the hang-up; give them a moment before the rm)
trap 'tmux -S "$sock" kill-server 2>/dev/null; sleep 0.5; rm -rf "$tmp"' EXIT
n=0 status=0

"$drdb" record -o "$tmp/run" -- "$mpiexec" -n 2 "$prog" > "$tmp/rec" 2>&1 ||
    { fail "recording complete"; echo "1..$n"; exit 1; }

# console ARGS...: a console on the run in a new tmux server, at its prompt
console() {
    tmux -S "$sock" kill-server 2>/dev/null
    sleep 0.5
    HOME=$tmp tmux -S "$sock" new-session -d -x 150 -y 45 \
        "HOME=$tmp '$drdb' console $* '$tmp/run'; echo drdb-exited-\$?; sleep 60"
    tty_wait '^\(drdb 0,1\) ?$' || fail "no prompt: console $*"
}
# A clean screen and scrollback, an empty line.
clean() {
    tty_keys C-u C-l
    sleep 0.3
    tmux -S "$sock" clear-history
}
re() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; }
# completes TYPED LINE WHAT: TYPED, then Tab, makes the line LINE
completes() {
    clean
    tty_keys "$1" Tab
    if tty_wait "^\\(drdb 0,1\\) $(re "$2") ?\$" 50 > "$tmp/screen"; then
        ok "$3"
    else
        fail "$3: '$1<TAB>' is not '$2'"
        cat "$tmp/screen"
    fi
}
# candidates TYPED: the words readline lists for TYPED, Tab, Tab (TYPED
# must be their common beginning), sorted, one per line
candidates() {
    clean
    tty_keys "$1" Tab Tab
    for _ in $(seq 50); do
        [ "$(tty_screen | grep -cxF "(drdb 0,1) $1")" -ge 2 ] && break
        sleep 0.1
    done
    tty_screen | awk -v p="(drdb 0,1) $1" '$0 == p { k++; next } k == 1' |
        tr -s ' ' '\n' | sed '/^$/d' | sort
}
# listed TYPED WORDS WHAT: TYPED's candidates are WORDS exactly
listed() {
    got=$(candidates "$1" | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$2" ] && ok "$3" || fail "$3: '$1<TAB><TAB>' lists '$got', not '$2'"
}

# ---- ranks started: GDB's completion, the program's names only
console --ranks 0-1
completes 'break fac' 'break factorial' \
    "break fac<TAB>: the program's function (not libc's faccessat)"
completes 'break rank_open' 'break rank_open_x' \
    "break rank_open<TAB>: not the stub's log__rank_open_visit"
completes 'list map' 'list map_file_x' "list map<TAB>: not the stub's log__map_file"
completes 'list mai' 'list main' "list mai<TAB>"
listed 'list ma' 'main make_room_x map_file_x' \
    "list ma<TAB><TAB>: no ckpt__make_room, makecontext, malloc, madvise"
completes 'print boa' 'print board' "print boa<TAB>: a variable"
completes 'p boa' 'p board' "p boa<TAB>: GDB's p is print (not the console's prev-event)"
listed 'print bo' 'board bonus' "print bo<TAB><TAB>: the program's variables"
completes 'x/4x &boa' 'x/4x &board' "x/4x &boa<TAB>"
completes 'print -pre' 'print -pretty' "print -pre<TAB>: GDB's print options"
completes 'break complete.c:fa' 'break complete.c:factorial' \
    "break complete.c:fa<TAB>"
completes 'break compl' 'break complete.c:' \
    "break compl<TAB>: the program's source file (then its functions)"
candidates 'break r' > "$tmp/break-r"
if grep -qx rank_open_x "$tmp/break-r" && grep -qx read_board "$tmp/break-r" &&
   ! grep -vqxE 'rank|rank_open_x|read_board' "$tmp/break-r"; then
    ok "break r<TAB><TAB>: the program's names, none of the stub's or libc's"
else
    fail "break r<TAB><TAB> lists $(tr '\n' ' ' < "$tmp/break-r")"
fi
completes 'info br' 'info breakpoints' "info br<TAB>: GDB's info subcommands and drdb's"
listed 'info se' 'selectors set sets' "info se<TAB><TAB>: GDB's and drdb's (sets)"
completes 'set pri' 'set print' "set pri<TAB>: GDB's settings"
listed 'set w' 'watchdog width write' \
    "set w<TAB><TAB>: a setting named as libc's write is GDB's"
completes 'set print pre' 'set print pretty' "set print pre<TAB>"
completes 'set mer' 'set merge' "set mer<TAB>: drdb's session options"
listed 'set merge o' 'off on' "set merge o<TAB><TAB>: on, off"
completes '@0 pri' '@0 print' "@0 pri<TAB>: the command after a set"
completes 'print @1 boa' 'print @1 board' "print @1 boa<TAB>: a set as the first argument"
completes '@al' '@all' "@al<TAB>: a set"
completes 'events --co' 'events --count' "events --co<TAB>: a drdb command's options"
completes 'graph --out' 'graph --output' "graph --out<TAB>"
completes 'check --li' 'check --list' "check --li<TAB>: options of its usage"
completes 'until-call MPI_Allr' 'until-call MPI_Allreduce' \
    "until-call MPI_Allr<TAB>: the MPI functions the program calls"
completes 'gdb info br' 'gdb info breakpoints' "gdb info br<TAB>: a GDB command line"
completes 'help eve' 'help event' "help eve<TAB>: commands"
clean
tty_keys 'quit' Enter
tty_wait 'drdb-exited-0' > /dev/null || fail "quit"

# ---- no rank started: the ELF's names, and no rank starts
console --ranks 0-1 --start lazy
completes 'break fac' 'break factorial' "lazy: break fac<TAB> from the ELF file"
completes 'break rank_open' 'break rank_open_x' "lazy: break rank_open<TAB>"
listed 'print bo' 'board bonus' "lazy: print bo<TAB><TAB>"
listed 'list ma' 'main make_room_x map_file_x' "lazy: list ma<TAB><TAB>"
completes 'info br' 'info breakpoints' "lazy: info br<TAB>: drdb's subject"
completes 'break compl' 'break complete.c:' "lazy: break compl<TAB>"
clean
tty_keys 'status' Enter
tty_wait '^1 +not started' > /dev/null &&
    [ "$(tty_screen | grep -cE '^[01] +not started')" = 2 ] &&
    ok "lazy: completing started no rank" ||
    fail "lazy: a rank started: $(tty_screen | grep -E '^[01] ')"
tty_keys 'quit' Enter
tty_wait 'drdb-exited-0' > /dev/null || fail "quit (lazy)"

echo "1..$n"
exit $status
