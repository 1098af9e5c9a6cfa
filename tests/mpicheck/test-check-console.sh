#!/bin/sh
# The console's check (issue 19): `check err.*` lists err-ignored-bad's
# findings numbered; `goto finding 1` brings rank 1 (the one the finding
# involves) to its first site, the failed MPI_Type_contiguous (event 6),
# (goto says where it stops: that call's source line) and `where` shows
# it inside that call; rank 0 does not move; `goto finding 2` brings rank 0 to its failed MPI_Send (event
# 4); `info findings` lists them again. Events and lines come from the
# program's source (test-check-err.sh lists its events).
# usage: test-check-console.sh DRDB MPIEXEC BAD BAD_SOURCE CRASH CYCLE
#        CYCLE_SOURCE
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$(realpath "$1") mpiexec=$2 bad=$(realpath "$3") src=$4
crash=$(realpath "$5") cycle=$(realpath "$6") cycle_src=$7
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
n=0 status=0
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
# after NAME CMD: CMD's output in batch NAME
after() { batch_after "$1" "$2"; }

if "$drdb" record -o "$tmp/bad.run" -- "$mpiexec" -n 2 "$bad" \
        > "$tmp/rec.out" 2>&1; then
    ok "record"
else
    fail "record"; sed 's/^/# /' "$tmp/rec.out"
fi
contig=$(grep -n 'MPI_Type_contiguous(n, MPI_INT, &pair)' "$src" | cut -d: -f1)
send=$(grep -n 'MPI_Send(v, 1, MPI_INT, size, 0' "$src" | cut -d: -f1)

console_batch b "$tmp/bad.run" 0-1 -- \
    "info findings" \
    "check err.*" \
    "goto finding 1" \
    "where" \
    "goto finding 2" \
    "where" \
    "info findings" \
    "goto finding 3"
srcpaths "$tmp/b"

after b "info findings" > "$tmp/info0"
has "before check: no findings yet" "$tmp/info0" \
    "no findings yet: 'check' runs the checks"
after b "check err.*" > "$tmp/check"
hasre "check: numbered findings" "$tmp/check" \
    '^\[1\] error err.output-used: MPI_Type_contiguous returned error' \
    '^\[2\] warning err.ignored: MPI_Send returned error'
has "check: sites and counts" "$tmp/check" \
    "    1:6 failed here" "    1:7 used its output" "    0:4 failed here" \
    "1 errors, 1 warnings, 0 portability"
after b "goto finding 1" > "$tmp/g1"
has "goto finding 1: says which ranks it moves, and where they stop" \
    "$tmp/g1" "[1] to finding 1's events" \
    "[1] main () at SRC/tests/mpicheck/err-ignored-bad.c:$contig, before event 6 (MPI_Type_contiguous)"
check "goto finding 1: rank 0 not moved" "! grep -q '^\[0' $tmp/g1"
after b "where" > "$tmp/w1"
hasre "where after goto finding 1: rank 1 in the failed call" "$tmp/w1" \
    "^\[1\] #[0-9]*  \(0x[0-9a-f]* in \)\?main (.*) at SRC/tests/mpicheck/err-ignored-bad.c:$contig\$" \
    "^\[1\] .*PMPI_Type_contiguous ()"
check "where after goto finding 1: rank 0 in no MPI call" \
    "! grep -q '^\[0\].*PMPI' $tmp/w1"
after b "goto finding 2" > "$tmp/g2"
has "goto finding 2: rank 0 to its failed send" "$tmp/g2" \
    "[0] to finding 2's events" \
    "[0] main () at SRC/tests/mpicheck/err-ignored-bad.c:$send, before event 4 (MPI_Send)"
# the second 'where' (after goto finding 2): both where they were brought
awk -v c="(drdb) where" '$0 == c { k++; on = (k == 2); next }
    /^\(drdb\) / { on = 0 } on' "$tmp/b" > "$tmp/w2"
hasre "where after goto finding 2: rank 0 in its send, rank 1 stays" \
    "$tmp/w2" "^\[0\] .*PMPI_Send ()" "^\[1\] .*PMPI_Type_contiguous ()"
awk -v c="(drdb) info findings" '$0 == c { k++; on = (k == 2); next }
    /^\(drdb\) / { on = 0 } on' "$tmp/b" > "$tmp/info1"
hasre "info findings: lists them again" "$tmp/info1" \
    '^\[1\] error err.output-used' '^\[2\] warning err.ignored'
hasre "goto finding 3: no such finding" "$tmp/b.err" "no finding 3"
check "batch: fails on the bad goto" "[ \$(rc b) != 0 ]"

# rank 1 alone replayed: finding 2 (rank 0's) moves no one, and says why
console_batch c "$tmp/bad.run" 1 -- "check err.*" "goto finding 2"
has "a finding of a rank not replayed: not moved" "$tmp/c" \
    "[0] not moved: not replayed ('replay @R' starts a rank)"
hasre "a finding of a rank not replayed: an error" "$tmp/c.err" \
    "finding 2 involves no replayed rank"
# the command line's forms: --checks LIST (quoted as in a shell, or =),
# --list, --help (as 'help check')
console_batch d "$tmp/bad.run" 0 -- "check --checks 'err.*'" \
    "check --checks=err.output-used" "check --list" "check --help"
after d "check --checks 'err.*'" > "$tmp/d1"
hasre "check --checks 'err.*': the same findings as check err.*" "$tmp/d1" \
    '^\[1\] error err.output-used' '^\[2\] warning err.ignored'
after d "check --checks=err.output-used" > "$tmp/d2"
hasre "check --checks=NAME: that check only" "$tmp/d2" \
    '^\[1\] error err.output-used' '^1 errors, 0 warnings, 0 portability$'
after d "check --list" > "$tmp/d3"
hasre "check --list: every check, as drdb check --list" "$tmp/d3" \
    '^  p2p.type-mismatch  *error ' '^  race.any-source  *warning ' \
    '^  deadlock.unsafe-send  *portability '
after d "check --help" > "$tmp/d4"
hasre "check --help: its usage" "$tmp/d4" '^usage: \[@SET\] check '
check "batch d: every command succeeded" "[ \$(rc d) = 0 ]"

# @SET is heard: '@0 check' lists the findings involving rank 0 (finding
# 2, numbered as in the whole list); '@0 goto finding 1' (rank 1's)
# moves no one, '@1 goto finding 1' moves rank 1; '@1 info findings'
console_batch e "$tmp/bad.run" 0-1 -k -- "@0 check err.*" "@0 goto finding 1" \
    "@1 goto finding 1" "@1 info findings"
after e "@0 check err.*" > "$tmp/e1"
hasre "@0 check: rank 0's finding alone, with its number" "$tmp/e1" \
    '^\[2\] warning err.ignored: MPI_Send returned error' \
    '^1 of the 2 findings involve ranks 0$'
check "@0 check: not rank 1's finding" "! grep -q '^\[1\]' $tmp/e1"
after e "@0 goto finding 1" > "$tmp/e2"
has "@0 goto finding 1: rank 1 not moved, not in the set" "$tmp/e2" \
    "[1] not moved: not in the command's ranks ('@1 goto finding 1' moves them)"
hasre "@0 goto finding 1: an error" "$tmp/e.err" \
    "finding 1 involves no replayed rank of the command's"
after e "@1 goto finding 1" > "$tmp/e3"
has "@1 goto finding 1: rank 1 moved" "$tmp/e3" \
    "[1] to finding 1's events"
after e "@1 info findings" > "$tmp/e4"
hasre "@1 info findings: rank 1's" "$tmp/e4" \
    '^\[1\] error err.output-used' '^1 of the 2 findings involve ranks 1$'
check "@1 info findings: not rank 0's" "! grep -q '^\[2\]' $tmp/e4"

# notes about several ranks alike: one line naming them (the crash run
# recorded at 4 ranks, rank 1 crashing: no log reaches MPI_Finalize)
"$drdb" record -o "$tmp/crashed" -- "$mpiexec" -n 4 "$crash" segv \
    > "$tmp/crashed.out" 2>&1
console_batch f "$tmp/crashed" 0 -- "check req.leak"
after f "check req.leak" > "$tmp/f1"
hasre "check: one note for the four ranks" "$tmp/f1" \
    "^note req.leak: ranks 0-3: each rank's log does not reach MPI_Finalize (killed mid-run: .*): its pending requests are not leaks\$"
check "check: no note per rank" "[ \$(grep -c '^note ' $tmp/f1) = 1 ]"

# goto finding K of a hung run: its sites are the ends of the ranks' logs
# ("0:end blocked here"); the replayed ranks go there, into the call each
# never returned from (deadlock-recv-cycle-bad.c: both ranks in their
# MPI_Recv from the other, tag 5), instead of "involves no replayed rank"
timeout 120 "$drdb" record -o "$tmp/cycle" --timeout 3 -- "$mpiexec" -n 2 \
    "$cycle" > "$tmp/cycle.out" 2>&1
recvl=$(grep -n 'MPI_Recv(&in, 1, MPI_INT, 1 - rank, 5' "$cycle_src" |
    cut -d: -f1)
console_batch g "$tmp/cycle" 0-1 -- "check deadlock.*" "goto finding 1" \
    "backtrace" "print rank" "status"
srcpaths "$tmp/g"
after g "check deadlock.*" > "$tmp/g1"
has "a hung run: its finding's sites, the ends of the logs" "$tmp/g1" \
    "    0:end blocked here" "    1:end blocked here"
after g "goto finding 1" > "$tmp/g2"
has "goto finding 1 (ends of logs): both replayed ranks moved" "$tmp/g2" \
    "[0,1] to finding 1's events"
hasre "goto finding 1 (ends of logs): each in the call it never returned from" \
    "$tmp/g2" \
    "^\[0\] main () at SRC/tests/mpicheck/deadlock-recv-cycle-bad.c:$recvl, at the end of its log, in MPI_Recv(source 1, tag 5, MPI_COMM_WORLD)" \
    "^\[1\] main () at SRC/tests/mpicheck/deadlock-recv-cycle-bad.c:$recvl, at the end of its log, in MPI_Recv(source 0, tag 5, MPI_COMM_WORLD)"
check "goto finding 1 (ends of logs): no 'involves no replayed rank'" \
    "! grep -q 'involves no replayed rank' $tmp/g.err"
after g backtrace > "$tmp/g3"
hasre "goto finding 1 (ends of logs): the stacks in MPI_Recv" "$tmp/g3" \
    "PMPI_Recv ()"
has "goto finding 1 (ends of logs): the program's state there" "$tmp/g" \
    "[0] \$1 = 0" "[1] \$1 = 1"
check "goto finding 1 (ends of logs): the batch succeeds" "[ \$(rc g) = 0 ]"
# one rank replayed: the other is named as not replayed, nothing else
console_batch h "$tmp/cycle" 1 -- "check deadlock.*" "goto finding 1"
has "goto finding 1, rank 0 not replayed: said so, rank 1 moved" "$tmp/h" \
    "[0] not moved: not replayed ('replay @R' starts a rank)" \
    "[1] to finding 1's events"
echo "1..$n"
exit $status
