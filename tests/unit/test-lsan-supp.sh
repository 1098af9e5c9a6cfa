#!/bin/sh
# The sanitizer build's LeakSanitizer suppressions (tests/lsan.supp, which
# meson's default test setup gives every test through LSAN_OPTIONS): a
# leak inside a third-party library (a stand-in with hwloc's names, as
# MPICH's MPI_Init loads hwloc's plugins) is not reported, one in a
# program's own code still is; and no pattern of the file matches a name
# that drdb's programs and libraries define.
# usage: test-lsan-supp.sh SANITIZE LSAN_LEAK SUPP DRDB_BINARIES...
set -u
. "$(dirname "$0")/../lib.sh"
sanitize=$1 leak=$2 supp=$3
shift 3
n=0 status=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# --- the patterns against drdb's own names (any build)
bad=""
for bin in "$@"; do
    nm -D --defined-only "$bin" > /dev/null 2>&1 || bad="$bad ($bin: unreadable)"
done
for pat in $(sed -n 's/^leak://p' "$supp"); do
    for bin in "$@"; do
        nm -D --defined-only "$bin" 2>/dev/null | awk '{print $NF}' |
            grep -F -- "$pat" > "$tmp/hits"
        case $(basename "$bin") in *"$pat"*) echo "$bin" >> "$tmp/hits" ;; esac
        [ -s "$tmp/hits" ] && bad="$bad $pat ($(basename "$bin"): $(head -1 "$tmp/hits"))"
    done
done
if [ -z "$bad" ]; then
    ok "no suppression matches a name drdb defines ($# binaries)"
else
    fail "suppressions matching drdb's own names:$bad"
fi

# --- LeakSanitizer's verdicts (the sanitizer build only)
case $sanitize in
*address*)
    "$leak" third-party > "$tmp/out" 2>&1
    rc=$?
    if [ $rc = 0 ] && ! grep -q "ERROR: LeakSanitizer" "$tmp/out"; then
        ok "a third-party library's leak is suppressed (LSAN_OPTIONS=${LSAN_OPTIONS:-})"
    else
        fail "a third-party library's leak is suppressed (status $rc, LSAN_OPTIONS=${LSAN_OPTIONS:-})"
        sed 's/^/# /' "$tmp/out" | head -20
    fi
    "$leak" own > "$tmp/out" 2>&1
    rc=$?
    if [ $rc != 0 ] && grep -q "ERROR: LeakSanitizer" "$tmp/out" &&
       grep -q "lsan_own_leak" "$tmp/out"; then
        ok "a leak of the program's own code is reported"
    else
        fail "a leak of the program's own code is reported (status $rc)"
        sed 's/^/# /' "$tmp/out" | head -20
    fi
    ;;
*)
    skip "not a sanitizer build (b_sanitize=$sanitize)"
    skip "not a sanitizer build (b_sanitize=$sanitize)"
    ;;
esac
echo "1..$n"
exit $status
