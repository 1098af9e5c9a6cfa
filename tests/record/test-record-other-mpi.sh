#!/bin/sh
# A program of another MPI than MPICH, and another MPI's launcher: drdb's
# recorder and stub speak MPICH's ABI, so the recorder would crash such a
# program in MPI_Init (it calls Open MPI's functions with MPICH's handles)
# and its replay would run that MPI. drdb record, replay and batch refuse
# it before anything runs, in one line naming the library (or the
# launcher) and what to do. Open MPI is not installed here: OMPI_APP is
# linked against a fake libmpi.so.40 (other-mpi/fake-ompi.c), VIA_LIB
# needs it only through a library of its own; Open MPI's mpiexec is a
# script that prints its --version banner.
# usage: test-record-other-mpi.sh DRDB MPIEXEC MPICH_PROG OMPI_APP VIA_LIB
set -u
. "$(dirname "$0")/../lib.sh"
drdb=$(realpath "$1") mpiexec=$2 mpich_prog=$(realpath "$3")
ompi_app=$(realpath "$4") via_lib=$(realpath "$5")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 status=0
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
unset LD_PRELOAD DRDB_RUN_DIR DRDB_REPLAY_DIR DRDB_REPLAY_RANK

# refused NAME STATUS FILE REGEX: drdb exited with status 1 (record) or 2
# (replay's refusal) and one line on stderr (FILE), matching REGEX.
refused() {
    if [ "$2" = 1 -o "$2" = 2 ] && [ "$(wc -l < "$3")" = 1 ] && grep -Eq "$4" "$3"; then
        ok "$1"
    else
        fail "$1 (status $2)"
        sed 's/^/# /' "$3"
    fi
}
ompi_line="^drdb: '[^']*ompi-app' is linked against Open MPI \(libmpi\.so\.40\): drdb records MPICH programs \(libmpich\.so\.12\); rebuild it with MPICH \(mpicc\.mpich\)$"

# --- the program alone (MPI's singleton init)
"$drdb" record -o alone -- "$ompi_app" > out 2> err
refused "record of an Open MPI program run alone" $? err "$ompi_line"
check "it did not run, no run directory" '[ ! -s out ] && [ ! -e alone ]'

# --- under MPICH's mpiexec: the program among the launcher's words
"$drdb" record -o hydra -- "$mpiexec" -n 2 "$ompi_app" > out 2> err
refused "record of an Open MPI program under MPICH's mpiexec" $? err \
    "$ompi_line"
check "it did not run, no run directory" '[ ! -s out ] && [ ! -e hydra ]'

# --- the MPI library needed through another library, as ld.so finds it
"$drdb" record -o vialib -- "$mpiexec" -n 2 "$via_lib" > out 2> err
refused "record of a program needing libmpi.so.40 through its library" $? \
    err "is linked against Open MPI \(libmpi\.so\.40, needed by [^)]*libfakelib\.so\): drdb records MPICH programs"
check "it did not run, no run directory" '[ ! -s out ] && [ ! -e vialib ]'

# --- Open MPI's mpiexec (Debian's alternatives) over an MPICH program
mkdir bin
cat > bin/mpiexec <<'SH'
#!/bin/sh
if [ "$1" = --version ]; then
    echo "mpiexec (OpenRTE) 4.1.4"
    echo
    echo "Report bugs to http://www.open-mpi.org/community/help/"
    exit 0
fi
echo "$@" > "$(dirname "$0")/../launched"
exit 0
SH
chmod +x bin/mpiexec
PATH=$tmp/bin:$PATH "$drdb" record -o orte -- mpiexec -n 2 "$mpich_prog" \
    > out 2> err
refused "record under Open MPI's mpiexec of an MPICH program" $? err \
    "^drdb: 'mpiexec' is Open MPI's launcher \(.*mpiexec --version: \"mpiexec \(OpenRTE\) 4\.1\.4\"\) but '[^']*p2p-blocking' is an MPICH program \(libmpich\.so\.12\): launch it with MPICH's: drdb record -- mpiexec\.mpich \.\.\.$"
check "the launcher did not run it, no run directory" \
    '[ ! -e launched ] && [ ! -e orte ]'

# --- MPICH's program under MPICH's mpiexec still records; its run
# replayed with the Open MPI program in its place is refused, by replay
# and by the console.
"$drdb" record -o good -- "$mpiexec" -n 2 "$mpich_prog" > out 2> err
rc=$?
check "an MPICH program under MPICH's mpiexec records" \
    '[ $rc = 0 ] && [ -s good/drdb.run ]' || sed 's/^/# /' err
"$drdb" replay --rank 0 good -- "$ompi_app" > out 2> err
refused "replay of the run with the Open MPI program" $? err \
    "^drdb: '[^']*ompi-app' is linked against Open MPI \(libmpi\.so\.40\): drdb replays MPICH programs"
check "it did not run" '[ ! -s out ]'
echo 'print 1' > script
"$drdb" batch good script -- "$ompi_app" > out 2> err
refused "batch of the run with the Open MPI program" $? err \
    "^drdb: '[^']*ompi-app' is linked against Open MPI \(libmpi\.so\.40\): drdb replays MPICH programs"
check "no rank started" '! grep -q "ompi-app ran" out'

echo "1..$n"
exit $status
