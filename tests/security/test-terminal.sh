#!/bin/bash
# What a run's text can do to the terminal drdb shows it on, and to
# --json's lines (issue 33, items 2 and 6). term-attack.c prints OSC 0
# (title), OSC 52 (clipboard), ESC [2J (clear), "\r[drdb] FAKE: ..." (a
# line over its rank tag), ESC [6n (the terminal types its answer into
# drdb's input), a colour, bytes that are not UTF-8, a NUL inside a line
# and a 200 KB line:
#  - drdb batch: every control character shown as text ("\e[2J", "\r"),
#    each line behind its [0] tag, the long line one line; GDB's printf of
#    the program's string too;
#  - drdb batch --json: every line valid JSON (Python's json), every byte
#    kept (the control characters, the NUL, the bytes that are not UTF-8 as
#    \u00XX, said once on stderr), the long line one object;
#  - drdb console in tmux: the title and the screen untouched, the fake
#    line behind its tag, no answer typed into the prompt; colours only
#    with `set output-color on`;
#  - a drdb.run with control characters in `command` and `cwd`: escaped by
#    the console's banner, `drdb log info` and `drdb replay`'s warning.
# usage: test-terminal.sh DRDB MPIEXEC TERM-ATTACK
set -u
drdb=$(realpath "$1") mpiexec=$2 prog=$(realpath "$3")
tmp=$(mktemp -d)
sock=$tmp/tmux.sock
trap 'tmux -S "$sock" kill-server 2>/dev/null; sleep 0.5; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; sed 's/^/#   /' "${3:-/dev/null}" | cut -c1-200 | head -12; fi; }
# no byte a terminal obeys: C0 controls but tab and newline, DEL
plain() { LC_ALL=C tr -d '\000-\010\013-\037\177' < "$1" | cmp -s - "$1"; }
# the long line, tagged (a file: too long for an argument)
awk 'BEGIN { printf "[0] "; for (i = 0; i < 200 * 1024; i++)
    printf "%c", 97 + i % 26; print "" }' > long

"$drdb" record -o run -- "$mpiexec" -n 1 "$prog" > /dev/null 2> rec.err ||
    { fail "recording term-attack"; cat rec.err; }
"$drdb" record -o short -- "$mpiexec" -n 1 "$prog" short > /dev/null 2>> rec.err ||
    { fail "recording term-attack short"; cat rec.err; }

# ---- batch ------------------------------------------------------------------
console_batch out run 0 -- 'printf "%s\n", evil' continue
check "batch: no control character of the program reaches the output" 'plain out' out
has "batch: each one shown as text, behind the rank tag" out \
    '[0] title: \e]0;PWNED\x07' '[0] clip: \e]52;c;cHduZWQ=\x07' \
    '[0] clear: \e[2J' '[0] ask: \e[6n' '[0] bad utf-8: \xff\xfe\xc3(' \
    '[0] nul: a\x00b' '[0] colour: \e[31mred\e[0m'
has "batch: a \\r does not move the tag: the fake drdb line is the program's" out \
    '[0] \r[drdb] FAKE: rank 3 diverged'
has "batch: GDB's printf of the program's string, shown as text" out \
    '[0] \e]0;GDBPWNED\x07'
check "batch: the 200 KB line is one line, whole" \
    '[ "$(grep -c "^\[0\] abc" out)" = 1 ] && grep -qxFf long out' out

# ---- batch --json -------------------------------------------------------------
console_batch json run 0 --json -- 'printf "%s\n", evil' continue
python3 - json long > json.check <<'EOF'
import json, sys
lines = [l for l in open(sys.argv[1], 'rb').read().split(b'\n') if l]
strings, bad = [], 0
def walk(v):
    if isinstance(v, str): strings.append(v)
    elif isinstance(v, dict): [walk(x) for x in v.values()]
    elif isinstance(v, list): [walk(x) for x in v]
for ln in lines:
    try: walk(json.loads(ln))
    except ValueError as e: bad += 1; print('# not JSON:', repr(ln[:80]), e)
print('ok' if bad == 0 and len(lines) == 2 else 'fail',
      'every line is valid JSON, one per command')
def has(name, *want):
    miss = [w for w in want if w not in strings]
    print('ok' if not miss else 'fail', name)
    for w in miss: print('#   missing', repr(w[:80]))
has('the control characters kept, as JSON escapes', '[0] title: \x1b]0;PWNED\x07',
    '[0] clear: \x1b[2J', '[0] \r[drdb] FAKE: rank 3 diverged',
    '[0] ask: \x1b[6n', '\x1b]0;GDBPWNED\x07')
has('a NUL kept, the rest of the line with it', '[0] nul: a\x00b')
has('bytes that are not UTF-8 as \\u00XX', '[0] bad utf-8: \xff\xfe\xc3(')
has('the 200 KB line is one object, every byte',
    open(sys.argv[2]).read().rstrip('\n'))
EOF
while read -r verdict what; do
    case $verdict in
    ok) ok "--json: $what" ;;
    fail) fail "--json: $what"; head -c 600 json.err | sed 's/^/#   /' ;;
    *) echo "$verdict $what" | cut -c1-200 ;;
    esac
done < json.check
check "--json: the bytes that are not UTF-8 said once on stderr" \
    '[ "$(grep -c "not UTF-8" json.err)" = 1 ]' json.err

# ---- the console on a terminal (tmux) ----------------------------------------
if command -v tmux > /dev/null; then
    HOME=$tmp tmux -S "$sock" new-session -d -x 150 -y 45 \
        "HOME=$tmp '$drdb' console '$tmp/short'; echo drdb-exited-\$?; sleep 60"
    tty_wait '^\(drdb[^)]*\) ?$' > /dev/null || fail "console: no prompt"
    tty_keys 'printf "%s\n", evil' Enter
    tty_keys 'continue' Enter
    tty_wait '^\[0\] end$' > tty1.log || fail "console: the program's output"
    tty_keys 'status' Enter
    tty_wait '^\(drdb[^)]*\) status$' >> tty1.log
    sleep 1
    tmux -S "$sock" capture-pane -p > screen1 # what is on the screen
    title=$(tmux -S "$sock" display -p '#{pane_title}')
    check "console: the program and GDB's printf do not retitle the terminal (title '$title')" \
        '! echo "$title" | grep -q PWNED'
    check "console: the screen is not cleared (the banner still shows)" \
        'grep -q "^replaying rank 0, stopped at main" screen1' screen1
    check "console: the fake drdb line shows behind its [0] tag" \
        'grep -qxF "[0] \r[drdb] FAKE: rank 3 diverged" screen1 &&
         ! grep -q "^\[drdb\] FAKE" screen1' screen1
    check "console: no answer of the terminal typed into the prompt" \
        '! grep -q ";[0-9]*R" screen1 && grep -qx "(drdb[^)]*) status" screen1' screen1
    check "console: colours shown as text by default" \
        'grep -qxF "[0] colour: \e[31mred\e[0m" screen1' screen1
    tty_keys 'set output-color on' Enter 'run' Enter
    sleep 1
    tty_wait '^\[0\] colour: red$' > tty2.log
    tmux -S "$sock" capture-pane -e -p > screen2
    check "console: set output-color on (a setting of drdb's): the program's colour passes" \
        'grep -A1 -x "(drdb[^)]*) set output-color on" screen2 | tail -1 |
             grep -q "^(drdb[^)]*) run" &&
         grep -q "^\[0\] colour: $(printf "\033")\[31mred" screen2' screen2
    tty_keys 'quit' Enter
else
    skip "console: tmux not installed"
fi

# ---- control characters in drdb.run -------------------------------------------
cp -r run evil
sed -i "s|^command .*|command mpiexec $(printf '\033')]0;RUNPWNED$(printf '\007') -n 1|; s|^cwd .*|cwd /nowhere$(printf '\033')[2J$(printf '\r')|" evil/drdb.run
"$drdb" log info evil > info 2> info.err
check "log info: the run's command and cwd shown as text" \
    'plain info && grep -qxF "command     mpiexec \e]0;RUNPWNED\x07 -n 1" info &&
     grep -qxF "cwd         /nowhere\e[2J\r" info' info
console_batch banner evil 0 --trust -- 'status'
check "the console's banner: the run's command shown as text" \
    'plain banner && grep -qxF "  recorded: mpiexec \e]0;RUNPWNED\x07 -n 1" banner' banner
"$drdb" replay --trust --rank 0 evil > replay.out 2> replay.err
check "replay: the missing cwd in its warning shown as text" \
    'plain replay.err && grep -qF "directory '"'/nowhere\e[2J\r'"' does not exist" replay.err' replay.err

echo "1..$n"
exit $status
