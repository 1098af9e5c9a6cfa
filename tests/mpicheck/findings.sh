# tests/mpicheck/findings.sh - what the test-check-AREA.sh scripts share
# (sourced after tests/lib.sh; needs $drdb, $mpiexec, $tmp).

# programs PROG...: the executables given, each found again by its name
# with path NAME.
programs() {
    for _p in "$@"; do
        eval "path_$(basename "$_p" | tr - _)=\$(realpath \"\$_p\")"
    done
}
path() { eval "echo \${path_$(echo "$1" | tr - _):-}"; }

# findings FILE: `drdb check`'s findings in FILE, one line each:
# "SEVERITY NAME R:N R:N ..." (the sites in order; the lines indented
# further under a site, its call and source line, skipped).
findings() {
    awk '/^(error|warning|portability) [a-z0-9]+[.][a-z0-9-]+: / {
             if (line != "") print line
             sub(/:$/, "", $2); line = $1 " " $2; next }
         /^    [0-9]+:([0-9]+|end) / { line = line " " $1; next }
         /^        / { next }
         { if (line != "") print line; line = "" }
         END { if (line != "") print line }' "$1"
}

# expect_findings NAME NP PATTERN [LINE...]: records program NAME at NP
# ranks (which may end with an error status when record_may_fail is set:
# a job MPI aborts; with record_hangs set, a job that hangs, stopped by
# drdb record --timeout 5), runs `drdb check --checks PATTERN` on it; one check, that its
# findings are exactly the LINEs ("SEVERITY NAME R:N ..."), in any order,
# after which it printed its count line and exited 1 when an error was
# found, 0 when none.
expect_findings() {
    _n=$1 _np=$2 _pat=$3
    shift 3
    _run=$tmp/$_n.run
    if ! timeout 120 "$drdb" record ${record_hangs:+--timeout 5} \
            -o "$_run" -- "$mpiexec" -n "$_np" \
            "$(path "$_n")" > "$tmp/$_n.rec" 2>&1 &&
        ! { [ -n "${record_may_fail:-}${record_hangs:-}" ] &&
            [ -f "$_run/drdb.run" ]; }; then
        fail "$_n: record"
        sed 's/^/#   /' "$tmp/$_n.rec" | tail -10
        return
    fi
    timeout 120 "$drdb" check --checks "$_pat" "$_run" > "$tmp/$_n.out" \
        2> "$tmp/$_n.err"
    _rc=$?
    _wantrc=0
    for _l in "$@"; do
        case $_l in error\ *) _wantrc=1 ;; esac
    done
    findings "$tmp/$_n.out" | sort > "$tmp/$_n.got"
    : > "$tmp/$_n.want"
    for _l in "$@"; do echo "$_l"; done | sort > "$tmp/$_n.want"
    if cmp -s "$tmp/$_n.got" "$tmp/$_n.want" && [ "$_rc" = "$_wantrc" ] &&
        tail -n 1 "$tmp/$_n.out" | grep -Eq '^[0-9]+ errors?, '; then
        ok "$_n: $_pat finds $# finding(s) as planted"
    else
        fail "$_n: $_pat findings (exit status $_rc, want $_wantrc)"
        diff "$tmp/$_n.want" "$tmp/$_n.got" | sed 's/^/#   /'
        sed 's/^/#   /' "$tmp/$_n.out" "$tmp/$_n.err" | tail -20
    fi
}
