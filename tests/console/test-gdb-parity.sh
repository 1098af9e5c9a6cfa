#!/bin/sh
# GDB as the console's oracle for everything GDB also does: each script of
# tests/console/gdb-parity/ runs twice on the same program, in plain GDB on
# a native one-rank run (MPICH's singleton init: GDB starts the program, no
# mpiexec) and in `drdb batch` on the replay of a one-rank recording of it.
# The answers of each command must be identical once the differences
# listed below under "Allowed differences" are taken out, each with its
# reason; any other difference fails. One TAP line per command, a failure
# showing both answers; then one line per program for its output.
#
# usage: test-gdb-parity.sh DRDB MPIEXEC XSTATE [PROG SOURCE SCRIPT]...
#   XSTATE: libdrdb-gdb-xstate.so, which the console preloads into its GDBs
#   (GDB 13's register writes on CPUs with AMX): the oracle GDB gets it too.
#
# A script is one GDB command a line ('#' lines and blank lines skipped); a
# block (commands, if, while, define, document) to its 'end' is one
# command. {{NAME}} stands for the number of the source line that holds
# "mark:NAME". A line '#!ctrl-c' makes the next command's Ctrl-C: one
# second after the debugger read it, SIGINT goes to the debugger (GDB or
# drdb), as a terminal's Ctrl-C would.
#
# Both runs start where the console's ranks start, stopped at main's first
# line, with no user breakpoint made (the oracle's is one of GDB's internal
# breakpoints: a user breakpoint would take number 1, which the console's
# first breakpoint has), and with the settings every console GDB has (mi/
# mi-gdb-proc.c, frontend/con-rank.c):
oracle_settings='set prompt
set width 0
set height 0
set pagination off
set confirm off
set mi-async on
handle SIGINT stop print nopass
set debug-file-directory
set debuginfod enabled off
set startup-with-shell off
unset environment LD_PRELOAD'
set -u
. "$(dirname "$0")/../lib.sh"
# abs PATH: PATH from / (meson gives paths in the build directory, and the
# sessions run in a directory of their own).
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
drdb=$(abs "$1") mpiexec=$2 xstate=$(abs "$3")
shift 3
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# tmp $tmp" || trap 'rm -rf "$tmp"' EXIT
n=0 status=0

# ---- Allowed differences: sed programs (-E), each rule with its reason.
# On both sides:
allowed_both='
# The stack and the shared libraries lie elsewhere in the replay: the
# stack top moves with the environment (drdb adds its variables) and the
# replay stub stands in for MPICH, so the libraries load otherwise. The
# program itself is at the same place (no ASLR under GDB on both sides).
s/0x(0000)?7ff[0-9a-f]{9}/0x7ff.../g
# Process and thread ids: two different processes.
s/\(LWP [0-9]+\)/(LWP N)/g
s/process [0-9]+/process N/g
# Frames inside MPI: MPICH defines MPI_X as a weak alias of PMPI_X and
# GDB names the address PMPI_X; the stub that replaces libmpich.so.12 in
# the replay is another file at another path.
s/PMPI_/MPI_/g
s#from [^ ]*/libmpich\.so\.12#from libmpich.so.12#g
# Where Ctrl-C stops the program in its busy loop (spin(), one line) is a
# matter of timing.
s/0x[0-9a-f]+ in spin \(\)/0x... in spin ()/g
# The columns of info threads are as wide as their widest entry: another
# thread (below), another process id.
/^(  Id   Target Id|\* 1 )/s/  +/ /g
'
# Only in the native run: UCX, MPICH'"'"'s transport here, starts a thread of
# its own ("async") in MPI_Init, which the replay stub does not: GDB says
# when it starts and ends, lists it in info threads, and names the thread
# that stops ("Thread 1 "parity" hit Breakpoint 1, ...") only when there
# are several.
allowed_gdb='
/^\[New Thread 0x[0-9a-f]+ \(LWP [0-9]+\)\]$/d
/^\[Thread 0x[0-9a-f]+ \(LWP [0-9]+\) exited\]$/d
/^  [0-9]+ +Thread 0x[0-9a-f]+ \(LWP [0-9]+\) "async" /d
s/^Thread 1 "[^"]*" hit //
s/^Thread 1 "[^"]*" received signal/Program received signal/
'
# Only in drdb: the rank tag of each answer ("[0] x" or a line "[0]" above
# a multi-line answer), and the batch'"'"'s line saying which script line
# failed (it goes on: -k; GDB'"'"'s own error is what is compared).
allowed_drdb='
s/^\[0\] //
/^\[0\]$/d
/^drdb: [^ ]+:[0-9]+: .* failed$/d
'
# The program's output ("out: ..." lines) is compared as a whole, not
# under the command that printed it: GDB's program writes into the same
# pipe as GDB, the console reads a rank's terminal and prints what it
# read when it comes.

# units SOURCE SCRIPT OUT: the commands of SCRIPT, marks replaced, in its
# sessions S = 1, 2, ...: OUT.S.cmd (drdb's script), OUT.S.gdb (the
# oracle's: the settings, main, then each command after an echo of
# "@@@ K"), OUT.S.first (a line "K<TAB>the command's first line" for each
# command K, numbered across the sessions) and OUT.S.intr (K of the
# command to interrupt, if any).
units() {
    awk -v out="$3" -v settings="$oracle_settings" '
        FNR == NR {
            if (match($0, /mark:[A-Za-z0-9_]+/))
                mark[substr($0, RSTART + 5, RLENGTH - 5)] = FNR
            next
        }
        function begin() {
            if (s)
                printf "echo \\n@@@ end\\n" > (out "." s ".gdb")
            s++
            f = out "." s
            print settings > (f ".gdb")
            print "python gdb.Breakpoint(\"main\", internal=True, temporary=True)" > (f ".gdb")
            print "run" > (f ".gdb")
            printf "" > (f ".cmd")
            printf "" > (f ".first")
        }
        FNR == 1 { begin() }
        {
            line = $0
            while (match(line, /\{\{[A-Za-z0-9_]+\}\}/)) {
                name = substr(line, RSTART + 2, RLENGTH - 4)
                if (!(name in mark)) {
                    print "no line marked mark:" name > "/dev/stderr"
                    exit 2
                }
                line = substr(line, 1, RSTART - 1) mark[name] \
                    substr(line, RSTART + RLENGTH)
            }
            word = line
            sub(/^[ \t]+/, "", word)
            sub(/[ \t].*/, "", word)
            if (depth == 0) {
                if (line == "#!ctrl-c") { intr = 1; next }
                if (line == "#!start") {
                    if (k > ks) begin()
                    ks = k
                    next
                }
                if (line ~ /^[ \t]*(#|$)/)
                    next
                k++
                print k "\t" line > (f ".first")
                printf "echo \\n@@@ %d\\n\n", k > (f ".gdb")
                if (intr)
                    print k > (f ".intr")
                intr = 0
            }
            if (word ~ /^(commands|if|while|define|document)$/)
                depth++
            else if (word == "end" && depth > 0)
                depth--
            print line > (f ".gdb")
            print line > (f ".cmd")
        }
        END {
            printf "echo \\n@@@ end\\n" > (f ".gdb")
            print s > (out ".sessions")
        }
    ' "$1" "$2"
}

# session IN OUT WATCH COUNT CMD...: CMD (a debugger) reading IN, with its
# stdout and stderr in OUT, at most 120 s; when WATCH is not empty, once
# OUT has COUNT lines WATCH (the debugger read that command), SIGINT to CMD
# one second later (through timeout, which passes it on to CMD alone).
session() {
    _in=$1 _out=$2 _watch=$3 _count=$4
    shift 4
    timeout --foreground -s KILL 120 "$@" < "$_in" > "$_out" 2>&1 &
    _pid=$!
    if [ -n "$_watch" ]; then
        for _ in $(seq 600); do
            [ "$(grep -cxF -- "$_watch" "$_out")" -ge "$_count" ] && break
            sleep 0.1
        done
        sleep 1
        kill -INT "$_pid" 2>/dev/null
    fi
    wait "$_pid"
}

# split_gdb RAW DIR: the oracle's answer to command K in DIR/K (between the
# echoes "@@@ K" and the next; the newline each echo starts with ends the
# answer, or adds an empty line, taken off).
split_gdb() {
    awk -v dir="$2" '
        function flush(  i) {
            if (k == "")
                return
            if (m > 0 && line[m] == "")
                m--
            printf "" > (dir "/" k)
            for (i = 1; i <= m; i++)
                print line[i] > (dir "/" k)
            close(dir "/" k)
        }
        /^@@@ ([0-9]+|end)$/ { flush(); k = $2 == "end" ? "" : $2; m = 0; next }
        k != "" { line[++m] = $0 }
        END { flush() }' "$1"
}

# split_drdb RAW FIRST DIR: drdb's answer to command K in DIR/K: the lines
# after its echo "(drdb) FIRST-LINE-K" up to the echo of the next command
# (FIRST: the session's lines "K<TAB>FIRST-LINE-K").
split_drdb() {
    awk -v dir="$3" -v firsts="$2" '
        BEGIN {
            while ((getline l < firsts) > 0) {
                t = index(l, "\t")
                num[++n] = substr(l, 1, t - 1)
                first[n] = substr(l, t + 1)
                printf "" > (dir "/" num[n])
            }
        }
        i < n && $0 == "(drdb) " first[i + 1] { i++; next }
        i > 0 { print > (dir "/" num[i]) }' "$1"
}

# parity NAME PROG SOURCE SCRIPT: records PROG, runs each session of
# SCRIPT in both debuggers, one TAP line per command, one for the output.
parity() {
    name=$1 prog=$2 src=$3 script=$4
    o=$tmp/$name
    units "$src" "$script" "$o" || { fail "$name: reading $script"; return; }
    mkdir -p "$o.gdbans" "$o.drdbans"
    # The same directory for both: the recording's, where the console's
    # GDB runs the program.
    (cd "$tmp" && "$drdb" record -o "$o.run" -- "$mpiexec" -n 1 "$prog" \
        > "$o.rec" 2>&1) || {
        fail "$name: recording $prog"
        sed 's/^/#   /' "$o.rec" | tail -10
        return
    }
    : > "$o.gout"
    : > "$o.dout"
    s=0
    while [ "$s" -lt "$(cat "$o.sessions")" ]; do
        s=$((s + 1))
        one_session "$o" "$o.$s"
    done
    total=$(cat "$o".*.first | wc -l)
    cat "$o".*.first | while IFS='	' read -r k cmd; do
        [ -f "$o.gdbans/$k" ] || echo '(no answer: GDB ended before)' \
            > "$o.gdbans/$k"
        n=$((n + 1))
        # (printf: a command may hold a backslash, which echo would read)
        if cmp -s "$o.gdbans/$k" "$o.drdbans/$k"; then
            printf 'ok %d - %s %d: %s\n' "$n" "$name" "$k" "$cmd"
        else
            printf 'not ok %d - %s %d: %s\n' "$n" "$name" "$k" "$cmd"
            sed 's/^/#   gdb:  /' "$o.gdbans/$k"
            [ -s "$o.drdbans/$k" ] || echo '#   drdb: (nothing)'
            sed 's/^/#   drdb: /' "$o.drdbans/$k"
        fi
    done > "$o.tap"
    cat "$o.tap"
    n=$((n + $(grep -c '^\(not \)*ok' "$o.tap")))
    grep -q '^not ok' "$o.tap" && status=1
    good=$(grep -c '^ok' "$o.tap")
    if cmp -s "$o.gout" "$o.dout" && [ -s "$o.gout" ]; then
        ok "$name: the program's output"
    else
        fail "$name: the program's output"
        sed 's/^/#   gdb:  /' "$o.gout"
        sed 's/^/#   drdb: /' "$o.dout"
    fi
    echo "# $name: $good of $total commands answered as GDB does"
}

# one_session O F: the session whose files are F.gdb, F.cmd, F.first,
# F.intr, in GDB and in drdb; the answers into O.gdbans/K, O.drdbans/K,
# the program's output appended to O.gout, O.dout.
one_session() {
    o=$1 f=$2
    watch_gdb= watch_drdb= count=1
    if [ -s "$f.intr" ]; then
        k=$(head -n 1 "$f.intr")
        first=$(awk -F'\t' -v k="$k" '$1 == k { print $2 }' "$f.first")
        watch_gdb="@@@ $k"
        watch_drdb="(drdb) $first"
        # drdb echoes each command: the one to interrupt is its count-th
        count=$(awk -F'\t' -v k="$k" '$1 <= k { print $2 }' "$f.first" |
            grep -cxF -- "$first")
    fi
    # The native run with the system's MPICH: not with meson's
    # LD_LIBRARY_PATH, which finds the replay stub's libmpich.so.12 first.
    # GDB has the console's preload; its program does not (set in the
    # oracle's settings, as the console does).
    (cd "$tmp" && session "$f.gdb" "$f.gdbraw" "$watch_gdb" 1 \
        env -u LD_LIBRARY_PATH LD_PRELOAD="$xstate" gdb -nx -q "$prog")
    session /dev/null "$f.drdbraw" "$watch_drdb" "$count" \
        "$drdb" batch -k --timeout 20 "$o.run" "$f.cmd"
    cp "$f.gdbraw" "$f.g"
    cp "$f.drdbraw" "$f.d"
    sed -E -i "$allowed_gdb" "$f.g"
    sed -E -i "$allowed_drdb" "$f.d"
    sed -E -i "$allowed_both" "$f.g" "$f.d"
    # (the same paths on both sides, shown from the source tree)
    sed -E -i 's#[^ "()]*/(tests/console/gdb-parity/)#SRC/\1#g' "$f.g" "$f.d"
    grep '^out: ' "$f.g" >> "$o.gout"
    grep '^out: ' "$f.d" >> "$o.dout"
    sed -i '/^out: /d' "$f.g" "$f.d"
    split_gdb "$f.g" "$o.gdbans"
    split_drdb "$f.d" "$f.first" "$o.drdbans"
    # The oracle reads its script on stdin (so that a command's error does
    # not end it, as it would end a -batch -x script): GDB prompts for
    # each line of a block with its secondary prompt, '>', which no answer
    # has. Taken off the answers of blocks.
    awk -F'\t' '$2 ~ /^[ \t]*(commands|if|while|define|document)([ \t]|$)/ {
        print $1 }' "$f.first" | while read -r k; do
        sed -E -i '1{s/^>+//;/^$/d}' "$o.gdbans/$k"
    done
}

while [ $# -ge 3 ]; do
    parity "$(basename "$3" .gdb)" "$(abs "$1")" "$(abs "$2")" "$(abs "$3")"
    shift 3
done
echo "1..$n"
exit $status
