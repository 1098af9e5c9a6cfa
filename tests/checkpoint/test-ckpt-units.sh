#!/bin/sh
# The checkpoint library's unit boundaries (checkpoint/ckpt-int.h), read
# from the built objects with nm:
#  1. the restorer (libdrdb-ckpt-restorer.a: the code that runs while a
#     rollback replaces the program's memory) calls no libc function, nor
#     anything else outside itself: every symbol its objects leave
#     undefined is defined by the restorer, except the C halves of the
#     debugger's trampolines (ckpt-asm.S calls them before anything is
#     changed), which the library itself must define. A memcpy, printf or
#     strlen call, a stack protector's __stack_chk_fail or a sanitizer's
#     hook there fails this test, naming the symbol and the object;
#  2. the front end links the file format and the uffd probe alone
#     (ckpt-file.h), none of the code that takes, stores or restores.
# usage: test-ckpt-units.sh NM RESTORER_ARCHIVE CKPT_ARCHIVE DRDB
set -u
nm=$1 restorer=$2 lib=$3 drdb=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

entries="ckpt__take_external ckpt__restore_external ckpt__forget_external"

# "object: symbol" for each undefined symbol (nm -A prefixes the member)
"$nm" -A -u "$restorer" > "$tmp/undef.raw" || fail "nm -u $restorer"
awk '{ print $NF "\t" $1 }' "$tmp/undef.raw" | sort -u > "$tmp/undef"
"$nm" --defined-only "$restorer" | awk 'NF == 3 { print $3 }' |
    sort -u > "$tmp/own"
"$nm" --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/lib"
: > "$tmp/bad"
while IFS="$(printf '\t')" read -r sym where; do
    grep -qx "$sym" "$tmp/own" && continue
    case " $entries " in
    *" $sym "*) grep -qx "$sym" "$tmp/lib" && continue ;;
    esac
    echo "$sym (referenced by ${where%:})" >> "$tmp/bad"
done < "$tmp/undef"
if [ ! -s "$tmp/undef.raw" ] || ! grep -q ckpt__restore_on_stack "$tmp/own"
then
    fail "the restorer archive $restorer holds no restorer"
elif [ -s "$tmp/bad" ]; then
    fail "the restorer references symbols it does not define (libc?)"
    sed 's/^/#   /' "$tmp/bad"
else
    ok "the restorer calls nothing outside itself ($(wc -l < "$tmp/undef") references checked)"
fi

"$nm" "$drdb" > "$tmp/drdb" || fail "nm $drdb"
found=$(grep -E ' (ckpt_take|ckpt_restore|ckpt_init|ckpt_list|ckpt__restore_on_stack|ckpt__alloc|ckpt__read_maps)$' \
    "$tmp/drdb" | awk '{ print $NF }' | tr '\n' ' ')
if ! grep -q ' ckpt_file_info$' "$tmp/drdb"; then
    fail "the front end does not link ckpt_file_info (wrong binary?)"
elif [ -n "$found" ]; then
    fail "the front end links checkpoint code beyond the file format: $found"
else
    ok "the front end links the checkpoint file format alone"
fi
echo "1..$n"
exit $status
