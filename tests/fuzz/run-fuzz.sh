#!/bin/sh
# run-fuzz.sh NAME SECONDS CORPUSDIR SOURCES... [-- EXTRA_CFLAGS...]
#
# Builds a libFuzzer target (SOURCES: one file defining
# LLVMFuzzerTestOneInput plus the code under test) with
#   clang -g -O1 -fsanitize=fuzzer,address,undefined
# and runs it for SECONDS, seeded from CORPUSDIR (read only: new inputs go to
# a work corpus in the output directory). Fails (non-zero) on a crash, a
# sanitizer report, a leak, an input slower than FUZZ_TIMEOUT or memory above
# FUZZ_RSS_MB; the input that did it is kept as OUTDIR/crash-* etc.
# Exits 77 (meson: skipped) when clang or its fuzzer runtime is missing.
#
# Environment: FUZZ_OUT_DIR (default ./fuzz-out), FUZZ_MAX_LEN (65536),
# FUZZ_RSS_MB (2048), FUZZ_TIMEOUT (10 s per input), CC (clang).
set -eu

if [ $# -lt 4 ]; then
    echo "usage: $0 NAME SECONDS CORPUSDIR SOURCES... [-- EXTRA_CFLAGS...]" >&2
    exit 2
fi
name=$1 seconds=$2 seeds=$3
shift 3
srcs=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    srcs="$srcs $1"
    shift
done
[ $# -gt 0 ] && shift # the "--"; what remains are extra flags

cc=${CC:-clang}
case "$cc" in *clang*) ;; *) cc=clang ;; esac
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "run-fuzz: '$cc' not found: skipping (install clang and libclang-rt-dev)" >&2
    exit 77
fi

out=${FUZZ_OUT_DIR:-$PWD/fuzz-out}/$name
mkdir -p "$out/corpus"
bin=$out/$name

# shellcheck disable=SC2086
if ! "$cc" -g -O1 -fsanitize=fuzzer,address,undefined \
        -fno-sanitize-recover=all -fno-omit-frame-pointer \
        -D_GNU_SOURCE -std=gnu11 -o "$bin" $srcs "$@" 2>"$out/build.log"; then
    if grep -q "fuzzer" "$out/build.log" && grep -qi "cannot find\|no such file" "$out/build.log"; then
        cat "$out/build.log" >&2
        echo "run-fuzz: no libFuzzer runtime: skipping" >&2
        exit 77
    fi
    cat "$out/build.log" >&2
    echo "run-fuzz: build of '$name' failed" >&2
    exit 1
fi

echo "run-fuzz: $name for ${seconds}s, seeds from $seeds, output in $out"
set +e
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
"$bin" -max_total_time="$seconds" \
    -max_len="${FUZZ_MAX_LEN:-65536}" \
    -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -malloc_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -timeout="${FUZZ_TIMEOUT:-10}" \
    -print_final_stats=1 \
    -artifact_prefix="$out/" \
    "$out/corpus" "$seeds" >"$out/fuzz.log" 2>&1
status=$?
set -e
tail -n 25 "$out/fuzz.log"
if [ $status -ne 0 ]; then
    echo "run-fuzz: '$name' FAILED (status $status); see $out/fuzz.log and $out/crash-*" >&2
    exit 1
fi
echo "run-fuzz: '$name' ok"
