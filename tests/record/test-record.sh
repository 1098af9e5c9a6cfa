#!/bin/sh
# drdb record on the examples: the logs say what the programs did.
# usage: test-record.sh DRDB MPIEXEC ANYSOURCE JACOBI
set -u
drdb=$(realpath "$1") mpiexec=$2 anysource=$(realpath "$3") jacobi=$(realpath "$4")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
# dump RUN RANK: events as "function peer tag bytes", header skipped.
dump() { "$drdb" log dump "$1" --rank "$2" | awk 'NR > 1 && !/^--/ { print $2, $3, $4, $7 }'; }

# --- anysource: rank 0's receives, in the order the program printed them.
"$drdb" record -o any -- "$mpiexec" -n 4 "$anysource" 5 > any.out 2> any.err
check "record anysource exits 0" '[ $? = 0 ]'
check "run directory is private (0700)" '[ "$(stat -c %a any)" = 700 ]'
check "logs are private (0600)" '[ "$(stat -c %a any/rank-0.log any/rank-3.log | sort -u)" = 600 ]'
check "summary names the run directory" 'grep -q "recorded run: .*/any" any.err'
dump any 0 | awk '$1 == "MPI_Recv"' > recvs
check "rank 0 logged 15 MPI_Recv" '[ "$(wc -l < recvs)" = 15 ]'
# Arrival order from the program's output vs matched sources in the log.
sed -n 's/^message [0-9]*: from rank \([0-9]*\),.*/\1/p' any.out > printed
awk '{ print $2 }' recvs > logged
check "logged sources match the printed arrival order" 'cmp -s printed logged'
check "each receive logged its 8 data bytes" '[ "$(awk "{ print \$4 }" recvs | sort -u)" = 8 ]'
check "senders logged 5 MPI_Send to 0, tag 7, no data" \
    '[ "$(dump any 2 | awk "\$1 == \"MPI_Send\"" | sort -u)" = "MPI_Send 0 7 0" ] &&
     [ "$(dump any 2 | grep -c MPI_Send)" = 5 ]'
check "every log is complete" '"$drdb" log info any > info && [ "$(grep -c " complete$" info)" = 4 ]'
check "first and last events are MPI_Init and MPI_Finalize" \
    '[ "$(dump any 1 | head -1 | cut -d" " -f1)" = MPI_Init ] &&
     [ "$(dump any 1 | tail -1 | cut -d" " -f1)" = MPI_Finalize ]'

# --- jacobi: 6 iterations of 2 Irecv, 2 Isend, Waitall, Allreduce.
"$drdb" record -o jac -- "$mpiexec" -n 4 "$jacobi" 40 6 > jac.out 2> jac.err
check "record jacobi exits 0" '[ $? = 0 ]'
check "jacobi output is unchanged by recording" \
    '"$mpiexec" -n 4 "$jacobi" 40 6 | cmp -s - jac.out'
for r in 0 1 3; do
    dump jac $r > jac$r
    check "rank $r: 6 Waitall and 6 Allreduce" \
        '[ "$(grep -c ^MPI_Waitall jac$r)" = 6 ] && [ "$(grep -c ^MPI_Allreduce jac$r)" = 6 ]'
done
# A middle rank gets 2 halo rows of 40 doubles per iteration, an edge rank 1.
check "rank 1 Waitall logged 640 bytes (2 rows x 40 doubles)" \
    '[ "$(awk "/^MPI_Waitall/ { print \$4 }" jac1 | sort -u)" = 640 ]'
check "rank 3 Waitall logged 320 bytes (1 row)" \
    '[ "$(awk "/^MPI_Waitall/ { print \$4 }" jac3 | sort -u)" = 320 ]'
check "Allreduce logged its 8-byte result" \
    '[ "$(awk "/^MPI_Allreduce/ { print \$4 }" jac0 | sort -u)" = 8 ]'
check "only rank 0 logged the Reduce result" \
    '[ "$(awk "/^MPI_Reduce/ { print \$4 }" jac0)" = 8 ] && [ "$(awk "/^MPI_Reduce/ { print \$4 }" jac1)" = 0 ]'

# --- --ranks: only the chosen ranks are recorded.
"$drdb" record -o some --ranks 1,3 -- "$mpiexec" -n 4 "$jacobi" 40 2 > /dev/null 2>&1
check "--ranks 1,3 records ranks 1 and 3 only" \
    '[ -f some/rank-1.log ] && [ -f some/rank-3.log ] && [ ! -f some/rank-0.log ] && [ ! -f some/rank-2.log ]'

# --- --send-data: sends carry their data too.
"$drdb" record -o sd --send-data -- "$mpiexec" -n 4 "$anysource" 2 > /dev/null 2>&1
check "--send-data logs each send's 8 bytes" \
    '[ "$(dump sd 2 | awk "\$1 == \"MPI_Send\" { print \$4 }" | sort -u)" = 8 ]'

# --- compression: by default message data is compressed once the ranks have
# exited; --no-compress leaves it. Both read the same (the reader inflates).
"$drdb" record -o jz -- "$mpiexec" -n 4 "$jacobi" 400 4 > jz.out 2> jz.err
"$drdb" record -o jr --no-compress -- "$mpiexec" -n 4 "$jacobi" 400 4 > jr.out 2> jr.err
check "the default compresses the logs and says so" \
    'grep -q "^drdb: compressed message data: " jz.err && ! grep -q "compressed" jr.err'
check "a compressed log is smaller" \
    '[ "$(stat -c %s jz/rank-1.log)" -lt "$(stat -c %s jr/rank-1.log)" ]'
check "compressed logs stay private (0600)" '[ "$(stat -c %a jz/rank-1.log)" = 600 ]'
check "compressed and plain logs hold the same events and data sizes" \
    'dump jz 1 > jz.dump && dump jr 1 > jr.dump && [ -s jz.dump ] && cmp -s jz.dump jr.dump'

# --- -o creates missing parent directories.
"$drdb" record -o deep/er/run -- "$mpiexec" -n 2 "$anysource" 1 > /dev/null 2>&1
check "-o creates parent directories" '[ -f deep/er/run/drdb.run ] && [ "$(stat -c %a deep/er/run)" = 700 ]'

# --- bad input: clear errors, nothing overwritten.
"$drdb" record -o any -- "$mpiexec" -n 4 "$anysource" > /dev/null 2> again.err
check "an existing run is not overwritten" '[ $? != 0 ] && grep -q "already holds a recorded run" again.err'
"$drdb" record --ranks 1-x -- true 2> ranks.err
check "a bad --ranks is refused" '[ $? != 0 ] && grep -q "not a rank list" ranks.err'
"$drdb" log dump any --rank 9 2> r9.err
check "dump of a rank that does not exist says so" '[ $? != 0 ] && grep -q "no rank 9: the run has ranks 0-3" r9.err'
"$drdb" log info "$tmp" 2> notrun.err
check "a directory that is not a run says so" '[ $? != 0 ] && grep -q "not a drdb run directory" notrun.err'

echo "1..$n"
exit $status
