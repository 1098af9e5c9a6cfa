#!/bin/sh
# GDB-style control flow in the console (docs/console.md, "Control flow"):
# foreach over a query's rows, if/else, while, loop_break/loop_continue,
# define/document user commands, in batch scripts and (tmux) at the prompt,
# on tests/events/sql-pattern.c's known pattern. Every expected rank, event
# number and value comes from that program's header or is computed by hand
# from the script, never from drdb.
# usage: test-console-flow.sh DRDB MPIEXEC SQL_PATTERN
set -u
drdb=$(realpath "$1") mpiexec=$2 prog=$(realpath "$3")
lib=$(realpath "$(dirname "$0")/../lib.sh")
tmp=$(mktemp -d)
sock=$tmp/tmux.sock
trap 'tmux -S "$sock" kill-server 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$lib"

if "$drdb" record -o run -- "$mpiexec" -n 4 "$prog" > rec.out 2>&1; then
    ok "record sql-pattern"
else
    fail "record sql-pattern"; sed 's/^/# /' rec.out; exit 1
fi
# con NAME TIMEOUT LINE...: a batch session on every rank running the lines
# (going on after a failure), each command given TIMEOUT seconds.
con() {
    name=$1 secs=$2
    shift 2
    printf '%s\n' "$@" > "$name.drdb"
    timeout 300 "$drdb" batch --keep-going --ranks 0-3 --timeout "$secs" run \
        "$name.drdb" > "$name" 2> "$name.err"
}

# ---- foreach: rank 2 receives from rank 1 at events 3, 5, 7 with tags
# 10, 11, 12 (round i = tag - 10); each row's rank is the body's focus
con each 60 \
    "foreach (SELECT rank, seq, tag FROM events WHERE rank = 2 AND call = 'MPI_Recv' AND tag < 20 ORDER BY seq)" \
    "  goto \$seq" "  print rank" \
    "  printf \"round %d: i = %d\\n\", \$tag - 10, i" "end" "echo 99\\n"
hasre "foreach: goto \$seq on each row, in order" each \
    '^\[2\] main () at .*sql-pattern.c:[0-9]*, before event 3 (MPI_Recv)$' \
    '^\[2\] main () at .*sql-pattern.c:[0-9]*, before event 5 (MPI_Recv)$' \
    '^\[2\] main () at .*sql-pattern.c:[0-9]*, before event 7 (MPI_Recv)$'
# 3 rows on rank 2, then the focus (0-3) back
[ "$(grep -cE '^\[2\] \$[1-3] = 2$' each)" = 3 ] &&
    [ "$(tail -n 1 each)" = "[0-3] 99" ] &&
    ok "foreach: the row's rank is the body's focus, given back after" ||
    { fail "foreach: print rank on the row's rank"; sed 's/^/#   /' each; }
has "foreach: \$tag substituted, the program's loop counter matches it" each \
    "[2] round 0: i = 0" "[2] round 1: i = 1" "[2] round 2: i = 2"

# ---- if/else: a GDB condition true on some ranks only is false; on all
# ranks true; @SET picks the ranks (and is the body's focus); an SQL
# scalar (rank 3's Isend is the run's only one)
# (echo: GDB's, its text as given)
con cond 60 "goto 3" "if rank < 2" "echo 111\\n" "else" "echo 222\\n" "end" \
    "if rank < 4" "echo 333\\n" "else" "echo 444\\n" "end" \
    "if rank >= 2 @2-3" "echo 555\\n" "end" \
    "if (SELECT count(*) FROM events WHERE call = 'MPI_Isend') = 1" \
    "echo 666\\n" "else" "echo 777\\n" "end" \
    "if (SELECT count(*) FROM events WHERE call = 'MPI_Isend') > 1" \
    "echo 888\\n" "end"
has "if: false when true on some ranks only, true on all, @SET, SQL" cond \
    "[0-3] 222" "[0-3] 333" "[2,3] 555" "[0-3] 666"
# the branches taken ran (above), and only those
grep -qxF '[0-3] 666' cond && ! grep -qE '^\[.*\] (111|444|777|888)$' cond &&
    ok "if: the other branches did not run" ||
    { fail "if: a branch not taken ran"; sed 's/^/#   /' cond; }

# ---- while with GDB's $-variables; loop_continue skips 2, loop_break at 4
con loop 60 'set $i = 0' 'while $i < 3' '  set $i = $i + 1' \
    '  printf "i %d\n", $i * 10' 'end' \
    'set $n = 0' 'while 1' '  set $n = $n + 1' '  if $n == 2' \
    '    loop_continue' '  end' '  printf "n %d\n", $n + 100' \
    '  if $n >= 4' '    loop_break' '  end' 'end' 'echo 42\n'
[ "$(grep -E '^\[0-3\] i ' loop | tr '\n' ' ')" = \
    '[0-3] i 10 [0-3] i 20 [0-3] i 30 ' ] &&
    ok "while: the counter runs 1, 2, 3, then the condition is false" ||
    { fail "while with \$i"; sed 's/^/#   /' loop; }
# 101, (2: loop_continue), 103, 104 (loop_break), then the next command
[ "$(grep -E '^\[0-3\] (n [0-9]+|42)$' loop | tr '\n' ' ')" = \
    '[0-3] n 101 [0-3] n 103 [0-3] n 104 [0-3] 42 ' ] &&
    ok "loop_continue skips the rest of the body, loop_break leaves" ||
    { fail "loop_continue, loop_break"; sed 's/^/#   /' loop; }

# ---- define: $arg0..., $argc; document and help; recursion that ends
# (3, 2, 1: $arg0-1 is text, as in GDB) and one that hits the limit
con user 60 'define addmul' '  print ($arg0 + $arg1) * $argc' 'end' \
    'document addmul' 'Adds two numbers, times two.' 'Really.' 'end' \
    'addmul 3 4' 'help addmul' \
    'define countdown' '  if $arg0 > 0' '    print $arg0' \
    '    countdown $arg0-1' '  end' 'end' 'countdown 3' \
    'define forever' '  forever' 'end' 'forever' 'echo 43\n' 'addmul 1' \
    'document nosuch' 'text' 'end' 'define print' 'end'
# (a batch shows each line a user command runs, '+' a level deep)
has "define: \$arg0, \$arg1, \$argc" user "(drdb) +print (3 + 4) * 2" \
    "[0-3] \$1 = 14"
has "document: help NAME shows it" user "Adds two numbers, times two." \
    "Really."
has "recursion: countdown 3" user "(drdb) ++print 3" "[0-3] \$2 = 3" \
    "(drdb) ++++print 3-1" "[0-3] \$3 = 2" "(drdb) ++++++print 3-1-1" \
    "[0-3] \$4 = 1"
grep -qxF "drdb: 'forever': user commands called 1024 deep (a recursion without end?): stopped" user.err &&
    grep -qxF "[0-3] 43" user &&
    ok "recursion without end: a clear error at the limit, the session goes on" ||
    { fail "recursion without end"; tail -n 3 user.err | sed 's/^/#   /'; }
has "a missing argument, document of no command, define of a command" \
    user.err "drdb: 'addmul': missing argument 1: it was given 1 (\$argc)" \
    "drdb: 'document nosuch': no user command 'nosuch' ('define nosuch' first)" \
    "drdb: 'define print': 'print' is a GDB command: choose another name"

# ---- nesting: a foreach per rank 0-1 around a foreach of its Finalize
# (rank 0: event 22, rank 1: event 18), the outer $rank seen inside
con nest 60 "foreach (SELECT rank FROM procs WHERE rank < 2)" \
    "  foreach (SELECT seq FROM events WHERE rank = \$rank AND call = 'MPI_Finalize')" \
    "    if \$seq > 20" "      echo \$rank * 100 + \$seq\\n" "    else" \
    "      echo \$rank * 1000 + \$seq\\n" "    end" "  end" "end"
has "nested foreach / if / else" nest "[0] 0 * 100 + 22" \
    "[1] 1 * 1000 + 18"

# ---- a runaway while: stopped by the --timeout (3 s), said, and the
# session goes on
con runaway 3 "while 1" "end" "echo 44\\n"
grep -q "^drdb: 'while 1' stopped after [0-9]* iterations: it ran longer than the timeout of 3000 ms" runaway.err &&
    grep -qxF "[0-3] 44" runaway &&
    ok "a runaway while stops at the timeout, said; the session goes on" ||
    { fail "a runaway while and the timeout"; sed 's/^/#   /' runaway.err; }

# ---- bad input: each a clear message, nothing of the block runs
con bad 60 "else" "end" "loop_break" \
    "foreach (SELECT rank, seq FROM events WHERE rank > 5)" "print 1" "end" \
    "foreach (SELECT rank, seq FROM events WHERE rank = 0 AND seq = 0)" \
    "print \${sq}" "end" \
    "foreach (SELECT rank, peer FROM events WHERE rank = 0 AND seq = 0)" \
    "print \$peer" "end" \
    "if 1" "print 2" "else" "print 3" "else" "end" \
    "while 1" "else" "end" \
    "foreach (SELECT 0 AS rank, 'x\" @1' || char(10) || 'quit' AS s)" \
    "print \$s" "end" "foreach (SELECT 2 AS rank)" "if 1" "print nosuch" \
    "end" "end" "echo 45\\n" "while 1" "print 4"
has "else, end, loop_break out of a block" bad.err \
    "drdb: 'else' without an 'if'" \
    "drdb: 'end' without a block to end (foreach, if, while, define, document)" \
    "drdb: 'loop_break' is only for the body of a 'while' or a 'foreach'"
has "a query with no rows: the body runs 0 times, said" bad.err \
    "drdb: foreach: the query returned no rows: the body ran 0 times"
has "an unknown \${column}" bad.err \
    "drdb: 'print \${sq}': no column 'sq' in the foreach's query (its columns: \$rank, \$seq)"
has "a NULL value" bad.err \
    "drdb: foreach: row 1: column 'peer' is NULL (coalesce(peer, -1) in the query gives a number)"
has "two else, else in a while" bad.err "drdb: 'if': two 'else' in one 'if'" \
    "drdb: 'while': an 'else' outside an 'if' block (if COND ... else ... end)"
has "a text value is one quoted string: no command in it runs" bad \
    '(drdb) +print "x\042 \1001\012quit"' '[0] $1 = "x\" @1\nquit"' "[0-3] 45"
# the innermost block only: the foreach around it fails without a word
grep -qxF "drdb: 'print nosuch' failed in 'if 1'" bad.err &&
    ! grep -q "failed in 'foreach (SELECT 2 AS rank)'" bad.err &&
    ok "a failing command is named once, with its block" ||
    { fail "a failing command in a block"; sed 's/^/#   /' bad.err; }
has "a missing end" bad.err \
    "drdb: 'while': no 'end' before the end of the input: nothing run"
grep -qxF "[0-3] 45" bad && ! grep -qE '^\[.*\] \$[0-9*]+ = [1234]$' bad &&
    ok "no body of a bad block ran" ||
    { fail "a bad block ran"; sed 's/^/#   /' bad; }

# ---- at the prompt (tmux): bodies with GDB's '>' prompt; Ctrl-C stops a
# runaway while and the prompt comes back
if command -v tmux > /dev/null; then
    HOME=$tmp tmux -S "$sock" new-session -d -x 150 -y 50 \
        "HOME=$tmp '$drdb' console --ranks 0-1 run; echo drdb-exited-\$?; sleep 60"
    tty_wait '^\(drdb 0,1\) ?$' && ok "tty: the prompt" || fail "tty: no prompt"
    for l in 'set $k = 0' 'while 1' 'set $k = $k + 1' 'end'; do
        tty_keys -l "$l"; tty_keys Enter
        tty_wait "^(\(drdb 0,1\) |>)$(printf '%s' "$l" | sed 's/[$*+]/\\&/g')\$" ||
            fail "tty: '$l' not echoed"
    done
    tty_wait '^>end$' && ok "tty: the body read with the '>' prompt" ||
        fail "tty: no '>' prompt"
    sleep 2
    tty_keys C-c
    tty_wait "drdb: 'while 1' stopped by Ctrl-C after [0-9]+ iterations" &&
        ok "tty: Ctrl-C stops a runaway while, said" ||
        fail "tty: Ctrl-C did not stop the while"
    tty_keys -l 'print $k > 5'; tty_keys Enter
    tty_wait '^\[0,1\] \$1 = 1$' && ok "tty: the prompt is back" ||
        fail "tty: after Ctrl-C"
    tty_keys -l 'quit'; tty_keys Enter
    tty_wait 'drdb-exited-' || fail "tty: quit"
else
    skip "tmux not installed"
fi

echo "1..$n"
exit $status
