# tests/lib.sh - shell helpers shared by the test scripts (sourced).

# TAP: each script counts its checks in n and sets status=1 on a failure.
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; status=1; }
skip() { n=$((n + 1)); echo "ok $n - # SKIP $1"; }
# has NAME FILE LINE...: FILE holds each LINE exactly (as a whole line).
has() {
    _name=$1 _file=$2
    shift 2
    for _want in "$@"; do
        if ! grep -qxF -- "$_want" "$_file"; then
            fail "$_name: no line '$_want'"
            sed 's/^/#   /' "$_file" | tail -25
            return
        fi
    done
    ok "$_name"
}

# record_killed DRDB MPIEXEC CRASH NP RUN AT: records tests/progs/crash in
# 'sleep' mode at NP ranks into RUN (each rank's stdout in RUN.out.R), then
# SIGKILLs rank 1 once it says it sleeps (after AT iterations), as a rank
# killed mid-run. Returns 1 when rank 1 never said so (the job is ended).
record_killed() {
    _drdb=$1 _mpiexec=$2 _crash=$3 _np=$4 _run=$5 _at=$6
    "$_drdb" record -o "$_run" -- "$_mpiexec" -n "$_np" \
        -outfile-pattern "$_run.out.%r" "$_crash" sleep "$_at" \
        > "$_run.rec" 2>&1 &
    _job=$!
    _pid=
    for _ in $(seq 300); do
        _pid=$(sed -n 's/^rank 1: sleeping, pid \([0-9]*\)$/\1/p' \
            "$_run.out.1" 2>/dev/null)
        [ -n "$_pid" ] && break
        sleep 0.1
    done
    if [ -z "$_pid" ]; then
        kill "$_job" 2>/dev/null
        wait "$_job"
        return 1
    fi
    kill -KILL "$_pid"
    wait "$_job"
    return 0
}
