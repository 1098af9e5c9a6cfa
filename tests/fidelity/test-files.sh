#!/bin/sh
# Files (issue 16, class 9; docs/replaying.md, "Files"): inputs captured
# with `drdb record --capture-inputs` and served by the replay on a
# "machine" without them (the inputs moved away, the replay in another
# working directory); outputs redirected, never over the recorded run's;
# rank 0's standard input recorded and replayed. Each program prints what
# it read, so equal output per rank means the rank saw the same files.
# Security: a link planted in the run directory under a content's name is
# not followed; captured files and the recorded stdin are mode 0600.
#
# usage: test-files.sh DRDB MPIEXEC PARAM REWRITE OUTPUT STDIN [PARAM-F]
# (PARAM-F: the Fortran program, when mpif90 built it)
set -u
drdb=$(realpath "$1") mpiexec=$2 param=$(realpath "$3")
rewrite=$(realpath "$4") output=$(realpath "$5") stdin_prog=$(realpath "$6")
param_f=${7:+$(realpath "$7")}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
np=4

# record NAME PROG [RECORD-OPTIONS...]: records PROG at $np ranks in
# $tmp/NAME.w (the working directory, made by the caller) into
# $tmp/NAME.w/run, each rank's stdout in $tmp/NAME.rec.R.
record() {
    _name=$1 _prog=$2
    shift 2
    if ! (cd "$tmp/$_name.w" && timeout 120 "$drdb" record "$@" -o run -- \
            "$mpiexec" -n $np -outfile-pattern "$tmp/$_name.rec.%r" "$_prog" \
            > "$tmp/$_name.rec.log" 2>&1 < /dev/null); then
        fail "$_name: recording failed"
        sed 's/^/# /' "$tmp/$_name.rec.log" | tail -10
        return 1
    fi
}

# replay NAME TAG [OPTIONS...]: every rank of NAME's run replayed alone,
# its stdout in $tmp/NAME.TAG.R; then each compared with the recording.
replay() {
    _name=$1 _tag=$2
    shift 2
    timeout 120 "$drdb" replay --ranks "0-$((np - 1))" \
        --outfile-pattern "$tmp/$_name.$_tag.%r" "$@" "$tmp/$_name.w/run" \
        > /dev/null 2> "$tmp/$_name.$_tag.err" < /dev/null
    _rc=$?
    _same=0 _r=0
    while [ $_r -lt $np ]; do
        if ! cmp -s "$tmp/$_name.rec.$_r" "$tmp/$_name.$_tag.$_r"; then
            echo "# $_name rank $_r: the replay ($_tag) differs:"
            diff "$tmp/$_name.rec.$_r" "$tmp/$_name.$_tag.$_r" 2>&1 |
                head -8 | sed 's/^/#   /'
            _same=1
        fi
        _r=$((_r + 1))
    done
    if [ $_rc = 0 ] && [ $_same = 0 ]; then
        ok "$_name: $np ranks replayed alone, output identical ($_tag)"
    else
        fail "$_name: replay ($_tag) exited $_rc or differs"
        sed 's/^/# /' "$tmp/$_name.$_tag.err" | tail -8
    fi
}

# sums DIR: the checksum of every file under DIR but its run directory.
sums() {
    (cd "$1" && find . -path ./run -prune -o -type f -print | LC_ALL=C sort |
        xargs md5sum)
}

# ---- inputs: a parameter file, a mesh in a subdirectory (a link) ---------
mkdir -p "$tmp/param.w/mesh" "$tmp/elsewhere" "$tmp/param.other"
printf 'cavity 8 0.5\n' > "$tmp/param.w/params.txt"
seq 1 40 > "$tmp/elsewhere/grid-v1.dat"
ln -s "$tmp/elsewhere/grid-v1.dat" "$tmp/param.w/mesh/grid.dat"
# A link planted under the parameter file's content name, where the
# recorder stores it, by the launcher (a shell) before the ranks start.
hash=$(sha256sum < "$tmp/param.w/params.txt" | cut -d' ' -f1)
echo "precious" > "$tmp/victim"
cat > "$tmp/plant.sh" <<EOF
#!/bin/sh
mkdir -p -m 700 run/inputs && ln -s "$tmp/victim" "run/inputs/$hash" && exec "\$@"
EOF
chmod +x "$tmp/plant.sh"
if (cd "$tmp/param.w" && timeout 120 "$drdb" record --capture-inputs -o run \
        -- "$tmp/plant.sh" "$mpiexec" -n $np \
        -outfile-pattern "$tmp/param.rec.%r" "$param" \
        > "$tmp/param.rec.log" 2>&1 < /dev/null); then
    store=$tmp/param.w/run/inputs
    if [ "$(cat "$tmp/victim")" = precious ] && [ -f "$store/$hash" ] &&
       [ ! -L "$store/$hash" ] && cmp -s "$store/$hash" "$tmp/param.w/params.txt"
    then
        ok "param: a link planted at a capture's name is replaced, not followed"
    else
        fail "param: the planted link was followed or kept"
        ls -la "$store" | sed 's/^/# /'
    fi
    # once per content: two inputs, four ranks
    nstored=$(find "$store" -type f ! -name 'rank-*' | wc -l)
    modes=$(find "$store" -type f ! -perm 600 | wc -l)
    if [ "$nstored" = 2 ] && [ "$modes" = 0 ] &&
       [ "$(stat -c %a "$store")" = 700 ] && [ -s "$store/rank-3.index" ]; then
        ok "param: 2 inputs stored once each for $np ranks, files 0600 in a 0700 directory"
    else
        fail "param: $nstored files stored, $modes not 0600"
        ls -la "$store" | sed 's/^/# /'
    fi
    if grep -q "$tmp/param.w/mesh/grid.dat\$" "$store/rank-0.index" &&
       cmp -s "$store/$(sha256sum < "$tmp/elsewhere/grid-v1.dat" | cut -d' ' -f1)" \
           "$tmp/elsewhere/grid-v1.dat"; then
        ok "param: the mesh, opened through a link, is captured under its name"
    else
        fail "param: the mesh is not in the index"
        sed 's/^/# /' "$store/rank-0.index"
    fi
    # The inputs gone, another working directory: the captured copies.
    mv "$tmp/param.w/params.txt" "$tmp/param.w/mesh" "$tmp/elsewhere/grid-v1.dat" "$tmp/param.other/"
    replay param moved --cwd "$tmp/param.other"
else
    fail "param: recording failed"
    sed 's/^/# /' "$tmp/param.rec.log" | tail -10
fi

# ---- a file rewritten between two reads ----------------------------------
mkdir -p "$tmp/rewrite.w" "$tmp/rewrite.other"
if record rewrite "$rewrite" --capture-inputs; then
    # ranks 1-3 captured both versions; rank 0 wrote the file: not captured
    if [ "$(wc -l < "$tmp/rewrite.w/run/inputs/rank-1.index")" = 2 ] &&
       [ ! -s "$tmp/rewrite.w/run/inputs/rank-0.index" ]; then
        ok "rewrite: each version captured for the readers, none for the writer"
    else
        fail "rewrite: unexpected index"
        sed 's/^/# /' "$tmp/rewrite.w/run/inputs/"*.index
    fi
    mv "$tmp/rewrite.w/shared.txt" "$tmp/rewrite.other/"
    replay rewrite moved --cwd "$tmp/rewrite.other"
fi

# ---- outputs: written, read back, appended, changed, renamed, removed ----
mkdir -p "$tmp/output.w"
echo "old history" > "$tmp/output.w/history.log"
r=0
while [ $r -lt $np ]; do echo "state of $r" > "$tmp/output.w/state-$r.txt"; r=$((r + 1)); done
if record output "$output" --capture-inputs; then
    sums "$tmp/output.w" > "$tmp/output.before"
    # In the recorded working directory itself: the dangerous case.
    replay output here
    sums "$tmp/output.w" > "$tmp/output.after"
    if cmp -s "$tmp/output.before" "$tmp/output.after"; then
        ok "output: the recorded run's files are byte-identical after the replay"
    else
        fail "output: the replay changed the recorded run's files"
        diff "$tmp/output.before" "$tmp/output.after" | sed 's/^/# /'
    fi
    out=$tmp/output.w/run/replay-out
    good=0 r=0
    while [ $r -lt $np ]; do
        for f in result-$r.txt state-$r.txt results-$r/moved.txt history.log; do
            cmp -s "$tmp/output.w/$f" "$out/rank-$r/cwd/$f" && continue
            # history.log: every rank appended to the one file; a rank's
            # replay holds what it saw plus its own line
            [ "$f" = history.log ] &&
                grep -qx "run by rank $r" "$out/rank-$r/cwd/$f" && continue
            echo "# rank $r: $f"; good=1
        done
        [ -e "$out/rank-$r/cwd/scratch-$r.tmp" ] && { echo "# scratch-$r.tmp left"; good=1; }
        r=$((r + 1))
    done
    if [ $good = 0 ]; then
        ok "output: the replay's files are in RUNDIR/replay-out/rank-R/cwd, as the recorded run wrote them"
    else
        fail "output: the replay's files are not where docs/replaying.md says"
        find "$out" | sed 's/^/# /'
    fi
    # A second replay starts from an empty directory of its own.
    replay output again
    # --write-in-place: the program's own paths (a copy of the directory).
    cp -a "$tmp/output.w" "$tmp/inplace.w"
    rm -f "$tmp/inplace.w/result-1.txt"
    "$drdb" replay --rank 1 --write-in-place --cwd "$tmp/inplace.w" \
        "$tmp/output.w/run" > /dev/null 2> "$tmp/inplace.err" < /dev/null
    if [ -f "$tmp/inplace.w/result-1.txt" ]; then
        ok "output: --write-in-place writes where the program says"
    else
        fail "output: --write-in-place"
        sed 's/^/# /' "$tmp/inplace.err"
    fi
fi

# ---- Fortran I/O: an input read, an output written and read back ---------
if [ -n "$param_f" ]; then
    mkdir -p "$tmp/fortran.w" "$tmp/fortran.other"
    printf 'cavity 8 0.5\n' > "$tmp/fortran.w/params.txt"
    if record fortran "$param_f" --capture-inputs; then
        sums "$tmp/fortran.w" > "$tmp/fortran.before"
        mv "$tmp/fortran.w/params.txt" "$tmp/fortran.other/"
        replay fortran moved --cwd "$tmp/fortran.other"
        mv "$tmp/fortran.other/params.txt" "$tmp/fortran.w/"
        sums "$tmp/fortran.w" > "$tmp/fortran.after"
        if cmp -s "$tmp/fortran.before" "$tmp/fortran.after" &&
           cmp -s "$tmp/fortran.w/fresult-2.txt" \
               "$tmp/fortran.w/run/replay-out/rank-2/cwd/fresult-2.txt"; then
            ok "fortran: the recorded results untouched, the replay's in replay-out"
        else
            fail "fortran: results overwritten or misplaced"
            find "$tmp/fortran.w" "$tmp/fortran.other" | sed 's/^/# /'
        fi
    fi
fi

# ---- a standard input that stays open and gives nothing (a terminal the
# user types nothing into): drdb record ends with the run, not with its
# input (the stdin recorder once held the exec-report pipe open: drdb
# waited for a Ctrl-D the run long over)
mkdir -p "$tmp/open.w"
mkfifo "$tmp/open.in"
sleep 300 > "$tmp/open.in" &
holder=$!
if (cd "$tmp/open.w" && timeout 60 "$drdb" record -o run -- "$mpiexec" \
        -n 2 "$output" > "$tmp/open.log" 2>&1 < "$tmp/open.in") &&
   grep -q "^drdb: recorded run: " "$tmp/open.log"; then
    ok "stdin left open: drdb record ends with the run"
else
    fail "stdin left open: drdb record did not end with the run"
    sed 's/^/# /' "$tmp/open.log" | tail -5
fi
kill $holder 2> /dev/null

# ---- rank 0's standard input ---------------------------------------------
mkdir -p "$tmp/stdin.w"
printf 'title cavity\nsteps 12\ndt 0.25\n' > "$tmp/deck"
if (cd "$tmp/stdin.w" && timeout 120 "$drdb" record -o run -- "$mpiexec" \
        -n $np -outfile-pattern "$tmp/stdin.rec.%r" "$stdin_prog" \
        > "$tmp/stdin.rec.log" 2>&1 < "$tmp/deck"); then
    if grep -q "steps 12" "$tmp/stdin.rec.0" &&
       cmp -s "$tmp/deck" "$tmp/stdin.w/run/stdin" &&
       [ "$(stat -c %a "$tmp/stdin.w/run/stdin")" = 600 ]; then
        ok "stdin: rank 0 read the deck; RUNDIR/stdin holds it, mode 0600"
    else
        fail "stdin: the deck did not reach rank 0 or was not recorded"
        sed 's/^/# /' "$tmp/stdin.rec.0" "$tmp/stdin.rec.log" | tail -8
    fi
    # the replay's own stdin is /dev/null: rank 0 gets the recorded deck
    replay stdin recorded
    printf 'steps 3\ndt 1\n' > "$tmp/deck2"
    "$drdb" replay --rank 0 --stdin "$tmp/deck2" "$tmp/stdin.w/run" \
        > "$tmp/stdin.other" 2> "$tmp/stdin.other.err" < /dev/null
    if grep -q "steps 3" "$tmp/stdin.other"; then
        ok "stdin: --stdin FILE replaces the recorded one"
    else
        fail "stdin: --stdin FILE"
        sed 's/^/# /' "$tmp/stdin.other" "$tmp/stdin.other.err" | tail -5
    fi
else
    fail "stdin: recording failed"
    sed 's/^/# /' "$tmp/stdin.rec.log" | tail -10
fi

echo "1..$n"
exit $status
