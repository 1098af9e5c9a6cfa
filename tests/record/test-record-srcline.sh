#!/bin/sh
# Call sites: `drdb log event` names the source line of each MPI call
# (srcline.c, srcline.f90: the lines are found here by their "site:NAME"
# markers), the buffers of nonblocking calls at the addresses the program
# printed, and says so when the program was rebuilt or removed since the
# run instead of naming a wrong line.
# usage: test-record-srcline.sh DRDB MPIEXEC C_PROG C_SRC [F_PROG F_SRC]
set -u
drdb=$(realpath "$1") mpiexec=$2 cprog=$(realpath "$3") csrc=$(realpath "$4")
fprog=${5:-} fsrc=${6:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; return 1; fi; }

# record LANG PROG: records PROG (copied into $tmp, so it can be replaced
# after the run) on 2 ranks into $tmp/LANG-run.
record() {
    cp "$2" "$tmp/$1-prog"
    timeout 120 "$drdb" record -o "$tmp/$1-run" -- "$mpiexec" -n 2 \
        "$tmp/$1-prog" > "$tmp/$1-out" 2> "$tmp/$1-err"
    check "$1: recorded run exits 0" '[ $? = 0 ]' ||
        sed 's/^/# /' "$tmp/$1-err" | tail -5
}

# event LANG RANK FUNCTION: the number of RANK's first event of FUNCTION.
event() {
    "$drdb" log events "$tmp/$1-run" --rank "$2" --call "$3" |
        awk 'NR == 2 { print $2 }'
}

# site LANG RANK N: "FILE:LINE (FUNCTION)" of `drdb log event`'s called
# from line, the file's directory left out.
site() {
    "$drdb" log event "$tmp/$1-run" "$2:$3" |
        sed -n 's|^  called from \(.*/\)\{0,1\}\([^/]*:[0-9]* (.*)\)$|\2|p'
}

# sites LANG SRC MARKER:FUNCTION:PROCEDURE...: each call on its marker's
# line, on both ranks.
sites() {
    lang=$1 src=$2; shift 2
    for spec in "$@"; do
        marker=${spec%%:*} rest=${spec#*:}
        fn=${rest%%:*} proc=${rest#*:}
        line=$(grep -n "site:$marker\( \|\$\)" "$src" | cut -d: -f1)
        want="$(basename "$src"):$line ($proc)"
        for r in 0 1; do
            e=$(event "$lang" $r "$fn")
            got=$(site "$lang" $r "$e")
            check "$lang rank $r: $fn (event $e) called from $want" \
                '[ -n "$line" ] && [ "$got" = "$want" ]' ||
                echo "# got '$got'"
        done
    done
}

record c "$cprog"
sites c "$csrc" init:MPI_Init:main comm_rank:MPI_Comm_rank:main \
    irecv:MPI_Irecv:main isend:MPI_Isend:main waitall:MPI_Waitall:main \
    barrier:MPI_Barrier:srcline_barrier finalize:MPI_Finalize:main

# drdb log events --lines: the same line at the end of each row.
line=$(grep -n "site:isend " "$csrc" | cut -d: -f1)
got=$("$drdb" log events "$tmp/c-run" --rank 1 --call Isend --lines |
      sed -n '2s|.* at .*/||p')
check "log events --lines: MPI_Isend at srcline.c:$line (main)" \
    '[ "$got" = "srcline.c:$line (main)" ]' || echo "# got '$got'"

# The buffers: the addresses the program printed, COUNT x 8 bytes.
for r in 0 1; do
    for b in irecv:MPI_Irecv:64 isend:MPI_Isend:48; do
        name=${b%%:*} rest=${b#*:}
        fn=${rest%%:*} bytes=${rest#*:}
        addr=$(sed -n "s/^rank $r buffer $name //p" "$tmp/c-out")
        e=$(event c $r "$fn")
        got=$("$drdb" log event "$tmp/c-run" "$r:$e" |
              sed -n '/^  buffers$/,/^  [a-z]/s/^    buf  *//p')
        check "c rank $r: $fn's buffer is the program's $addr, $bytes bytes" \
            '[ -n "$addr" ] && [ "$got" = "$addr $bytes bytes" ]' ||
            echo "# got '$got'"
    done
done

# Another build at the program's path: its lines would be wrong.
e=$(event c 0 MPI_Isend)
cp "$drdb" "$tmp/c-prog"
got=$("$drdb" log event "$tmp/c-run" "0:$e" | grep '^  called from')
check "a rebuilt program is named, no line given" \
    'echo "$got" | grep -q "c-prog.* was rebuilt since the run" &&
     ! echo "$got" | grep -q "srcline.c:"' || echo "# got '$got'"
rm -f "$tmp/c-prog"
got=$("$drdb" log event "$tmp/c-run" "0:$e" | grep '^  called from')
check "a removed program is named missing" \
    'echo "$got" | grep -q "c-prog.* is missing"' || echo "# got '$got'"

if [ -n "$fprog" ]; then
    record f "$fprog"
    sites f "$fsrc" init:MPI_Init:srcline comm_rank:MPI_Comm_rank:srcline \
        irecv:MPI_Irecv:srcline isend:MPI_Isend:srcline \
        waitall:MPI_Waitall:srcline barrier:MPI_Barrier:srcline_barrier \
        finalize:MPI_Finalize:srcline
    # MPI_Comm_size, six times: from size_a and size_b in turn (one
    # binding; the recorder must not reuse the previous call's site).
    la=$(grep -n 'site:size_a' "$fsrc" | cut -d: -f1)
    lb=$(grep -n 'site:size_b' "$fsrc" | cut -d: -f1)
    for r in 0 1; do
        got=$("$drdb" log events "$tmp/f-run" --rank $r --call MPI_Comm_size |
            awk 'NR > 1 { print $2 }' | while read -r e; do
                site f $r "$e" | sed 's/ (.*//'
            done | tr '\n' ' ')
        want="srcline.f90:$la srcline.f90:$lb srcline.f90:$la srcline.f90:$lb srcline.f90:$la srcline.f90:$lb "
        check "f rank $r: MPI_Comm_size's 6 calls from lines $la and $lb in turn" \
            '[ -n "$la" ] && [ "$got" = "$want" ]' || echo "# got '$got'"
    done
else
    skip "Fortran: no mpif90"
fi
echo "1..$n"
exit $status
