#!/bin/sh
# The checkpoint library on its own (tests/checkpoint/zdtm.c): state in
# globals, bss, TLS, heap (small, mmap-backed and realloc'ed blocks), a stack
# array, a mapping with a hole punched and refilled, a mapping made after the
# checkpoint, brk growth and shrink, a file offset; checkpoint, change,
# checkpoint, change, roll back to the first and forward to the second, each
# region compared byte for byte; memory never populated is not stored, and
# comes back unpopulated (a page first written later reads zero again, a
# mapping made anew is not filled from an older checkpoint). Then: a second thread refused; the memory
# cap (a checkpoint refused with a clear error, older ones thinned); files
# (a truncated, a corrupt and a foreign file refused before anything
# changes, a good one restored).
# usage: test-ckpt-zdtm.sh ZDTM
set -u
zdtm=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
show() { sed 's/^/#   /' "$@" | head -12; }

for b in uffd mprotect full; do
    if [ $b = mprotect ] && "$zdtm" sanitized; then
        # AddressSanitizer writes its shadow memory from inside the SIGSEGV
        # handler the backend relies on (docs/checkpoints.md)
        n=$((n + 1))
        echo "ok $n - # SKIP mprotect under AddressSanitizer"
        continue
    fi
    DRDB_CKPT_BACKEND=$b timeout 60 "$zdtm" basic > "$tmp/$b" 2>&1
    rc=$?
    if [ $rc = 0 ] && grep -q "^rollback to 1: ok ($b)" "$tmp/$b" &&
        grep -q "^roll forward to 2: ok" "$tmp/$b"; then
        ok "$b: every region restored, back and forth"
    else
        fail "$b: zdtm (exit $rc)"
        show "$tmp/$b"
    fi
done

# The default is the best the kernel offers: uffd from Linux 6.7 on.
timeout 60 "$zdtm" basic > "$tmp/auto" 2>&1
kmaj=$(uname -r | cut -d. -f1) kmin=$(uname -r | cut -d. -f2)
if [ "$kmaj" -gt 6 ] || { [ "$kmaj" = 6 ] && [ "$kmin" -ge 7 ]; }; then
    want=uffd
else
    want=mprotect
fi
if grep -q "^rollback to 1: ok ($want)" "$tmp/auto"; then
    ok "the default backend here is $want"
else
    fail "default backend (want $want)"
    show "$tmp/auto"
fi
DRDB_CKPT_BACKEND=bogus "$zdtm" basic > "$tmp/bogus" 2>&1
if grep -q "DRDB_CKPT_BACKEND=bogus: use uffd, mprotect, full or auto" \
    "$tmp/bogus"; then
    ok "an unknown backend is refused by name"
else
    fail "unknown backend"
    show "$tmp/bogus"
fi

if "$zdtm" threads > "$tmp/thr" 2>&1 &&
    grep -q "the process has 2 threads: checkpoints need a single-threaded" \
        "$tmp/thr"; then
    ok "a second thread: checkpoints refused, saying why"
else
    fail "threads"
    show "$tmp/thr"
fi

# 12 checkpoints of ~1 MiB changes (a 4 MiB block filled 1 MiB at a time).
DRDB_CKPT_MEM=2 "$zdtm" cap > "$tmp/cap10" 2>&1
refused=$(sed -n 's/^taken [0-9]* refused \([0-9]*\) .*/\1/p' "$tmp/cap10")
if [ "${refused:-0}" -ge 10 ] &&
    grep -q "checkpoint memory cap reached.*DRDB_CKPT_MEM" "$tmp/cap10"; then
    ok "cap below the checkpoints' size: refused with the way out, program on"
else
    fail "cap 2 MiB"
    show "$tmp/cap10"
fi
# (AddressSanitizer's shadow memory about doubles the sizes)
cap=9
"$zdtm" sanitized && cap=16
DRDB_CKPT_MEM=$cap "$zdtm" cap > "$tmp/cap28" 2>&1
kept=$(sed -n 's/^taken 12 refused 0 kept \([0-9]*\),.*/\1/p' "$tmp/cap28")
used=$(sed -n 's/.* \([0-9]*\) MiB in use.*/\1/p' "$tmp/cap28")
if [ -n "$kept" ] && [ "$kept" -lt 12 ] && [ "$kept" -ge 2 ] &&
    [ "$used" -le $cap ] && grep -q "in use: .* 110$" "$tmp/cap28" &&
    grep -q "^rollback to the oldest (event [0-9]*): ok" "$tmp/cap28"; then
    ok "cap reached: older checkpoints thinned ($kept left, $used MiB), the oldest left restores exactly"
else
    fail "cap $cap MiB: thinning"
    show "$tmp/cap28"
fi

# Files: one run writes them; damaged copies are refused by another run,
# which then restores its own good file.
mkdir "$tmp/f1" "$tmp/f2" "$tmp/bad"
ZDTM_FILES_ONLY=1 "$zdtm" files "$tmp/f1" > "$tmp/files1" 2>&1
cp "$tmp/f1/ckpt-000001.drdbck" "$tmp/bad/ckpt-000001.drdbck"
head -c 100000 "$tmp/f1/ckpt-000002.drdbck" > "$tmp/bad/ckpt-000002.drdbck"
mkdir "$tmp/bad2" "$tmp/bad3"
cp "$tmp/f1/ckpt-000001.drdbck" "$tmp/bad2/"
cp "$tmp/f1/ckpt-000002.drdbck" "$tmp/bad2/"
size=$(stat -c %s "$tmp/bad2/ckpt-000002.drdbck")
# a page byte inverted (a byte overwritten with a fixed one may hold it
# already: the file was then intact, refused as another process's)
byte=$(od -An -tu1 -j $((size - 5000)) -N1 "$tmp/bad2/ckpt-000002.drdbck" | tr -d ' ')
# shellcheck disable=SC2059
printf "\\$(printf '%03o' $((255 - byte)))" |
    dd of="$tmp/bad2/ckpt-000002.drdbck" bs=1 seek=$((size - 5000)) \
    conv=notrunc 2> /dev/null
cp "$tmp/f1/ckpt-000001.drdbck" "$tmp/f1/ckpt-000002.drdbck" "$tmp/bad3/"
"$zdtm" files "$tmp/f2" "$tmp/bad/ckpt-000002.drdbck" \
    "$tmp/bad2/ckpt-000002.drdbck" "$tmp/bad3/ckpt-000002.drdbck" \
    "$tmp/nowhere/ckpt-000001.drdbck" > "$tmp/files2" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q "refused: .*bad/ckpt-000002.drdbck: truncated" "$tmp/files2" &&
    grep -q "refused: .*bad2/ckpt-000002.drdbck: corrupt (page checksum)" "$tmp/files2" &&
    grep -q "refused: .*code was mapped elsewhere" "$tmp/files2" &&
    grep -q "refused: cannot open checkpoint file .*nowhere" "$tmp/files2" &&
    grep -q "^restored from file: ok" "$tmp/files2" &&
    [ "$(stat -c %a "$tmp/f2/ckpt-000001.drdbck")" = 600 ]; then
    ok "files: truncated, corrupt, foreign, missing refused; a good one restored; mode 0600"
else
    fail "files (exit $rc)"
    show "$tmp/files2"
fi

echo "1..$n"
exit $status
