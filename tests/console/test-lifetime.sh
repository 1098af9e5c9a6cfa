#!/bin/sh
# Nothing drdb starts outlives it: for each way the console ends (quit,
# end of input, SIGHUP, SIGTERM, SIGKILL, SIGSEGV, SIGABRT, a closed
# terminal), the GDBs, the replayed programs and the shadow it started are
# counted before and after, and the shadow directories must be gone (after
# SIGKILL: removed by the next console). `drdb replay` of several ranks the
# same. The processes are found by a marker in their environment, which
# the console's GDBs, their programs and the shadows all inherit.
# usage: test-lifetime.sh DRDB MPIEXEC CRASH
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 crash=$3
tmp=$(mktemp -d)
mark=DRDB_TEST_LIFE=$tmp
# whatever a failed check left running: only the processes with our marker
trap 'kill -9 $(procs all | cut -d" " -f1) 2>/dev/null; rm -rf "$tmp"' EXIT
n=0 status=0

# procs CASE: "PID COMM" of each process whose environment holds the
# marker of CASE ("all": of any case).
procs() {
    if [ "$1" = all ]; then want="^$mark/"; else want="^$mark/$1\$"; fi
    grep -lsz -- "$want" /proc/[0-9]*/environ | while read -r f; do
        p=${f%/environ}
        echo "${p#/proc/} $(cat "$p/comm" 2> /dev/null)"
    done
}
# count CASE: "G gdb, P programs, D drdb" of CASE's processes.
count() {
    procs "$1" | awk '{ c[$2]++ } END { printf "%d gdb, %d programs, %d drdb",
        c["gdb"], c["crash"], c["drdb"] }'
}
# gone CASE: none of CASE's processes within 15 s.
gone() {
    for _ in $(seq 150); do
        [ -z "$(procs "$1")" ] && return 0
        sleep 0.1
    done
    return 1
}
# wait_out FILE REGEX: FILE shows it within 30 s.
wait_out() {
    for _ in $(seq 300); do
        grep -Eq -- "$2" "$1" 2> /dev/null && return 0
        sleep 0.1
    done
    sed 's/^/#   /' "$1" | tail -15
    return 1
}

# A run whose rank 1 sleeps forever after printing "sleeping" (it was
# killed there while recorded): its replay, and its shadow's, never end by
# themselves.
record_killed "$drdb" "$mpiexec" "$crash" 3 "$tmp/cr" 2 ||
    { fail "record a killed run"; echo "1..$n"; exit 1; }

# start CASE: a console on ranks 0-2 reading commands from a fifo (fd 3),
# rank 1 running (sleeping) with a shadow; its pid in $con, its TMPDIR
# $tmp/CASE.tmp, its output $tmp/CASE.out.
start() {
    mkdir -p "$tmp/$1.tmp"
    rm -f "$tmp/$1.fifo"
    mkfifo "$tmp/$1.fifo"
    TMPDIR=$tmp/$1.tmp env "$mark/$1" "$drdb" console --ranks 0-2 "$tmp/cr" \
        < "$tmp/$1.fifo" > "$tmp/$1.out" 2>&1 &
    con=$!
    exec 3> "$tmp/$1.fifo"
    printf 'shadow @1\n@1 continue &\n' >&3
    wait_out "$tmp/$1.out" 'shadow started'
}
# shadows CASE: how many shadow directories CASE's TMPDIR holds.
shadows() {
    find "$tmp/$1.tmp" -mindepth 1 -maxdepth 1 -name 'drdb-shadow-*' |
        wc -l
}
# check CASE HOW: after the console ended (HOW), its processes are gone
# and (unless SIGKILL) its shadow directory.
check() {
    exec 3>&-
    if gone "$1"; then
        ok "$2: every GDB, program and shadow ended (before: $before)"
    else
        fail "$2: left running: $(count "$1") (before: $before)"
    fi
    wait "$con" 2> /dev/null
    if [ "$1" != kill ]; then
        [ "$(shadows "$1")" = 0 ] && ok "$2: the shadow directory is removed" ||
            fail "$2: shadow directories left: $(ls "$tmp/$1.tmp")"
    fi
}
# expect_started CASE: the processes a session has, counted (within 30 s).
expect_started() {
    # 3 GDBs, 3 programs and a shadow, the console and the shadow's drain
    for _ in $(seq 100); do
        before=$(count "$1")
        [ "$before" = "3 gdb, 4 programs, 2 drdb" ] && break
        sleep 0.3
    done
    [ "$before" = "3 gdb, 4 programs, 2 drdb" ] &&
        [ "$(shadows "$1")" = 1 ] ||
        { fail "$1: the session did not start as expected: $before, " \
               "$(shadows "$1") shadow directories"; return 1; }
}

for how in quit eof HUP TERM KILL SEGV ABRT; do
    case=$(echo "$how" | tr 'A-Z' 'a-z')
    if ! start "$case" || ! expect_started "$case"; then
        fail "$how: no session to end"
        exec 3>&-
        kill -9 $(procs "$case" | cut -d' ' -f1) 2> /dev/null
        continue
    fi
    case $how in
        quit) echo quit >&3 ;;
        eof) ;;  # check closes the input
        *) kill -"$how" "$con" ;;
    esac
    check "$case" "$how"
done

# After SIGKILL the shadow directory is left (no code runs); the next
# console removes it, and only it: not a live console's, not a link, not
# another name.
mkdir -p "$tmp/keep" "$tmp/kill.tmp/drdb-shadow-$$-live"
: > "$tmp/keep/file"
ln -s "$tmp/keep" "$tmp/kill.tmp/drdb-shadow-999999999-link"
mkdir "$tmp/kill.tmp/drdb-shadow-other"
[ "$(shadows kill)" = 4 ] || fail "the killed console left no directory"
printf 'status\n' > "$tmp/status.drdb"
TMPDIR=$tmp/kill.tmp env "$mark/next" "$drdb" batch "$tmp/cr" \
    "$tmp/status.drdb" > "$tmp/next.out" 2>&1
left=$(cd "$tmp/kill.tmp" && ls -d drdb-shadow-* | tr '\n' ' ')
[ "$left" = "drdb-shadow-$$-live drdb-shadow-999999999-link drdb-shadow-other " ] &&
    ok "the next console removes the killed console's shadows only" ||
    fail "after the next console: $left"
[ -f "$tmp/keep/file" ] && ok "the sweep follows no link" ||
    fail "the sweep followed a link"

# A closed terminal: the interactive console under tmux, the server killed.
if command -v tmux > /dev/null; then
    sock=$tmp/tmux.sock
    mkdir -p "$tmp/tty.tmp"
    tmux -S "$sock" new-session -d -x 120 -y 40 \
        "HOME=$tmp TMPDIR=$tmp/tty.tmp env '$mark/tty' '$drdb' console --ranks 0-2 '$tmp/cr' 2>&1 | tee '$tmp/tty.out'"
    for _ in $(seq 300); do
        grep -q '(drdb' "$tmp/tty.out" 2> /dev/null && break
        sleep 0.1
    done
    tmux -S "$sock" send-keys 'shadow @1' Enter '@1 continue &' Enter
    if wait_out "$tmp/tty.out" 'shadow started' &&
       expect_started tty; then
        tmux -S "$sock" kill-server
        if gone tty; then
            ok "closed terminal: every GDB, program and shadow ended (before: $before)"
        else
            fail "closed terminal: left running: $(count tty) (before: $before)"
        fi
        [ "$(shadows tty)" = 0 ] &&
            ok "closed terminal: the shadow directory is removed" ||
            fail "closed terminal: shadow directories left"
    else
        fail "closed terminal: no session to end"
        tmux -S "$sock" kill-server 2> /dev/null
    fi
    # SIGTERM in the middle of a line: the terminal is given back as it
    # was (echo on), not left as readline set it.
    tmux -S "$sock" new-session -d -x 120 -y 40 sh
    tmux -S "$sock" send-keys "HOME=$tmp TMPDIR=$tmp/tty.tmp env '$mark/tty2' '$drdb' console '$tmp/cr'" Enter
    for _ in $(seq 300); do
        tmux -S "$sock" capture-pane -p | grep -q '^(drdb' && break
        sleep 0.1
    done
    tmux -S "$sock" send-keys 'pri'
    sleep 0.5
    kill -TERM $(procs tty2 | awk '$2 == "drdb" { print $1 }')
    gone tty2 || fail "TERM at the prompt: left running: $(count tty2)"
    tmux -S "$sock" send-keys Enter 'stty -a | grep -o " -*echo " > '"$tmp/stty"'' Enter
    for _ in $(seq 50); do [ -s "$tmp/stty" ] && break; sleep 0.1; done
    [ "$(cat "$tmp/stty" 2> /dev/null)" = " echo " ] &&
        ok "TERM at the prompt: the terminal echoes again" ||
        fail "TERM at the prompt: the terminal is left '$(cat "$tmp/stty" 2> /dev/null)'"
    tmux -S "$sock" kill-server 2> /dev/null
else
    skip "closed terminal: tmux not installed"
fi

# drdb replay of several ranks: rank 1 sleeps forever.
for how in KILL SEGV; do
    case=replay-$(echo "$how" | tr 'A-Z' 'a-z')
    mkdir -p "$tmp/$case.tmp"
    TMPDIR=$tmp/$case.tmp env "$mark/$case" "$drdb" replay --ranks 0-2 \
        "$tmp/cr" > "$tmp/$case.out" 2>&1 &
    rep=$!
    if ! wait_out "$tmp/$case.out" 'rank 1: sleeping'; then
        fail "replay, $how: rank 1 did not start"
        continue
    fi
    before=$(count "$case")
    kill -"$how" "$rep"
    wait "$rep" 2> /dev/null
    if gone "$case"; then
        ok "replay, $how: every rank ended (before: $before)"
    else
        fail "replay, $how: left running: $(count "$case") (before: $before)"
    fi
done
# the report directory the killed replay left, removed by the next one
TMPDIR=$tmp/replay-kill.tmp "$drdb" replay --rank 0 "$tmp/cr" \
    > /dev/null 2>&1
[ -z "$(ls "$tmp/replay-kill.tmp")" ] &&
    ok "the next replay removes the killed replay's directory" ||
    fail "left by the killed replay: $(ls "$tmp/replay-kill.tmp")"

echo "1..$n"
exit $status
