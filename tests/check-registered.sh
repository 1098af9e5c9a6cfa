#!/bin/sh
# check-registered.sh SRCDIR STAMP REGISTERED...
# Fails the build when a test file (tests/**/test-*) exists on disk but is not
# registered in a meson.build: a test nobody runs is a defect.
set -eu
srcdir=$1 stamp=$2
shift 2
status=0
for f in $(cd "$srcdir" && find . -name 'test-*' -type f | sed 's|^\./||' | sort); do
    found=0
    for r in "$@"; do
        [ "$r" = "$f" ] && { found=1; break; }
    done
    if [ $found = 0 ]; then
        echo "error: test file 'tests/$f' is not registered: add it to the meson.build beside it" >&2
        status=1
    fi
done
[ $status = 0 ] && : > "$stamp"
exit $status
