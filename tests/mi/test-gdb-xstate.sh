#!/bin/sh
# GDB with mi/gdb-xstate.c preloaded (as the console starts it) writes
# registers: it calls a function of the program and sets and reads back an
# SSE and, where the CPU has them, an AVX-512 register. On a CPU with AMX,
# GDB 13 alone fails each of these ("Couldn't write extended state status:
# Bad address"); elsewhere the library changes nothing.
# usage: test-gdb-xstate.sh LIBRARY PROGRAM
set -u
lib=$1 prog=$2
n=0 status=0
. "$(dirname "$0")/../lib.sh"

# gdb_out COMMAND...: what GDB prints for the commands, stopped in main.
gdb_out() {
    cmds=""
    for c in "$@"; do cmds="$cmds -ex '$c'"; done
    eval LD_PRELOAD="$lib" gdb -nx -q -batch -ex "'set environment LD_PRELOAD='" \
        -ex "'break main'" -ex run $cmds "$prog" 2>&1
}

out=$(gdb_out 'print compute(20, 1)')
case $out in
*'$1 = 41'*) ok "a function of the program called" ;;
*) fail "a function call"; echo "$out" | tail -3 | sed 's/^/#   /' ;;
esac
out=$(gdb_out 'set var $xmm3.v4_int32[2] = 1234567' 'print $xmm3.v4_int32[2]' \
    'print compute(1, 2)' 'print $xmm3.v4_int32[2]')
case $out in
*'$1 = 1234567'*'$3 = 1234567'*) ok "xmm3 set, kept across a call" ;;
*) fail "xmm3"; echo "$out" | tail -3 | sed 's/^/#   /' ;;
esac
if grep -q avx512f /proc/cpuinfo; then
    out=$(gdb_out 'set var $zmm20.v8_int64[6] = 99' 'print $zmm20.v8_int64[6]')
    case $out in
    *'$1 = 99'*) ok "zmm20 set" ;;
    *) fail "zmm20"; echo "$out" | tail -3 | sed 's/^/#   /' ;;
    esac
else
    skip "no AVX-512 on this CPU"
fi
echo "1..$n"
exit $status
