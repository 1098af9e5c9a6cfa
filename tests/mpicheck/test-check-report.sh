#!/bin/sh
# drdb check's reports on the findings of err.* on err-ignored-bad.c
# (test-check-err.sh says why they are what they are): the human report
# grouped by check with counts, each site's call; --json read with jq;
# --sarif checked with jq against SARIF 2.1.0's required properties; exit
# status with and without --werror; bad usage and unreadable runs (2); a
# run missing a rank (the checks say so and still report the others).
# Each site's source line (from the recorded return address and the
# program's DWARF) is the line of its call in BAD's source SRC.
# Notes about several ranks alike are one line naming them.
# usage: test-check-report.sh DRDB MPIEXEC BAD OK SRC CRASH
set -u
drdb=$(realpath "$1") mpiexec=$2 bad=$(realpath "$3") good=$(realpath "$4")
src=$5 crash=$(realpath "$6")
# line TEXT: the line of SRC that holds TEXT
line() { grep -nF "$1" "$src" | head -1 | cut -d: -f1; }
l_type=$(line 'MPI_Type_contiguous(n, MPI_INT, &pair);')
l_used=$(line 'MPI_Send(v, 1, pair, 0, 1, MPI_COMM_WORLD);')
l_send=$(line 'MPI_Send(v, 1, MPI_INT, size, 0, MPI_COMM_WORLD);')
lib=$(realpath "$(dirname "$0")/../lib.sh")
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$lib"
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }

rec() {
    _name=$1
    shift
    if "$drdb" record -o "$_name" "$@" > "$_name.out" 2> "$_name.err"; then
        ok "record $_name"
    else
        fail "record $_name"; sed 's/^/# /' "$_name.err"
    fi
}
rec bad -- "$mpiexec" -n 2 "$bad"
rec good -- "$mpiexec" -n 2 "$good"
# rank 0 only: rank 1 has no log
rec half --ranks 0 -- "$mpiexec" -n 2 "$bad"
# tests/progs/crash at 4 ranks, rank 1 crashing (SIGSEGV): mpiexec ends
# the others, no log reaches MPI_Finalize
"$drdb" record -o crashed -- "$mpiexec" -n 4 "$crash" segv > crashed.out 2>&1

# dc NAME ARGS...: drdb check ARGS into NAME, NAME.err, NAME.rc
dc() {
    _name=$1
    shift
    "$drdb" check "$@" > "$_name" 2> "$_name.err"
    echo $? > "$_name.rc"
}

# ---- human
dc human --checks 'err.*' bad
has "human: a group per check with its count" human \
    "== err.output-used (error): 1 finding ==" \
    "== err.ignored (warning): 1 finding =="
hasre "human: each site's call with its arguments by name and its source line" human \
    "^        MPI_Type_contiguous(count=-1, oldtype=MPI_INT) = error $(grep -o 'error 0x[0-9a-f]* (class 2)' human | head -1 | cut -d' ' -f2)  at /.*/err-ignored-bad.c:$l_type (in main)\$" \
    "^        MPI_Send(count=1, datatype=MPI_INT, dest=2, tag=0, comm=MPI_COMM_WORLD) = error $(grep -o 'error 0x[0-9a-f]* (class 6)' human | head -1 | cut -d' ' -f2)  at /.*/err-ignored-bad.c:$l_send (in main)\$"
hasre "human: the used output's call and line" human \
    "^        MPI_Send(count=1, datatype=0x[0-9a-f]*, dest=0, tag=1, comm=MPI_COMM_WORLD)  at /.*/err-ignored-bad.c:$l_used (in main)\$"
# groups in table order (output-used first), the site under its finding
check "human: order" "awk '/^== err.output-used/ {a=NR} /^== err.ignored/ {b=NR} /^    1:6 failed here/ {c=NR} END {exit !(a && a < c && c < b)}' human"
has "human: total and counts" human \
    "total: 2 findings; 3 checks selected, 2 with findings" \
    "1 errors, 1 warnings, 0 portability"
check "human: exit 1 (an error)" "[ \$(cat human.rc) = 1 ]"

# ---- exit status and --werror
dc ign --checks err.ignored bad
check "a warning only: exit 0" "[ \$(cat ign.rc) = 0 ]"
dc ignw --checks err.ignored --werror bad
check "a warning with --werror: exit 1" "[ \$(cat ignw.rc) = 1 ]"
dc okw --checks 'err.*' --werror good
check "no finding with --werror: exit 0" "[ \$(cat okw.rc) = 0 ]"

# ---- JSON
dc json --checks 'err.*' --json bad
check "json: one valid document" "jq -e . json > /dev/null"
check "json: counts" "jq -e '.counts == {error: 1, warning: 1, portability: 0, total: 2}' json > /dev/null"
check "json: the checks that ran" "jq -e '[.checks[].name] == [\"err.fatal\", \"err.output-used\", \"err.ignored\"] and ([.checks[].findings] == [0, 1, 1])' json > /dev/null"
check "json: output-used finding and its sites" "jq -e '.findings[0] | .id == 1 and .check == \"err.output-used\" and .severity == \"error\" and ([.sites[] | [.rank, .event, .role, .function]] == [[1, 6, \"failed here\", \"MPI_Type_contiguous\"], [1, 7, \"used its output\", \"MPI_Send\"]])' json > /dev/null"
check "json: a site's call" "jq -e '.findings[1].sites[0].call | startswith(\"MPI_Send(count=1, datatype=MPI_INT, dest=2, tag=0, comm=MPI_COMM_WORLD) = error 0x\")' json > /dev/null"
check "json: complete, not interrupted" "jq -e '.complete == true and .interrupted == false and (.notes | length) == 0' json > /dev/null"
check "json: exit 1" "[ \$(cat json.rc) = 1 ]"

# ---- SARIF 2.1.0: the schema's required properties and enums
# (sarifLog: version, runs; run: tool; tool: driver; toolComponent: name;
# reportingDescriptor: id; result: message (text or id); level in none,
# note, warning, error; physicalLocation: artifactLocation or address;
# region.startLine >= 1; a related location's id >= 0)
dc sarif --checks 'err.*' --sarif bad
check "sarif: valid JSON" "jq -e . sarif > /dev/null"
check "sarif: sarifLog" "jq -e '.version == \"2.1.0\" and (.runs | type) == \"array\" and (.runs | length) == 1' sarif > /dev/null"
check "sarif: tool.driver with a rule per check" "jq -e '.runs[0].tool.driver | (.name | type) == \"string\" and ([.rules[].id] == [\"err.fatal\", \"err.output-used\", \"err.ignored\"]) and all(.rules[]; (.shortDescription.text | type) == \"string\") and ([.rules[].defaultConfiguration.level] == [\"error\", \"error\", \"warning\"])' sarif > /dev/null"
check "sarif: results" "jq -e '.runs[0] as \$r | (\$r.results | length) == 2 and all(\$r.results[]; (.message.text | type) == \"string\" and (.level | IN(\"none\", \"note\", \"warning\", \"error\")) and (.ruleId as \$id | [\$r.tool.driver.rules[].id] | index(\$id)) != null and (.locations | length) == 1)' sarif > /dev/null"
check "sarif: levels and rule indices" "jq -e '[.runs[0].results[] | [.ruleId, .level, .ruleIndex]] == [[\"err.output-used\", \"error\", 1], [\"err.ignored\", \"warning\", 2]]' sarif > /dev/null"
check "sarif: the other sites as related locations" "jq -e '.runs[0].results[0].relatedLocations | length == 1 and .[0].id >= 0 and (.[0].message.text | startswith(\"rank 1, event 7 (used its output): MPI_Send(\"))' sarif > /dev/null"
check "sarif: locations well-formed" "jq -e '[.runs[0].results[] | (.locations + .relatedLocations)[] | select(.physicalLocation) | .physicalLocation | (has(\"artifactLocation\") or has(\"address\")) and (if .region then .region.startLine >= 1 else true end)] | all' sarif > /dev/null"
check "sarif: the main site named" "jq -e '.runs[0].results[1].locations[0].message.text | startswith(\"rank 0, event 4 (failed here): MPI_Send(\")' sarif > /dev/null"
check "sarif: each result on its call's source line" "jq -e '[.runs[0].results[] | .locations[0].physicalLocation | [(.artifactLocation.uri | test(\"^file:///.*/err-ignored-bad[.]c\$\")), .region.startLine]] == [[true, $l_type], [true, $l_send]]' sarif > /dev/null"
check "sarif: the related location on its line" "jq -e '.runs[0].results[0].relatedLocations[0].physicalLocation.region.startLine == $l_used' sarif > /dev/null"
check "sarif: exit 1" "[ \$(cat sarif.rc) = 1 ]"

# ---- damaged logs: the checks that need what is lost say so, the others
# still report. Rank 1's log cut 40 bytes short (its last records), then
# one with a damaged record right after its header (nothing of it reads).
cp -a bad cut && sz=$(stat -c %s cut/rank-1.log) &&
    truncate -s $((sz - 40)) cut/rank-1.log
dc cuth cut
hasre "a cut log: the checks that need its end say so" cuth \
    "^note req.leak: rank 1's log does not reach MPI_Finalize" \
    "^note deadlock.cycle: rank 1: its log is cut short"
has "a cut log: the findings before the cut still reported" cuth \
    "    1:6 failed here" "    0:4 failed here"
cp -a bad bent && printf '\377\377\377\377' |
    dd of=bent/rank-1.log bs=1 seek=300 conv=notrunc 2> /dev/null
dc benth bent
hasre "a corrupt log: the checks say which rank and why" benth \
    "^note res.leak: rank 1's log does not reach MPI_Finalize (corrupt: "
has "a corrupt log: the other rank's finding still reported" benth \
    "    0:4 failed here"
# rank 0's send to rank 2 of 2 is an invalid rank (arg.invalid), an error
hasre "a corrupt log: the invalid argument still found" benth \
    "^error arg.invalid: MPI_Send: dest 2 is not a rank of the communicator"
check "a corrupt log: exit 1 (that error)" "[ \$(cat benth.rc) = 1 ]"

# ---- bad usage and unreadable runs: 2
dc u1 --checks 'nosuch.*' bad
dc u2 --json --sarif bad
dc u3 --frobnicate bad
dc u4
dc u5 bad good
for u in u1 u2 u3 u4 u5; do
    check "bad usage $u: exit 2" "[ \$(cat $u.rc) = 2 ]"
done
hasre "bad usage: the unknown check named" u1.err "nosuch"
dc r1 no-such-run
check "a run that does not exist: exit 2, said" "[ \$(cat r1.rc) = 2 ] && [ -s r1.err ]"
mkdir empty
dc r2 empty
check "a directory that is no run: exit 2" "[ \$(cat r2.rc) = 2 ]"

# ---- a rank without a log: its checks say so, rank 0's finding remains
dc halfh --checks 'err.*' half
hasre "missing rank: each err check says so" halfh \
    '^note err.output-used: rank 1 has no log' \
    '^note err.ignored: rank 1 has no log'
has "missing rank: rank 0's finding" halfh "    0:4 failed here"
check "missing rank: notes after the findings" "awk '/^note / {n=NR} /^    0:4 failed here/ {f=NR} END {exit !(f && n > f)}' halfh"
dc halfj --checks 'err.*' --json half
check "missing rank: notes in JSON" "jq -e '(.notes | length) == 2 and (.notes[0].message | startswith(\"rank 1 has no log\"))' halfj > /dev/null"
dc halfs --checks 'err.*' --sarif half
check "missing rank: notes in SARIF" "jq -e '[.runs[0].invocations[0].toolExecutionNotifications[] | .associatedRule.id] == [\"err.output-used\", \"err.ignored\"]' halfs > /dev/null"

# ---- the same note about several ranks is one line naming them: the four
# ranks of the crashed run, whose logs end before MPI_Finalize, give each
# of the checks that need the end one note, not four (the reason is the
# same for each: drdb log info says so)
"$drdb" log info crashed > crashed.info 2>&1
why=$(awk '$1 == "0" && /killed mid-run: / { sub(/.*killed mid-run: /, ""); print }' \
    crashed.info)
dc crashedh --checks 'req.leak,res.leak' crashed
has "logs cut alike: one note per check, naming the ranks" crashedh \
    "note req.leak: ranks 0-3: each rank's log does not reach MPI_Finalize (killed mid-run: $why): its pending requests are not leaks" \
    "note res.leak: ranks 0-3: each rank's log does not reach MPI_Finalize (killed mid-run: $why): its objects are not leaks"
check "logs cut alike: no note per rank" \
    "[ \$(grep -c '^note ' crashedh) = 2 ]"
dc crashedj --checks 'req.leak,res.leak' --json crashed
check "logs cut alike: JSON, a note per check with its ranks" \
    "jq -e '(.notes | length) == 2 and all(.notes[]; .ranks == [0, 1, 2, 3] and (.message | startswith(\"ranks 0-3: \")))' crashedj > /dev/null"
# one rank's note stays as it was: rank 1 without a log (run half)
check "a note about one rank: as before, its rank in JSON" \
    "jq -e '.notes[0].ranks == [1]' halfj > /dev/null"
echo "1..$n"
exit $status
