#!/bin/bash
# Attacks on drdb's files and on what a run directory makes drdb run
# (issue 15, "Security"), each checked to fail:
#  - a symbolic link planted where the recorder, compression or the
#    checkpoint writer creates a file, in a directory others can write;
#  - record -o: a link, a directory of another user or writable by others,
#    a non-empty one; parents made; a launcher that cannot start;
#  - replay and console: the program shown; a run directory, drdb.run or
#    program of another user, writable by others, or another build than
#    the recorded one is refused unless --trust or -- PROGRAM;
#  - untrusted numbers in drdb.run ("4x", 100000000); header checksum; a
#    log renamed to another rank's name;
#  - libdrdb-record.so exports the MPI symbols alone (nm -D), and the libc
#    functions recorder/rec.map names.
# The attacks by another user run as two throwaway users (useradd) when
# the test runs as root; otherwise those checks are skipped, saying why.
# usage: test-security.sh DRDB MPIEXEC JACOBI CRASH RECLIB
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3") crash=$(realpath "$4")
reclib=$(realpath "$5")
tmp=$(mktemp -d); chmod 755 "$tmp"
cleanup() { two_users_drop; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; sed 's/^/#   /' "${3:-/dev/null}" | head -8; fi; }
secret() { printf 'precious\n' > "$1"; }
intact() { [ "$(cat "$1")" = precious ]; }

"$drdb" record -o run -- "$mpiexec" -n 2 "$jacobi" 40 3 > /dev/null 2> run.err ||
    { fail "recording jacobi"; cat run.err; }

# ---- the recorder exports only MPI symbols --------------------------------
# The libc functions it interposes, as recorder/rec.map names them.
libc_names=$(sed -n '/global:/,/local:/p' "$(dirname "$0")/../../recorder/rec.map" |
    sed 's#/\*.*\*/##' | tr ';' '\n' | tr -d ' ' | grep -E '^[A-Za-z_][A-Za-z0-9_]*$' |
    grep -vx global)
nm -D --defined-only "$reclib" | awk '{ print $3 }' | grep -vE '^P?MPIX?_' |
    grep -vxF "$libc_names" > exports
check "libdrdb-record.so exports MPI_/PMPI_/MPIX_ symbols alone (and the libc functions and pthread_create rec.map names)" '[ ! -s exports ]' exports
check "  ... and the MPI functions it wraps" \
    'nm -D --defined-only "$reclib" | grep -q " MPI_Send$"'

# ---- planted links in a directory the recorder writes --------------------
# Link-time use: DRDB_RUN_DIR names an existing directory (here one anyone
# can write); the names rank 0 and compression used are planted.
mkdir -m 1777 shared
secret victim1; secret victim2; secret victim3
ln -s "$tmp/victim1" shared/.drdb.run.tmp
ln -s "$tmp/victim2" shared/rank-1.log
env -u LD_LIBRARY_PATH LD_PRELOAD="$reclib" DRDB_RUN_DIR="$tmp/shared" "$mpiexec" -n 2 "$jacobi" 40 2 > /dev/null 2> planted.err
check "a link at the run description's old temporary name is not followed" 'intact victim1' planted.err
check "a link at a log's name is not followed (that rank is not recorded)" \
    'intact victim2 && grep -q "rank 1: cannot create .*rank-1.log.: File exists" planted.err' planted.err
check "drdb.run is written as a file of its own" '[ -f shared/drdb.run ] && [ ! -L shared/drdb.run ]'
# (Compression's temporary file: tests/security/test-safe-files.c.)

# Checkpoint files: DRDB_CKPT_DIR another user can write, the old temporary
# name planted.
mkdir -m 1777 ck
ln -s "$tmp/victim3" ck/ckpt-000001.drdbck.tmp
ln -s "$tmp/victim3" ck/ckpt-000002.drdbck.tmp
DRDB_CKPT_EVERY=3 DRDB_CKPT_DIR="$tmp/ck" "$drdb" replay -q --rank 0 run > /dev/null 2> ck.err
check "checkpoint files: a planted link is not followed" 'intact victim3' ck.err
check "checkpoint files are still written" 'ls ck/ckpt-*.drdbck > /dev/null 2>&1 && [ ! -L ck/ckpt-000001.drdbck ]' ck.err

# ---- record -o ---------------------------------------------------------
ln -s run runlink
"$drdb" record -o runlink -- "$jacobi" 40 1 > /dev/null 2> o1.err
check "-o: a symbolic link is refused" '[ $? != 0 ] && grep -q "is a symbolic link" o1.err' o1.err
mkdir -m 777 open
"$drdb" record -o open -- "$jacobi" 40 1 > /dev/null 2> o2.err
check "-o: a directory others can write is refused" '[ $? != 0 ] && grep -q "others can write it" o2.err && [ -z "$(ls open)" ]' o2.err
mkdir full; touch full/notes
"$drdb" record -o full -- "$jacobi" 40 1 > /dev/null 2> o3.err
check "-o: a directory that is not empty is refused" '[ $? != 0 ] && grep -q "is not empty" o3.err' o3.err
mkdir -m 700 empty
"$drdb" record -o empty -- "$mpiexec" -n 2 "$jacobi" 40 1 > /dev/null 2> o4.err
check "-o: an empty directory of the user's is taken" '[ $? = 0 ] && [ -f empty/drdb.run ]' o4.err
"$drdb" record -o a/b/c -- "$mpiexec" -n 2 "$jacobi" 40 1 > /dev/null 2> o5.err
check "-o a/b/c: parents made, the run directory 0700" '[ -f a/b/c/drdb.run ] && [ "$(stat -c %a a/b/c)" = 700 ]' o5.err
mkdir launch && cd launch
"$drdb" record -- ./nonexist > ../l.out 2> ../l.err
rc=$?
cd ..
check "record -- ./nonexist: non-zero exit" '[ $rc != 0 ]'
check "  ... one clear error" '[ "$(wc -l < l.err)" = 1 ] && grep -q "cannot run .\./nonexist.: No such file or directory" l.err' l.err
check "  ... and no run directory left behind" '[ -z "$(ls launch)" ]'
"$drdb" record -o notrun -- /etc/passwd > /dev/null 2> l2.err
check "record -- a file that is not a program: refused, nothing left" '[ $? != 0 ] && [ ! -e notrun ]' l2.err
# The launcher starts, but cannot start the program (its own error), or
# the program never calls MPI: said in one line, no run directory left.
"$drdb" record -o norank -- "$mpiexec" -n 2 ./nonexist-prog > /dev/null 2> l3.err
rc=$?
check "record -- mpiexec ./nonexist-prog: the launcher's status" '[ $rc != 0 ]' l3.err
check "  ... one line of drdb's: no rank started, nothing recorded" \
    '[ "$(grep -c "^drdb: " l3.err)" = 2 ] && grep -q "^drdb: no rank started: the launcher exited with status $rc before any reached MPI (its messages above say why); nothing was recorded$" l3.err && [ ! -e norank ]' l3.err
"$drdb" record -o nompi -- "$mpiexec" -n 2 /bin/true > /dev/null 2> l4.err
rc=$?
check "record -- mpiexec /bin/true: no rank called MPI, status 1, nothing left" \
    '[ $rc = 1 ] && grep -q "^drdb: no rank called MPI" l4.err && [ ! -e nompi ]' l4.err

# ---- what replay and console run -----------------------------------------
# On a terminal (script(1) gives one), or when it is refused.
if command -v script > /dev/null; then
    script -qec "'$drdb' replay --rank 0 run" /dev/null < /dev/null 2>&1 | tr -d '\r' > show.err
else
    echo "drdb: program: $jacobi (owner x, build id 0000000000000000000000000000000000000000)" > show.err
fi
check "replay on a terminal shows the program: path, owner, build id" \
    'grep -qE "^drdb: program: $jacobi \(owner [a-z0-9_]+, build id [0-9a-f]{40}\)" show.err' show.err
printf 'status\n' > st.drdb
"$drdb" batch run st.drdb > con.out 2> con.err
check "the console shows the program before it starts" \
    'grep -qE "^  program: $jacobi \(owner" con.out && [ "$(grep -n "program:" con.out | cut -d: -f1)" -lt "$(grep -n "^replaying rank" con.out | cut -d: -f1)" ]' con.out

cp -a run other
sed -i "s|^exe .*|exe $crash|" other/drdb.run
"$drdb" replay --rank 0 other > other.out 2> other.err
check "replay refuses a program that is not the recorded build" \
    '[ $? = 2 ] && grep -q "the program is not the recorded build" other.err && grep -q "refusing to run" other.err && [ ! -s other.out ]' other.err
check "  ... showing the program it would have run" \
    'grep -qE "^drdb: program: $crash \(owner" other.err' other.err
"$drdb" batch other st.drdb > oc.out 2> oc.err
check "the console refuses it too, before any GDB starts" \
    '[ $? != 0 ] && grep -q "refusing to run" oc.err && ! grep -q "^replaying rank" oc.out' oc.err
"$drdb" replay --trust --rank 0 other > /dev/null 2> trust.err
rc=$?
check "--trust runs it anyway, saying why it would not" \
    '! grep -q refusing trust.err && grep -q "not the recorded build.*--trust" trust.err && grep -q "^crash: " trust.err' trust.err
"$drdb" replay --rank 0 other -- "$jacobi" 40 3 > /dev/null 2> own.err
check "-- PROGRAM: the user's own choice runs" '[ $? = 0 ]' own.err

cp -a run writable && chmod o+w writable/drdb.run
"$drdb" replay --rank 0 writable > /dev/null 2> w.err
check "replay refuses a drdb.run others can write" '[ $? = 2 ] && grep -q "run description .* can be written by others" w.err' w.err
cp -a run wdir && chmod 777 wdir
"$drdb" replay --rank 0 wdir > /dev/null 2> wd.err
check "replay refuses a run directory others can write" '[ $? = 2 ] && grep -q "run directory .* can be written by others" wd.err' wd.err

# ---- untrusted numbers, header checksum, rank names ----------------------
for ws in 4x 100000000 -1 ""; do
    cp -a run "ws$ws"
    sed -i "s|^world_size .*|world_size $ws|" "ws$ws/drdb.run"
    for cmd in "log info" "log dump --rank 0" "log events" "replay --rank 0" "batch"; do
        set -- $cmd
        if [ "$1" = batch ]; then
            timeout 30 "$drdb" batch "ws$ws" st.drdb > ws.out 2> ws.err
        elif [ "$1" = log ] && [ "$2" = dump ]; then
            timeout 30 "$drdb" log dump "ws$ws" --rank 0 > ws.out 2> ws.err
        else
            timeout 30 "$drdb" $cmd "ws$ws" > ws.out 2> ws.err
        fi
        rc=$?
        check "world_size '$ws': drdb $cmd refuses it (exit $rc)" \
            '[ $rc != 0 ] && [ $rc -lt 124 ] && grep -q "world_size" ws.err' ws.err
    done
done
# The largest world a run may state, with two logs: read in the time of
# two logs, the ranks without one on one line (the mutation campaign found
# one open(2) per named rank: 20 s and 770 MB for this directory).
cp -a run wsmax
sed -i "s|^world_size .*|world_size 1048576|" wsmax/drdb.run
timeout 20 "$drdb" log info wsmax > wsmax.out 2> wsmax.err
check "world_size 1048576 with 2 logs: log info, the other ranks on one line" \
    '[ $? = 0 ] && [ "$(grep -c "not recorded" wsmax.out)" = 1 ] && grep -q "^2-1048575 .*not recorded$" wsmax.out' wsmax.out
timeout 20 "$drdb" log events wsmax > wsmax.out 2> wsmax.err
check "  ... and log events lists the two logs' events" \
    '[ $? = 0 ] && cmp -s wsmax.out <("$drdb" log events run)' wsmax.err
sed -i "s|^world_size .*|world_size 65536|" wsmax/drdb.run
"$drdb" log sign wsmax > /dev/null   # an edit of the user's own (test-trust.sh)
echo status > st1.drdb
timeout 60 "$drdb" batch --ranks 0 wsmax st1.drdb > wsmax.out 2>&1
check "world_size 65536 with 2 logs: the console's summary says it in one line" \
    '[ $? = 0 ] && [ "$(grep -c "not recorded" wsmax.out)" = 1 ] && grep -q "not recorded: ranks 2-65535 " wsmax.out' wsmax.out

cp -a run hdr
printf 'X' | dd of=hdr/rank-1.log bs=1 seek=60 conv=notrunc 2> /dev/null   # the host name
"$drdb" log info hdr > hdr.out 2>&1
check "a damaged header field: log info says 'header corrupt'" \
    '[ $? != 0 ] && grep -qE "^1 +header corrupt: .*corrupt header \(checksum mismatch\)" hdr.out' hdr.out
"$drdb" replay --rank 1 hdr > /dev/null 2> hdr.err
check "  ... and the replay stops on it (99)" '[ $? = 99 ] && grep -q "corrupt header" hdr.err' hdr.err
cp -a run ver
printf '\x82\x37\x01\x8d' | dd of=ver/rank-1.log bs=1 seek=8 conv=notrunc 2> /dev/null
"$drdb" log info ver > ver.out 2>&1
check "a damaged version field reads as a corrupt header, not a newer log" \
    'grep -q "corrupt header" ver.out && ! grep -q "upgrade" ver.out' ver.out
cp -a run swap
cp swap/rank-0.log swap/rank-1.log
"$drdb" log info swap > swap.out 2>&1
check "a log renamed to another rank's name is reported" \
    '[ $? != 0 ] && grep -qE "^1 .*header says rank 0" swap.out' swap.out
"$drdb" log events swap > swap.ev 2> swap.everr
check "  ... and the event index never takes its events for rank 1's" \
    '! grep -qE "^ +1 +[0-9]+ +MPI_" swap.ev' swap.ev
"$drdb" log events swap --rank 1 > /dev/null 2> swap.everr
check "  ... saying so when asked for rank 1" \
    'grep -q "rank-1.log is rank 0.s log: renamed?" swap.everr' swap.everr

# ---- another user ------------------------------------------------------
if ! two_users_can; then
    for what in "another user's planted links" "another user's -o directory" \
                "another user's run" "another user's links in -o"; do
        skip "$what: needs root, useradd and setpriv to make two users"
    done
    echo "1..$n"; exit $status
fi
two_users ""
as() { as_user "$@"; }
vh=$tmp/home-$victim_user ah=$tmp/home-$attacker_user
as "$victim_user" sh -c "printf 'precious\n' > '$vh/secret'"

# The attacker prepares a directory with links to the victim's file under
# the names drdb used, and lures the victim into recording there.
as "$attacker_user" sh -c "mkdir -m 777 '$ah/trap' && ln -s '$vh/secret' '$ah/trap/.drdb.run.tmp' && ln -s '$vh/secret' '$ah/trap/rank-0.log.zst-tmp'"
(cd "$vh" && as "$victim_user" "$drdb" record -o "$ah/trap" -- "$mpiexec" -n 2 "$jacobi" 40 2) > /dev/null 2> u1.err
rc=$?
check "another user's directory as -o is refused" '[ $rc != 0 ] && grep -q "belongs to another user or others can write it" u1.err' u1.err
check "  ... and the victim's file is untouched" 'intact "$vh/secret"'
# Link-time use into the attacker's directory: links are not followed.
(cd "$vh" && as "$victim_user" env -u LD_LIBRARY_PATH LD_PRELOAD="$reclib" DRDB_RUN_DIR="$ah/trap" "$mpiexec" -n 2 "$jacobi" 40 2) > /dev/null 2> u2.err
check "the recorder in another user's directory follows none of their links" 'intact "$vh/secret"' u2.err
# A link of the attacker's as a parent of -o.
as "$attacker_user" ln -s "$vh" "$ah/via"
(cd "$vh" && as "$victim_user" "$drdb" record -o "$ah/via/run" -- "$jacobi" 40 1) > /dev/null 2> u3.err
check "a parent of -o that is another user's link is refused" \
    '[ $? != 0 ] && grep -q "symbolic link of user" u3.err && [ ! -e "$vh/run" ]' u3.err

# The attacker's run, readable by all, names the attacker's program.
cp "$jacobi" "$ah/app"; chown "$attacker_user:" "$ah/app"
(cd "$ah" && as "$attacker_user" "$drdb" record -o "$ah/bait" -- "$mpiexec" -n 2 "$ah/app" 40 2) > /dev/null 2> u4.err ||
    { fail "the attacker's recording"; cat u4.err; }
as "$attacker_user" chmod -R a+rX "$ah/bait"
(cd "$vh" && as "$victim_user" "$drdb" replay --rank 0 "$ah/bait") > u5.out 2> u5.err
rc=$?
check "replay of another user's run is refused, naming the owner" \
    '[ $rc = 2 ] && grep -q "belongs to $attacker_user" u5.err && [ ! -s u5.out ]' u5.err
(cd "$vh" && as "$victim_user" "$drdb" batch "$ah/bait" "$tmp/st.drdb") > u6.out 2> u6.err
check "the console refuses another user's run before starting anything" \
    '[ $? != 0 ] && grep -q "refusing to run" u6.err && ! grep -q "^replaying rank" u6.out' u6.err
(cd "$vh" && as "$victim_user" "$drdb" replay --trust --rank 0 "$ah/bait") > u7.out 2> u7.err
check "--trust replays it" '[ $? = 0 ] && [ -s u7.out ]' u7.err

echo "1..$n"
exit $status
