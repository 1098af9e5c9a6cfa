#!/bin/bash
# Where a kept session's socket lives (issue 33, item 5; docs/remote.md,
# "Keeping a session"): never at a predictable name in a shared
# directory. Before, with no XDG_RUNTIME_DIR, it was
# ${TMPDIR:-/tmp}/drdb-agent-UID: another local user who made that
# directory first denied `--keep`, and the refusal said "remove it",
# which the victim cannot do in a sticky /tmp.
#
# Covered, as a throwaway victim and attacker (useradd) when root: the
# attacker takes the old name in a sticky shared TMPDIR; the victim's
# `drdb agent --keep` still starts, its socket in its own cache directory
# (mode 700), and `drdb agent --attach` reaches it. As any user: a place
# that is not private is refused with a way out (XDG_RUNTIME_DIR), and
# XDG_RUNTIME_DIR, when set, is used.
#
# usage: test-keep-dir.sh DRDB
set -u
drdb=$(realpath "$1") here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d); chmod 755 "$tmp"
cleanup() { two_users_drop; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$here/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; sed 's/^/#   /' "${3:-/dev/null}" | head -8; fi; }
host=$(hostname)
mkdir -m 1777 shared

# as USER CMD...: CMD as USER ("": this user), HOME its own directory,
# TMPDIR the shared sticky one, no XDG variable.
as() {
    u=$1; shift
    mkdir -p "$tmp/home-${u:-me}"
    if [ -n "$u" ]; then
        chown "$u" "$tmp/home-$u"
        set -- setpriv --reuid="$(id -u "$u")" --regid="$(id -g "$u")" --clear-groups "$@"
    fi
    env -u XDG_RUNTIME_DIR -u XDG_CACHE_HOME HOME="$tmp/home-${u:-me}" TMPDIR="$tmp/shared" "$@"
}
# A kept agent: starts, listens, and ends 2 s after its connection (stdin
# at its end) when nobody attaches.
keep() { as "$1" timeout 20 "$drdb" agent --keep 2 < /dev/null > /dev/null; }

# ---- another user took the old name ------------------------------------
if ! two_users_can; then
    skip "another user's directory at the old name: needs root, useradd and setpriv"
else
    two_users k
    vuid=$(id -u "$victim_user")
    as "$attacker_user" mkdir -m 700 "$tmp/shared/drdb-agent-$vuid"
    keep "$victim_user" 2> taken.err
    check "another user's directory at the old name does not deny --keep" \
        '[ $? = 0 ] && [ ! -s taken.err ]' taken.err
    sdir=$tmp/home-$victim_user/.cache/drdb/agent-$host
    check "  ... the socket is in the victim's cache directory, mode 700" \
        '[ "$(stat -c %U:%a "$sdir")" = "$victim_user:700" ] && ls "$sdir" | grep -q "^[0-9]*\.sock$"' taken.err
    as "$victim_user" timeout 20 "$drdb" agent --attach < /dev/null > attach.out 2> attach.err
    check "  ... and drdb agent --attach reaches the kept session" \
        'grep -q drdbwire attach.out' attach.err
    check "  ... nothing was put in the other user's directory" \
        '[ -z "$(ls -A "$tmp/shared/drdb-agent-$vuid")" ]'
fi

# ---- a place that is not private ---------------------------------------
mine=$tmp/home-me/.cache/drdb/agent-$host
mkdir -p "$mine" && chmod 777 "$mine"
keep "" 2> open.err
check "a directory others can write is refused, with a way out" \
    '[ $? != 0 ] && grep -q "mode 777.*remove it or set XDG_RUNTIME_DIR to a directory of yours" open.err' open.err

# ---- XDG_RUNTIME_DIR ----------------------------------------------------
mkdir -m 700 xdg
XDG_RUNTIME_DIR=$tmp/xdg timeout 20 "$drdb" agent --keep 2 < /dev/null > /dev/null 2> xdg.err
check "with XDG_RUNTIME_DIR set, the socket is there" \
    '[ "$(stat -c %a xdg/drdb-agent)" = 700 ] && ls xdg/drdb-agent | grep -q "^[0-9]*\.sock$"' xdg.err
echo "1..$n"
exit $status
