#!/bin/sh
# The recorder logs exactly the data of irregular collectives (rec-colls.c):
# each rank's log holds, for every call that completed a case, the fields
# the program computed from its own buffers (packed DATA, attribute values),
# and nothing is left unlogged (no record is partial).
# usage: test-record-colls.sh DRDB MPIEXEC REC_COLLS LOG_FIELDS
set -u
drdb=$(realpath "$1") mpiexec=$2 prog=$(realpath "$3") fields=$(realpath "$4")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; return 1; fi; }

for np in 4 2; do
    run=$tmp/run$np
    timeout 120 "$drdb" record -o "$run" -- "$mpiexec" -n $np \
        -outfile-pattern "$tmp/out$np.%r" "$prog" > /dev/null 2> "$tmp/err$np"
    check "-n $np: recorded run exits 0" '[ $? = 0 ]' ||
        sed 's/^/# /' "$tmp/err$np" | tail -5
    check "-n $np: no FAIL from the program's own checks" \
        '! cat "$tmp/out$np".* | grep -q FAIL'
    r=0
    while [ $r -lt $np ]; do
        # What the program says the log must hold, in order...
        sed -n "s/^rank $r: expect //p" "$tmp/out$np.$r" > "$tmp/want$np.$r"
        # ...and what the log holds for those functions: DATA fields, and
        # for attribute getters the value (RAW, argument 2, element 1).
        fns=$(awk '{ print $1 }' "$tmp/want$np.$r" | sort -u | tr '\n' ' ')
        "$fields" "$run" $r 1,2 2> "$tmp/ferr" | awk -v fns=" $fns" '
            index(fns, " " $1 " ") {
                out = $1
                for (i = 2; i <= NF; i++)
                    if ($i ~ /^2\./ || (tolower($1) ~ /attr/ && $i ~ /^1\.2\.1=/))
                        out = out " " $i
                print out
            }' > "$tmp/got$np.$r"
        check "-n $np rank $r: $(wc -l < "$tmp/want$np.$r") completions log what the program received" \
            '[ -s "$tmp/want$np.$r" ] && [ ! -s "$tmp/ferr" ] &&
             cmp -s "$tmp/want$np.$r" "$tmp/got$np.$r"' ||
            diff "$tmp/want$np.$r" "$tmp/got$np.$r" | head -8 | sed 's/^/# /'
        "$drdb" log dump "$run" --rank $r > "$tmp/dump" 2>&1
        check "-n $np rank $r: no partial record" '! grep -q "(partial)" "$tmp/dump"' ||
            grep "(partial)" "$tmp/dump" | head -5 | sed 's/^/# /'
        r=$((r + 1))
    done
done
echo "1..$n"
exit $status
