#!/bin/bash
# bench-complete.sh - how long a tab completion takes in the console
# (issue 32, item 6; target: < 100 ms), on the bundled examples (jacobi,
# othello, anysource) and on a generated program of 4,000 functions and
# 4,000 global variables (and 8,000 names of each more in its DWARF).
# Each program's run is opened in a real terminal (tmux) twice: with rank
# 0 started (GDB's -complete, less the names that are not the program's)
# and with no rank started (--start lazy: the names of the program's ELF
# file). `set timing on` has the console say how long each completion
# took; the first of a session reads the program's ELF file and DWARF
# (and, with a rank, the libraries GDB lists): it is reported apart.
# usage: bench-complete.sh DRDB MPIEXEC MPICC JACOBI OTHELLO ANYSOURCE
set -u
drdb=$1 mpiexec=$2 mpicc=$3 jacobi=$4 othello=$5 anysource=$6
command -v tmux > /dev/null || { echo "tmux not installed" >&2; exit 1; }
tmp=$(mktemp -d)
sock=$tmp/tmux.sock
trap 'tmux -S "$sock" kill-server 2>/dev/null; sleep 0.5; rm -rf "$tmp"' EXIT

# The program of thousands of names.
{
    echo '#include <mpi.h>'
    echo '#include <stdio.h>'
    for i in $(seq -w 0 3999); do echo "int gvar_$i = 1$i;"; done
    for i in $(seq -w 0 3999); do
        echo "int func_$i(int x);"
        echo "int func_$i(int x) { int local_$i = x + gvar_$i; return local_$i; }"
    done
    echo 'int main(int argc, char **argv) {'
    echo '    int rank, s;'
    echo '    MPI_Init(&argc, &argv);'
    echo '    MPI_Comm_rank(MPI_COMM_WORLD, &rank);'
    echo '    s = func_0001(rank);'
    echo '    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);'
    echo '    printf("%d\n", s);'
    echo '    MPI_Finalize();'
    echo '    return 0;'
    echo '}'
} > "$tmp/big.c"
"$mpicc" -g -O0 -o "$tmp/bigprog" "$tmp/big.c" || exit 1

record() { # NAME NP PROGRAM ARGS...: a run in $tmp/NAME
    _name=$1 _np=$2
    shift 2
    "$drdb" record -o "$tmp/$_name" -- "$mpiexec" -n "$_np" "$@" \
        > "$tmp/$_name.out" 2>&1
    [ -f "$tmp/$_name/drdb.run" ] || { echo "recording $_name failed" >&2;
                                       cat "$tmp/$_name.out" >&2; exit 1; }
}
record jacobi 2 "$jacobi" 16 3
record othello 4 "$othello" # (exits 3 on the runs where its bug shows)
record anysource 4 "$anysource" 3
record big 1 "$tmp/bigprog"

screen() { tmux -S "$sock" capture-pane -p -S -3000 2>/dev/null; }
took() { screen | grep -c 'completion took'; }
# session RUN ARGS...: completions typed in a console on RUN, each line's
# time and count on stdout ("LINE<TAB>MS<TAB>FOUND")
session() {
    _run=$1
    shift
    tmux -S "$sock" kill-server 2>/dev/null
    sleep 0.5
    # (HOME its own, for the history; the key that signed the runs the
    # user's: docs/security.md)
    HOME=$tmp tmux -S "$sock" new-session -d -x 200 -y 50 \
        "HOME=$tmp XDG_CONFIG_HOME='${XDG_CONFIG_HOME:-$HOME/.config}' '$drdb' console $* '$tmp/$_run'; sleep 60"
    for _ in $(seq 600); do
        screen | grep -Eq '^\(drdb [0-9,-]+\) ?$' && break
        sleep 0.1
    done
    tmux -S "$sock" send-keys 'set timing on' Enter
    sleep 0.5
    while IFS= read -r _line; do
        _before=$(took)
        tmux -S "$sock" send-keys C-u "$_line" Tab
        _res="- -"
        for _ in $(seq 300); do
            if [ "$(took)" -gt "$_before" ]; then
                _res=$(screen | grep 'completion took' | tail -1 |
                    sed -E 's/.*took ([0-9.]+) ms \(([0-9]+) found.*/\1 \2/')
                break
            fi
            sleep 0.05
        done
        printf '%s\t%s\t%s\n' "$_line" "${_res% *}" "${_res#* }"
        tmux -S "$sock" send-keys C-u
    done
    tmux -S "$sock" send-keys C-u 'quit' Enter
    sleep 1
}

lines() { # PROGRAM: the completions typed
    printf '%s\n' 'break ma' 'print ' 'break ' 'list m' 'info br' 'set pri' \
        'print r' 'break r' 'x/4x &' 'ptype in' 'print $_' 'until-call MPI_'
    [ "$1" = big ] && printf '%s\n' 'print gvar_1' 'break func_2' 'print g' \
        'break f' 'print local_' 'list func_39'
    return 0
}

printf '%-10s %-6s %8s %8s %8s %8s  %s\n' program start first median max \
    completions "slowest (found)"
for p in jacobi othello anysource big; do
    for mode in main lazy; do
        lines "$p" | session "$p" --ranks 0 --start "$mode" > "$tmp/$p.$mode"
        sort -t"$(printf '\t')" -k2 -g "$tmp/$p.$mode" > "$tmp/sorted"
        first=$(head -1 "$tmp/$p.$mode" | cut -f2)
        tail -n +2 "$tmp/$p.$mode" | cut -f2 | sort -g > "$tmp/warm"
        nw=$(wc -l < "$tmp/warm")
        median=$(sed -n "$(( (nw + 1) / 2 ))p" "$tmp/warm")
        max=$(tail -1 "$tmp/warm")
        slow=$(tail -1 "$tmp/sorted" | awk -F'\t' '{print "\x27" $1 "\x27 " $2 " ms (" $3 ")"}')
        printf '%-10s %-6s %8s %8s %8s %8s  %s\n' "$p" "$mode" "$first" \
            "$median" "$max" "$(wc -l < "$tmp/$p.$mode")" "$slow"
        [ -n "${VERBOSE:-}" ] && sed 's/^/    /' "$tmp/$p.$mode"
    done
done
