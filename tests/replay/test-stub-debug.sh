#!/bin/sh
# What GDB sees of the replay stub (docs/architecture.md): every variable of
# the debugger protocol (the extern drdb_* of drdb-hooks.h and ckpt.h) with
# its type, as the console reads them; nothing of the stub's internals.
# usage: test-stub-debug.sh STUB HEADER...
set -u
stub=$1; shift
n=0 status=0
. "$(dirname "$0")/../lib.sh"
vars=$(sed -n 's/^extern [^(]*[ *]\(drdb_[a-z_]*\).*;.*/\1/p' "$@" | sort -u)
if [ -z "$vars" ]; then
    fail "no protocol variable found in $*"
fi
for v in $vars; do
    t=$(gdb -nx -batch -ex "whatis $v" "$stub" 2>&1)
    case $t in
        "type = "*"no debug info"*|*"No symbol"*) fail "GDB knows $v's type: $t" ;;
        "type = "*) ok "GDB knows $v's type (${t#type = })" ;;
        *) fail "GDB on $v: $t" ;;
    esac
done
# The stub's own variables stay out of the program's name space: the only
# one with debug information is the list that describes the protocol.
t=$(gdb -nx -batch -ex "info variables" "$stub" 2>&1 |
    sed '/^Non-debugging symbols:/,$d' | grep -v '^File \|^All defined\|^$' |
    grep -v 'rpl__debug_protocol')
if [ -z "$t" ]; then
    ok "no stub variable outside the protocol has debug information"
else
    fail "stub variables with debug information: $(echo "$t" | head -3)"
fi
echo "1..$n"
exit $status
