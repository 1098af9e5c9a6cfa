#!/bin/bash
# bench-check-corpus.sh - drdb check's recall and precision on the planted
# corpus (tests/mpicheck/corpus/CLASS/*.c and *.f90, written from the MPI
# standard: its README.md). Each program is compiled (Fortran with the
# mpif90 beside MPICC: mpicc.mpich -> mpif90.mpich, or $MPIF90), recorded
# under mpiexec (one whose header says hang=1 with drdb record --timeout),
# and checked with every check but race.* (drdb check --json). Per class:
#
#   recall (right kind)  erroneous programs with a finding of the class's
#                        checks (below), an error or a warning (a leak);
#   recall (any error)   erroneous programs with any error finding;
#   false alarms         correct programs with any error finding or a
#                        finding of the class's checks;
#   precision            right-kind flags / (right-kind flags + false
#                        alarms).
#
# Targets (issue 35): recall of the right kind >= 0.8 per class, precision
# >= 0.95 overall. Lists each miss and each false alarm.
# usage: bench-check-corpus.sh DRDB MPICC MPIEXEC CORPUS_DIR [CLASS...]
set -u
drdb=$1 mpicc=$2 mpiexec=$3 corpus=$4
shift 4
mpif90=${MPIF90:-${mpicc/cc/f90}}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
command -v jq > /dev/null || { echo "jq is needed" >&2; exit 1; }

# The checks whose findings are "of the right kind" for a class.
kind_of() {
    case $1 in
    arg) echo '^(arg\.|err\.fatal$|req\.used-after-free$)' ;;
    order) echo '^(order\.|req\.|res\.|err\.fatal$)' ;;
    coll) echo '^coll\.' ;;
    deadlock) echo '^deadlock\.' ;;
    rma) echo '^(rma\.|req\.|buf\.overlap$|err\.fatal$)' ;;
    type) echo '^(type\.|p2p\.|coll\.signature$)' ;;
    *) echo '^$' ;;
    esac
}

classes=("$@")
[ ${#classes[@]} -gt 0 ] || for d in "$corpus"/*/; do
    classes+=("$(basename "$d")")
done
: > "$tmp/results"
for cls in "${classes[@]}"; do
    for src in "$corpus/$cls"/*.c "$corpus/$cls"/*.f90; do
        [ -f "$src" ] || continue
        name=$(basename "$src")
        name=${name%.*}
        cc=$mpicc
        [ "${src##*.}" = f90 ] && cc=$mpif90
        head=$(head -n 1 "$src")
        expect=$(sed -n 's/.*expect=\([a-z]*\).*/\1/p' <<< "$head")
        np=$(sed -n 's/.* np=\([0-9]*\).*/\1/p' <<< "$head")
        hang=$(sed -n 's/.* hang=\([0-9]*\).*/\1/p' <<< "$head")
        exe=$tmp/$cls-$name
        # In $tmp: gfortran writes a module's .mod where it runs.
        if ! (cd "$tmp" && "$cc" -g -O0 -o "$exe" "$src") > "$tmp/cc.out" 2>&1
        then
            echo "$cls $name $expect compile-failed" >> "$tmp/results"
            continue
        fi
        run=$tmp/run-$cls-$name
        opts=()
        [ -n "$hang" ] && opts=(--timeout 6)
        timeout 120 "$drdb" record "${opts[@]}" -o "$run" -- \
            "$mpiexec" -n "${np:-2}" "$exe" > "$tmp/rec.out" 2>&1
        if [ ! -f "$run/drdb.run" ]; then
            echo "$cls $name $expect record-failed" >> "$tmp/results"
            continue
        fi
        timeout 120 "$drdb" check --json --checks 'all,-race.*' "$run" \
            > "$tmp/check.json" 2> "$tmp/check.err"
        errs=$(jq -r '.findings[] | select(.severity == "error") | .check' \
            "$tmp/check.json" 2>/dev/null | sort -u | tr '\n' ' ')
        kinds=$(jq -r '.findings[] | .check' "$tmp/check.json" \
            2>/dev/null | grep -E "$(kind_of "$cls")" | sort -u)
        right=$(printf '%s' "$kinds" | grep -c .)
        echo "$cls $name $expect ${right:-0} ${errs:--}" \
            "$(echo $kinds)" >> "$tmp/results"
        rm -rf "$run"
    done
done
awk '
    $4 ~ /failed/ { failed[$1]++; print "  (" $1 "/" $2 ": " $4 ")"; next }
    { cls[$1] = 1 }
    $3 == "bad" { bad[$1]++; if ($4 > 0) right[$1]++;
                  if (NF > 4 && $5 != "-") any[$1]++;
                  else if ($4 == 0) miss = miss "  miss " $1 "/" $2 "\n";
                  if ($4 == 0 && NF > 4 && $5 != "-")
                      wrong = wrong "  other kind " $1 "/" $2 ": " $5 "\n" }
    $3 == "ok" { ok[$1]++; if ($4 > 0 || (NF > 4 && $5 != "-")) {
                  fa[$1]++; alarms = alarms "  false alarm " $1 "/" $2 ": " \
                  substr($0, index($0, $5)) "\n" } }
    END {
        printf "%-9s %5s %5s %8s %8s %6s %9s\n", "class", "bad", "ok",
            "recall", "any-err", "false", "precision"
        for (c in cls) {
            tp += right[c]; fp += fa[c]; nb += bad[c]; nr += right[c]
            p = right[c] + fa[c] ? right[c] / (right[c] + fa[c]) : 1
            printf "%-9s %5d %5d %8.2f %8.2f %6d %9.2f\n", c, bad[c], ok[c],
                bad[c] ? right[c] / bad[c] : 0, bad[c] ? any[c] / bad[c] : 0,
                fa[c], p
        }
        printf "%-9s %5d %5s %8.2f %8s %6d %9.2f\n", "all", nb, "",
            nb ? nr / nb : 0, "", fp, tp + fp ? tp / (tp + fp) : 1
        printf "%s%s%s", miss, wrong, alarms
    }' "$tmp/results"
