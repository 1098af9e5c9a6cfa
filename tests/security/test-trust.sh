#!/bin/bash
# Which runs drdb starts without asking (issue 33, item 1; docs/security.md,
# "Trust"):
#  - a run the user recorded is signed with their key (0600 in a 0700
#    directory) and replays with no question;
#  - one byte of its drdb.run changed: refused, nothing runs; --trust runs
#    it, showing what runs; drdb log sign signs it again;
#  - the reported attack: a run crafted by another user, copied by the
#    victim into a directory of theirs, naming /usr/bin/env (root's, its
#    real build id) with argv 'env -i /bin/sh -c "id > FILE"': the victim's
#    drdb replay does not run it (FILE not written) and shows the argv and
#    the working directory, escaped; the same through a link to env the
#    attacker owns; drdb batch --json refuses it with the listing on stderr.
# The attacks run as two throwaway users (useradd) when the test runs as
# root; otherwise they are skipped, saying why.
# usage: test-trust.sh DRDB MPIEXEC JACOBI
set -u
drdb=$(realpath "$1") mpiexec=$2 jacobi=$(realpath "$3")
tmp=$(mktemp -d); chmod 755 "$tmp"
cleanup() { two_users_drop; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp" || exit 1
n=0 status=0
. "$(dirname "$0")/../lib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; sed 's/^/#   /' "${3:-/dev/null}" | head -20; fi; }
# The key of this test's user, not the one of whoever runs the suite.
export XDG_CONFIG_HOME=$tmp/config

"$drdb" record -o run -- "$mpiexec" -n 2 "$jacobi" 40 3 > /dev/null 2> run.err ||
    { fail "recording jacobi"; cat run.err; }

# ---- the user's own run ---------------------------------------------------
check "drdb record signs drdb.run: its last line is the signature" \
    'tail -n 1 run/drdb.run | grep -qxE "signature hmac-sha256 [0-9a-f]{64}"' run/drdb.run
check "  ... with a key of 32 bytes, mode 0600, in a directory of mode 0700" \
    '[ "$(stat -c %a:%s "$tmp/config/drdb/run-key")" = 600:32 ] && [ "$(stat -c %a "$tmp/config/drdb")" = 700 ]'
"$drdb" replay --rank 0 run > own.out 2> own.err
check "the run the user recorded replays with no question" \
    '[ $? = 0 ] && [ -s own.out ] && ! grep -qE "refusing|not signed|--trust" own.err' own.err

# One byte of the start time changed: a harmless field, so only the
# signature tells.
cp -a run edited
sed -i 's/^start_ns \(.*\)[0-9]$/start_ns \17/' edited/drdb.run
cmp -s run/drdb.run edited/drdb.run && sed -i 's/^start_ns \(.*\)[0-9]$/start_ns \18/' edited/drdb.run
"$drdb" replay --rank 0 edited > edit.out 2> edit.err
check "one byte of a signed drdb.run changed: the replay is refused and nothing runs" \
    '[ $? = 2 ] && [ ! -s edit.out ] && grep -q "is not signed by you" edit.err && grep -q "refusing to run" edit.err' edit.err
check "  ... showing the program, its arguments and working directory" \
    "grep -q \"arguments: '$jacobi' '40' '3'\" edit.err && grep -q \"working directory: $tmp\$\" edit.err" edit.err
"$drdb" replay --trust --rank 0 edited > trust.out 2> trust.err
check "--trust runs it, saying why it would not" \
    '[ $? = 0 ] && [ -s trust.out ] && grep -q "not signed by you.*(--trust: running it anyway)" trust.err' trust.err
"$drdb" log sign edited > sign.out 2> sign.err
check "drdb log sign signs it again, saying what its replays will run" \
    "[ \$? = 0 ] && grep -q \"arguments: '$jacobi' '40' '3'\" sign.out" sign.err
"$drdb" replay --rank 0 edited > resigned.out 2> resigned.err
check "  ... and it replays with no question" \
    '[ $? = 0 ] && [ -s resigned.out ] && ! grep -q refusing resigned.err' resigned.err

# ---- another user's run, copied ---------------------------------------------
if ! two_users_can; then
    for what in "a copied run naming env -i /bin/sh" "a link to env" "batch --json"; do
        skip "$what: needs root, useradd and setpriv to make two users"
    done
    echo "1..$n"; exit $status
fi
two_users t
as() { as_user "$@"; }
vh=$tmp/home-$victim_user ah=$tmp/home-$attacker_user
env_id=$(readelf -n /usr/bin/env | sed -n 's/.*Build ID: //p')

# The attacker's run: drdb.run naming EXE with the shell command, beside a
# real log; the victim copies it into a directory of their own.
craft() {
    name=$1 exe=$2
    mkdir "$name"
    cp run/rank-0.log "$name/"
    printf 'format drdb-run 1\nworld_size 2\nexe %s\nargv env\037-i\037/bin/sh\037-c\037id > %s\033[2J\ncwd /tmp\nexe_build_id %s\n' \
        "$exe" "$vh/pwned-$name" "$env_id" > "$name/drdb.run"
    chown -R "$attacker_user:" "$name"; chmod -R a+rX "$name"; mv "$name" "$ah/"
    as "$victim_user" cp -r "$ah/$name" "$vh/$name"
}
craft evilrun /usr/bin/env
(cd "$vh" && as "$victim_user" "$drdb" replay --rank 0 evilrun) > evil.out 2> evil.err
rc=$?
check "a copied run naming 'env -i /bin/sh -c ...' does not run (the file is not written)" \
    '[ $rc = 2 ] && [ ! -e "$vh/pwned-evilrun" ] && grep -q "refusing to run" evil.err' evil.err
check "  ... showing the whole argv, escaped for the terminal, and the working directory" \
    "grep -qF \"arguments: 'env' '-i' '/bin/sh' '-c' 'id > $vh/pwned-evilrun\\e[2J'\" evil.err && grep -qx 'drdb:   working directory: /tmp' evil.err && ! grep -q \$'\\033' evil.err" evil.err
check "  ... and the environment and libraries drdb gives it" \
    'grep -q "LD_PRELOAD=.*libmpich.so.12" evil.err && grep -q "preloaded libraries:" evil.err' evil.err

as "$attacker_user" ln -s /usr/bin/env "$ah/env"
craft linkrun "$ah/env"
(cd "$vh" && as "$victim_user" "$drdb" replay --rank 0 linkrun) > link.out 2> link.err
rc=$?
check "the same through a link to env that the attacker owns: not run" \
    '[ $rc = 2 ] && [ ! -e "$vh/pwned-linkrun" ] && grep -q "refusing to run" link.err' link.err

printf 'info ranks\n' > "$vh/script"; chmod a+r "$vh/script"
(cd "$vh" && as "$victim_user" "$drdb" batch --json evilrun "$vh/script") > json.out 2> json.err
rc=$?
check "batch --json refuses it, the listing on stderr, and runs nothing" \
    "[ \$rc != 0 ] && [ ! -e \"\$vh/pwned-evilrun\" ] && grep -q \"arguments: 'env' '-i'\" json.err && grep -q 'refusing to run' json.err" json.err

echo "1..$n"
exit $status
