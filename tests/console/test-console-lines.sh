#!/bin/sh
# How the console reads a command line and writes its answers: one rank-set
# rule for every command (@SET before the command, as its first argument or
# as the last word), --json as JSON lines, `events` as `drdb log events`,
# `set`, `help set`, `x/FMT`. On recorded runs of examples/jacobi (4 ranks,
# 23 events each) and examples/anysource (rank 0 receives 3 messages from
# each other rank with MPI_ANY_SOURCE / MPI_ANY_TAG, tag 7). Expected
# answers are written by hand from what the programs do.
# usage: test-console-lines.sh DRDB MPIEXEC JACOBI JACOBI_SOURCE ANYSOURCE
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$1 mpiexec=$2 jacobi=$3 src=$4 anysource=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
show() { sed 's/^/#   /' "$1" | tail -"${2:-25}"; }
# hasnt NAME FILE LINE...: FILE holds none of the LINEs.
hasnt() {
    name=$1 file=$2
    shift 2
    for bad in "$@"; do
        if grep -qxF -- "$bad" "$file"; then
            fail "$name: a line '$bad'"
            show "$file"
            return
        fi
    done
    ok "$name"
}
# batch NAME RUN RANKS [OPTIONS] -- SCRIPT-LINES...: on $tmp/RUN
# (tests/lib.sh's console_batch).
batch() { _n=$1 _r=$2; shift 2; console_batch "$_n" "$tmp/$_r" "$@"; }

"$drdb" record -o "$tmp/jac" -- "$mpiexec" -n 4 "$jacobi" 16 3 \
    > /dev/null 2>&1 || fail "recording jacobi"
"$drdb" record -o "$tmp/any" -- "$mpiexec" -n 4 "$anysource" 3 \
    > /dev/null 2>&1 || fail "recording anysource"
line=$(grep -n 'double local = 0.0;' "$src" | cut -d: -f1)

# ---- one rank-set rule: before the command, first argument, last word
batch sets jac 0-3 -- "break jacobi.c:$line" continue \
    "print @0 rank" "print rank @1" "@2 print rank" "@0 print rank@1" \
    "status @0" "kill @1" "status"
has "@SET as the first argument or the last word, like before the command" \
    "$tmp/sets" "[0] \$1 = 0" "[1] \$1 = 1" "[2] \$1 = 2"
grep -qxF "[0] \$1 = 0" "$tmp/sets" &&
    hasnt "... and only on that set" "$tmp/sets" "[0-3] \$1 = 0" \
    "[1-3] \$1 = 1" "[0,2,3] \$1 = 2" "[1] \$1 = 0" ||
    fail "... and only on that set"
has "an '@' inside an expression is GDB's (rank@1)" "$tmp/sets" \
    "[0] \$2 = {0}"
# status @0: rank 0 only; kill @1: rank 1 only (after 7/23: events 0-7
# done, the Allreduce not begun).
grep -A2 '^(drdb) status @0$' "$tmp/sets" | grep -q '^0 *stopped *after 7/23 ' &&
    ! grep -A2 '^(drdb) status @0$' "$tmp/sets" | grep -q '^[1-3] ' &&
    ok "status @0: rank 0 only" || { fail "status @0"; show "$tmp/sets"; }
[ "$(grep -A5 '^(drdb) status$' "$tmp/sets" | grep -c '^[023] *stopped *after 7/23 ')" = 3 ] &&
    ! grep -A5 '^(drdb) status$' "$tmp/sets" | grep -q '^1 *stopped' &&
    ok "kill @1 ends rank 1 only" || { fail "kill @1"; show "$tmp/sets"; }

batch goto jac 0-3 -- "goto @0 10" "goto 12 @1" "status"
grep -q '^0 *stopped *before 10/23 ' "$tmp/goto" &&
    grep -q '^1 *stopped *before 12/23 ' "$tmp/goto" &&
    [ "$(grep -c '^[23] *stopped *before 0/23 ' "$tmp/goto")" = 2 ] &&
    ok "goto @0 10, goto 12 @1: those ranks only" ||
    { fail "goto @SET"; show "$tmp/goto"; cat "$tmp/goto.err"; }

# A slip never widens to the focus: each of these fails, and every rank
# is still stopped where it was. (continue 3 is GDB's: ignore the
# breakpoint twice.)
batch slips jac 0-3 -k -- "break jacobi.c:$line" continue "kill 1" \
    "@1 kill @2" "kill @9" "kill @nosuch" "restart 2" status
[ "$(grep -c "^[0-3] *stopped *after 7/23 " "$tmp/slips")" = 4 ] &&
    ok "kill 1, @1 kill @2, kill @9, kill @nosuch, restart 2: no rank ended" ||
    { fail "a slip ended ranks"; show "$tmp/slips"; }
[ "$(grep -c "failed\$" "$tmp/slips.err")" = 5 ] &&
    ok "... each of them an error" || { fail "slips not errors"; show "$tmp/slips.err"; }
[ "$(rc slips)" = 1 ] && ok "... and the batch fails" || fail "slips exit $(rc slips)"

# ---- --json: every line of stdout is one JSON object
echo "print 6 * 7" > "$tmp/inner.drdb"
batch json jac 0-3 --json -k -- "break jacobi.c:$line" continue status \
    "info breakpoints" "print rank" "@0 events --count 3" "print nosuch" \
    "set var rank = rank" "source $tmp/inner.drdb" continue
if python3 - "$tmp/json" > "$tmp/json.py" 2>&1 <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "no newline at the end"
objs = []
for i, l in enumerate(lines[:-1]):
    try:
        o = json.loads(l)
    except ValueError as e:
        sys.exit("line %d is not JSON (%s): %r" % (i + 1, e, l))
    if not isinstance(o, dict):
        sys.exit("line %d is not an object: %r" % (i + 1, l))
    objs.append(o)
cmds = [o for o in objs if "command" in o]
names = [o["command"] for o in cmds]
assert names[0].startswith("break jacobi.c:"), names
assert names[1:] == ["continue", "status", "info breakpoints", "print rank",
                     "@0 events --count 3", "print nosuch",
                     "set var rank = rank", names[8], "continue"], names
assert names[8].startswith("source "), names
assert cmds[8]["results"] == [{"ranks": "0-3", "text": "$2 = 42"}], cmds[8]
for o in cmds:
    assert set(o) == {"command", "ranks", "ok", "results"}, o
    assert isinstance(o["results"], list), o
    for r in o["results"]:
        assert isinstance(r, dict), o
st = cmds[2]["results"]
assert [r.get("rank") for r in st] == [0, 1, 2, 3], st
assert all(r["state"] == "stopped" and r["event"] == "after 7/23"
           for r in st), st
ev = cmds[5]["results"]
assert [(r["rank"], r["function"], r["here"]) for r in ev] == [
    (0, "MPI_Waitall", False), (0, "MPI_Allreduce", True),
    (0, "MPI_Irecv", False)], ev
assert cmds[6]["ok"] is False, cmds[6]
assert cmds[7]["ok"] and cmds[7]["results"] == [], cmds[7]
print("ok")
EOF
then ok "--json: JSON lines, one object per command, status and events as rows"
else fail "--json: $(cat "$tmp/json.py")"; show "$tmp/json" 12
fi

# ---- events: the same lines as drdb log events
"$drdb" log events "$tmp/any" --rank 0 --call recv > "$tmp/log-recv"
batch ev any 0 -- "events --from 0 --count 100 --call recv"
# a listing's lines: RANK EVENT FUNCTION ... (the position mark aside)
evlines() { grep -E '^ *[0-9]+ +[0-9]+  MPI_' "$1" | sed 's/  <= here$//'; }
evlines "$tmp/log-recv" > "$tmp/l1"
evlines "$tmp/ev" > "$tmp/l2"
[ "$(wc -l < "$tmp/l1")" = 9 ] && cmp -s "$tmp/l1" "$tmp/l2" &&
    ok "events: the same 9 lines as drdb log events" ||
    { fail "events differ from drdb log events"; diff "$tmp/l1" "$tmp/l2" |
      sed 's/^/#   /' | head -20; show "$tmp/ev.err" 5; }
# a wildcard receive shows the rank and tag it matched
awk '{ print $4, $5 }' "$tmp/l2" | sort -u > "$tmp/peers"
printf '%s\n' "1 7" "2 7" "3 7" | cmp -s - "$tmp/peers" &&
    ok "events: wildcard receives show the matched source and tag 7" ||
    { fail "events: peers/tags"; show "$tmp/ev"; }
batch evf any 0 -k -- "events --from 0 --peer 2" \
    "events --from 0 --count 2 --call recv"
section() { sed -n "/^(drdb) $2\$/,/^(drdb) /p" "$1"; }
[ "$(section "$tmp/evf" "events --from 0 --peer 2" |
     grep -cE '^ *0 +[0-9]+  MPI_Recv +2 +7 ')" = 3 ] &&
    [ "$(section "$tmp/evf" "events --from 0 --peer 2" |
         grep -cE '^ *[0-9]+ +[0-9]+  MPI_')" = 3 ] &&
    ok "events --peer 2: the 3 receives that matched rank 2" ||
    { fail "events --peer 2"; show "$tmp/evf"; }
[ "$(section "$tmp/evf" "events --from 0 --count 2 --call recv" |
     grep -cE '^ *0 +[0-9]+  MPI_Recv ')" = 2 ] &&
    ok "events --count 2 --call recv: 2 receives (count after the filter)" ||
    { fail "events --count after the filter"; show "$tmp/evf"; }
batch evr jac 0 -k -- "events --from 0 --call reduce" \
    "events --from 0 --call 'Re*'"
[ "$(grep -cE '^ *0 +[0-9]+  MPI_Reduce ' "$tmp/evr")" = 2 ] &&
    [ "$(rc evr)" = 0 ] &&
    ok "events --call reduce, --call Re*: case-insensitive, MPI_ optional, wildcards" ||
    { fail "events --call reduce"; show "$tmp/evr"; show "$tmp/evr.err" 5; }

# ---- set, help set, x/FMT
batch set jac 0-3 -- "break jacobi.c:$line" continue "set groups 2" \
    "print rank" "set var rank = rank" "@2 x/1dw &rank" "help set"
[ "$(grep -cE '^\[[0-3]\] \$1 = [0-3]$' "$tmp/set")" = 2 ] &&
    grep -qxF "... and 2 more distinct answers from 2 ranks ('expand' shows each rank's)" "$tmp/set" &&
    ok "set groups 2: two groups shown" || { fail "set groups 2"; show "$tmp/set"; }
grep -A1 '^(drdb) set var rank = rank$' "$tmp/set" | grep -q '^(drdb) @2 x' &&
    ok "set var prints nothing" || { fail "set var output"; show "$tmp/set"; }
grep -Eq '^\[2\] 0x[0-9a-f]+:[[:space:]]+2$' "$tmp/set" &&
    ok "x/1dw ADDRESS as in GDB" || { fail "x/1dw"; show "$tmp/set"; }
for opt in "merge on|off" "prefix on|off" "timing on|off" "output-color on|off" "groups N" \
    "width N" "timeout MS" "checkpoint-interval S|off" "checkpoint-every N|off"; do
    grep -A2 '^(drdb) help set$' "$tmp/set" | grep -qF -- "$opt" ||
        { fail "help set: no '$opt'"; show "$tmp/set" 5; break; }
done
[ "$opt" = "checkpoint-every N|off" ] && ok "help set lists every option"
batch badset jac 0 -- "set prefix nonsense"
[ "$(rc badset)" = 1 ] && ok "set prefix nonsense is an error" ||
    fail "set prefix nonsense: exit $(rc badset)"
batch help jac 0 -- help
grep -q "kill @1" "$tmp/help" && grep -q "print rank @0" "$tmp/help" &&
    ok "help: the rank-set rule with leading and trailing @SET" ||
    { fail "help: the rank-set rule"; show "$tmp/help" 8; }

echo "1..$n"
exit $status
