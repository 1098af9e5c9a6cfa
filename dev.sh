#!/bin/sh
# Developer entry point: installs what is missing, builds, then runs the
# chosen job.
#   ./dev.sh demo    record the bundled demo under mpiexec and debug it
#   ./dev.sh test    the whole test suite (plus the sanitizer build's unit tests)
#   ./dev.sh build   build only (into ./build; under CI=true, outside the clone)
set -eu
cd "$(dirname "$0")"

usage() {
    sed -n '2,7s/^# \{0,1\}//p' "$0"
}

job=${1:-}
case "$job" in
    demo|test|build) ;;
    -h|--help|help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
esac

./bootstrap.sh

# setup_build DIR [meson options]: configure once, then build.
setup_build() {
    dir=$1; shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@" >/dev/null || meson setup "$dir" "$@"
    fi
    ninja -C "$dir"
}

# The build directory: ./build; under CI (CI=true) a new one outside the
# clone, so that the suite runs from a build directory elsewhere (where it
# is may change no test's outcome: docs/development.md, "CI").
build=build
if [ "${CI:-}" = true ]; then
    build=$(mktemp -d "${TMPDIR:-/tmp}/drdb-ci.XXXXXX")
    # (mktemp makes it 0700: the security tests' second user runs drdb
    # from it, as from a clone's ./build)
    chmod 755 "$build"
    build=$build/build
    echo "dev.sh: CI: building in $build, outside the clone"
fi
setup_build "$build" -Dwerror=true

# summary LOG...: one 'N passed, N failed' line over meson's JSON test logs,
# after the name and failed TAP lines of each test that did not pass (the
# end of the output is what a CI report shows).
summary() {
    cat "$@" | awk '
        {
            name = $0; sub(/^.*"name": "/, "", name); sub(/".*$/, "", name)
            res = $0; sub(/^.*"result": "/, "", res); sub(/".*$/, "", res)
        }
        res == "OK" || res == "EXPECTEDFAIL" { p++; next }
        res == "SKIP" { s++; next }
        {
            f++
            printf "FAILED (%s): %s\n", res, name
            line = $0
            while (match(line, /not ok[^\\"]*/)) {
                printf "    %s\n", substr(line, RSTART, RLENGTH)
                line = substr(line, RSTART + RLENGTH)
            }
        }
        END { printf "tests: %d passed, %d failed, %d skipped\n", p, f, s }'
}

case "$job" in
build)
    ;;
demo)
    exec examples/demo.sh "$build"
    ;;
test)
    status=0
    meson test -C "$build" --print-errorlogs || status=1
    # The non-MPI unit tests again under AddressSanitizer + UBSan.
    setup_build build-asan -Db_sanitize=address,undefined -Db_lundef=false
    meson test -C build-asan --suite unit --print-errorlogs || status=1
    summary "$build/meson-logs/testlog.json" \
        build-asan/meson-logs/testlog.json
    exit $status
    ;;
esac
