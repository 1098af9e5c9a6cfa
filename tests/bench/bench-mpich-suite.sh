#!/bin/sh
# MPICH's own test suite (test/mpi) through drdb: each test instance of
# the testlists (name, ranks, arguments) that passes natively at np <= NP
# ("No Errors", exit 0, within the time limit) is recorded under mpiexec,
# then every rank is replayed alone; an instance replays when every rank's
# replay exits 0 with the recorded rank's output. Prints the pass rate per
# directory, then the failures with the first line of their reason.
#
# The tests come from Debian's source package of the installed MPICH
# (never committed): unless --src names an unpacked source tree, the
# script adds a deb-src entry for the archive the system already uses
# (/etc/apt/sources.list.d/drdb-mpich-src.list, or .sources), runs
# apt-get source mpich into WORK, and configures test/mpi against
# mpicc.mpich. Needs the network for that step, and root for apt.
#
# usage: bench-mpich-suite.sh DRDB [options]
#   --src DIR        an unpacked MPICH source tree (its test/mpi is used)
#   --work DIR       where the source and the runs go (default
#                    /var/tmp/drdb-mpich-suite)
#   --dirs "A B"     test/mpi directories, each with the directories its
#                    testlist names (default: the top testlist's, which
#                    configure fills with the languages built, and
#                    threads)
#   --np N           the most ranks an instance may use (default 4)
#   --limit S        seconds an instance may take natively (default 60);
#                    the replay of a rank gets 4 times as long
#   --max K          at most K instances (a quick look)
# Ctrl-C stops it; what ran is summed up.
set -u
usage() { sed -n '2,/^set -u/s/^# \{0,1\}//p' "$0" | sed '$d'; }
[ "${1:-}" = --help ] || [ "${1:-}" = -h ] && { usage; exit 0; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
drdb=$(realpath "$1")
shift
src="" work=/var/tmp/drdb-mpich-suite dirs="" npmax=4 limit=60 max=0
while [ $# -gt 0 ]; do
    case $1 in
        --src) src=$(realpath "$2"); shift 2 ;;
        --work) work=$2; shift 2 ;;
        --dirs) dirs=$2; shift 2 ;;
        --np) npmax=$2; shift 2 ;;
        --limit) limit=$2; shift 2 ;;
        --max) max=$2; shift 2 ;;
        *) echo "bench-mpich-suite: unknown option '$1' (--help)" >&2; exit 2 ;;
    esac
done
mpiexec=$(command -v mpiexec.mpich) ||
    { echo "bench-mpich-suite: no mpiexec.mpich (apt-get install mpich)" >&2; exit 2; }
mkdir -p "$work" || exit 2

# ---- the source --------------------------------------------------------
fetch() {
    [ "$(id -u)" = 0 ] || { echo "bench-mpich-suite: apt-get source needs root, or give --src DIR" >&2; exit 2; }
    # A deb-src twin of each deb entry the system uses.
    own=/etc/apt/sources.list.d/drdb-mpich-src.sources
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && [ "$f" != "$own" ] || continue
        sed -n 's/^Types: *deb$/Types: deb-src/p; /^Types:/!p' "$f"
        echo
    done > "$own.new" && mv "$own.new" "$own"
    if [ -f /etc/apt/sources.list ]; then
        sed -n 's/^deb /deb-src /p' /etc/apt/sources.list \
            > /etc/apt/sources.list.d/drdb-mpich-src.list
    fi
    apt-get update -q > "$work/apt.log" 2>&1 &&
        (cd "$work" && apt-get source -q mpich >> "$work/apt.log" 2>&1) ||
        { echo "bench-mpich-suite: apt-get source mpich failed: see $work/apt.log" >&2; exit 2; }
    src=$(ls -d "$work"/mpich-*/ | head -1)
}
[ -n "$src" ] || fetch
tm=$src/test/mpi
[ -f "$tm/testlist" ] || [ -f "$tm/testlist.in" ] ||
    { echo "bench-mpich-suite: '$tm' has no testlist: not an MPICH source tree" >&2; exit 2; }
if [ ! -f "$tm/Makefile" ]; then
    echo "configuring $tm (log: $work/configure.log)" >&2
    (cd "$tm" && ./configure CC=mpicc.mpich CXX=mpicxx.mpich F77=mpif77.mpich \
        FC=mpif90.mpich MPIEXEC="$mpiexec" --disable-spawn \
        > "$work/configure.log" 2>&1) ||
        { echo "bench-mpich-suite: configure failed: see $work/configure.log" >&2; exit 2; }
fi
[ -n "$dirs" ] || dirs="$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$tm/testlist" |
    awk '{ print $1 }' | tr '\n' ' ') threads"
# DIR and the directories its testlist names, nested ones too (f77/attr).
expand() (
    echo "$1"
    [ -f "$tm/$1/testlist" ] || exit 0
    sed -e 's/#.*//' "$tm/$1/testlist" | awk 'NF { print $1 }' |
        while read -r n; do
            [ -d "$tm/$1/$n" ] && expand "$1/$n"
        done
)
dirs=$(for d in $dirs; do expand "$d"; done | tr '\n' ' ')

# ---- one instance ----------------------------------------------------
runs=$work/runs
mkdir -p "$runs"
results=$work/results
: > "$results"
trap 'echo; echo "interrupted"; summary; exit 130' INT
# result DIR NAME NP VERDICT REASON: one line of $results.
result() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }
# instance DIR NAME NP ARGS ENV: natively, recorded, each rank replayed.
instance() {
    d=$1 name=$2 np=$3 args=$4 envs=$5
    id=$(echo "$d-$name-$np-$args" | tr -c 'A-Za-z0-9._-' '_')
    out=$runs/$id
    rm -rf "$out" && mkdir -p "$out"
    if ! make -C "$tm/$d" "$name" > "$out/make.log" 2>&1; then
        result "$d" "$name" "$np" skip "does not build"; return
    fi
    exe=$tm/$d/$name
    # shellcheck disable=SC2086
    # (natively: no library path of drdb's, whose stub is a libmpich)
    (cd "$tm/$d" && env -u LD_LIBRARY_PATH -u LD_PRELOAD $envs \
        timeout "$limit" "$mpiexec" -n "$np" "$exe" $args) > "$out/native" 2>&1
    if [ $? != 0 ] || ! grep -q 'No Errors' "$out/native"; then
        result "$d" "$name" "$np" skip "fails natively"; return
    fi
    # shellcheck disable=SC2086
    (cd "$tm/$d" && env $envs timeout $((limit * 4)) "$drdb" record \
        -o "$out/run" -- "$mpiexec" -n "$np" -outfile-pattern "$out/rec.%r" \
        "$exe" $args) > "$out/record" 2>&1
    if [ $? != 0 ] || ! cat "$out"/rec.* | grep -q 'No Errors'; then
        result "$d" "$name" "$np" fail "record: $(grep -m1 -v '^drdb: \(recording\|logs\|compressed\)' "$out/record")"
        return
    fi
    r=0
    while [ "$r" -lt "$np" ]; do
        # shellcheck disable=SC2086
        (cd "$tm/$d" && env $envs timeout $((limit * 4)) "$drdb" replay \
            --rank "$r" "$out/run") > "$out/rep.$r" 2> "$out/rep.$r.err"
        rc=$?
        [ -f "$out/rec.$r" ] || : > "$out/rec.$r"
        if [ $rc != 0 ] || ! cmp -s "$out/rec.$r" "$out/rep.$r"; then
            why=$(grep -m1 'drdb' "$out/rep.$r.err")
            [ $rc = 124 ] && why="timed out after $((limit * 4)) s"
            [ -z "$why" ] && why="exit $rc, output differs"
            result "$d" "$name" "$np" fail "rank $r: $why"
            return
        fi
        r=$((r + 1))
    done
    result "$d" "$name" "$np" pass ""
    rm -rf "$out/run"
}

summary() {
    echo
    printf '%-12s %8s %8s %8s\n' directory replayed of rate
    awk -F '\t' '$4 != "skip" { n[$1]++; if ($4 == "pass") p[$1]++; tn++;
                               if ($4 == "pass") tp++ }
        END { for (d in n) printf "%-12s %8d %8d %7.1f%%\n", d, p[d], n[d], 100 * p[d] / n[d];
              if (tn) printf "%-12s %8d %8d %7.1f%%\n", "all", tp, tn, 100 * tp / tn }' \
        "$results" | sort
    echo
    echo "natively failing or not built (not counted): $(awk -F '\t' '$4 == "skip"' "$results" | wc -l)"
    echo "failures:"
    awk -F '\t' '$4 == "fail" { printf "  %s/%s np %s: %s\n", $1, $2, $3, $5 }' "$results"
}

# ---- the testlists ---------------------------------------------------
count=0
for d in $dirs; do
    list=$tm/$d/testlist
    [ -f "$list" ] || continue
    while read -r name np rest; do
        case $name in ''|'#'*) continue ;; esac
        [ -d "$tm/$d/$name" ] && continue # a nested directory's own list
        case $np in ''|*[!0-9]*) continue ;; esac
        [ "$np" -le "$npmax" ] || continue
        args="" envs="" skip=0
        for kv in $rest; do
            case $kv in
                arg=*) args="$args ${kv#arg=}" ;;
                env=*) envs="$envs ${kv#env=}" ;;
                xfail=*|resultTest=*) skip=1 ;;
            esac
        done
        [ $skip = 1 ] && continue
        count=$((count + 1))
        [ "$max" != 0 ] && [ "$count" -gt "$max" ] && break 2
        echo "[$count] $d/$name np $np$args" >&2
        instance "$d" "$name" "$np" "$args" "$envs" < /dev/null
    done < "$list"
done
summary
