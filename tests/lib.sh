# tests/lib.sh - shell helpers shared by the test scripts (sourced).

# The user's key that signs their runs (docs/security.md, "Trust") stays
# theirs when a test gives a console a HOME of its own (for its history).
export XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$HOME/.config}"

# TAP: each script counts its checks in n and sets status=1 on a failure.
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; status=1; }
skip() { n=$((n + 1)); echo "ok $n - # SKIP $1"; }

# has NAME FILE LINE...: one check, that FILE holds each LINE exactly (as a
# whole line); hasre NAME FILE REGEX...: that a line of FILE matches each
# basic REGEX. A failure names the first one missing and shows the end of
# FILE (and FILE.err's) as TAP comments.
has() { _has -qxF "$@"; }
hasre() { _has -q "$@"; }
_has() {
    _opt=$1 _name=$2 _file=$3
    shift 3
    for _want in "$@"; do
        if ! grep "$_opt" -- "$_want" "$_file"; then
            fail "$_name: no line $([ "$_opt" = -q ] && echo 'matching ')'$_want'"
            sed 's/^/#   /' "$_file" | tail -25
            [ -s "$_file.err" ] && sed 's/^/#   /' "$_file.err" | tail -10
            return
        fi
    done
    ok "$_name"
}

# srcpaths FILE...: the source paths GDB shows in FILE (as compiled: relative
# to the build directory, or absolute) become SRC/examples/..., SRC/tests/...,
# so that an expected line does not depend on where the build directory is.
srcpaths() {
    for _f in "$@"; do
        sed -E -i 's#([ (])[^ ()]*/((examples|tests)/[^ ()]*\.c)#\1SRC/\2#g' "$_f"
    done
}

# console_batch NAME RUNDIR RANKS [OPTIONS] -- SCRIPT-LINES...: the lines
# as a drdb batch script ($drdb; 60 s per command) on RANKS of RUNDIR;
# output in $tmp/NAME, stderr in $tmp/NAME.err, exit status in $tmp/NAME.rc
# (rc NAME).
console_batch() {
    _name=$1 _run=$2 _ranks=$3
    shift 3
    _opts=
    while [ "$1" != -- ]; do _opts="$_opts $1"; shift; done
    shift
    printf '%s\n' "$@" > "$tmp/$_name.drdb"
    # shellcheck disable=SC2086
    timeout 200 "$drdb" batch --ranks "$_ranks" --timeout 60 $_opts "$_run" \
        "$tmp/$_name.drdb" > "$tmp/$_name" 2> "$tmp/$_name.err"
    echo $? > "$tmp/$_name.rc"
}
rc() { cat "$tmp/$1.rc"; }
# batch_after NAME CMD: the output of the first command line CMD of batch
# output $tmp/NAME (to the next command line).
batch_after() {
    awk -v c="(drdb) $2" '$0 == c && !seen { on = 1; seen = 1; next }
        /^\(drdb\) / { on = 0 } on' "$tmp/$1"
}
# batch_every NAME CMD: the outputs of every command line CMD of batch
# output $tmp/NAME.
batch_every() {
    awk -v c="(drdb) $2" '$0 == c { on = 1; next } /^\(drdb\) / { on = 0 } on' \
        "$tmp/$1"
}
# has_after NAME CMD WHAT ERE...: those outputs have a line matching each
# ERE (else a failure showing the batch's end).
has_after() {
    _name=$1 _cmd=$2 _what=$3
    shift 3
    for _want in "$@"; do
        if ! batch_every "$_name" "$_cmd" | grep -Eq -- "$_want"; then
            fail "$_what: after '$_cmd', no line /$_want/"
            sed 's/^/#   /' "$tmp/$_name" "$tmp/$_name.err" | tail -30
            return
        fi
    done
    ok "$_what"
}

# blocks FILE TAG: what the ranks tagged [TAG] answered in FILE (a
# console's output; -: stdin): the text of their one-line answers ("[TAG]
# text") and the lines of their blocks (a line "[TAG]" alone, to the next
# tag or prompt).
blocks() {
    awk -v t="[$2]" '
        /^\(drdb[^)]*\) / { mine = 0; next }
        /^\[[0-9,*!-]+\]( |$)/ {
            mine = ($1 == t && NF == 1)
            if ($1 == t && NF > 1) print substr($0, length(t) + 2)
            next
        }
        mine' "$1"
}
# said NAME CMD TAG: the same after every command line CMD of batch output
# $tmp/NAME.
said() {
    awk -v c="(drdb) $2" '/^\(drdb\) / { on = ($0 == c) } on' "$tmp/$1" |
        blocks - "$3"
}
# has_said NAME CMD TAG WHAT ERE...: those answers have a line matching
# each ERE (else a failure showing the batch's end).
has_said() {
    _name=$1 _cmd=$2 _tag=$3 _what=$4
    shift 4
    for _want in "$@"; do
        if ! said "$_name" "$_cmd" "$_tag" | grep -Eq -- "$_want"; then
            fail "$_what: after '$_cmd', [$_tag] said no line /$_want/"
            sed 's/^/#   /' "$tmp/$_name" "$tmp/$_name.err" | tail -30
            return
        fi
    done
    ok "$_what"
}

# record_or_end NP PROG: PROG recorded at NP ranks ($drdb, $mpiexec) into
# $tmp/run, each rank's stdout in $tmp/rec.R; else a failure and the end
# of the test.
record_or_end() {
    if ! timeout 120 "$drdb" record -o "$tmp/run" -- "$mpiexec" -n "$1" \
            -outfile-pattern "$tmp/rec.%r" "$2" > "$tmp/rec.log" 2>&1; then
        fail "recording $(basename "$2")"
        sed 's/^/# /' "$tmp/rec.log" | tail -5
        echo "1..$n"
        exit 1
    fi
}

# record_killed DRDB MPIEXEC CRASH NP RUN AT: records tests/progs/crash in
# 'sleep' mode at NP ranks into RUN (each rank's stdout in RUN.out.R), then
# SIGKILLs rank 1 once it says it sleeps (after AT iterations), as a rank
# killed mid-run. Returns 1 when rank 1 never said so (the job is ended).
record_killed() {
    _drdb=$1 _mpiexec=$2 _crash=$3 _np=$4 _run=$5 _at=$6
    "$_drdb" record -o "$_run" -- "$_mpiexec" -n "$_np" \
        -outfile-pattern "$_run.out.%r" "$_crash" sleep "$_at" \
        > "$_run.rec" 2>&1 &
    _job=$!
    _pid=
    for _ in $(seq 300); do
        _pid=$(sed -n 's/^rank 1: sleeping, pid \([0-9]*\)$/\1/p' \
            "$_run.out.1" 2>/dev/null)
        [ -n "$_pid" ] && break
        sleep 0.1
    done
    if [ -z "$_pid" ]; then
        kill "$_job" 2>/dev/null
        wait "$_job"
        return 1
    fi
    kill -KILL "$_pid"
    wait "$_job"
    return 0
}

# A console in a tmux pane, for the tests of the interactive console. The
# caller sets $sock (the tmux socket) and starts the session on it.
# tty_screen: the pane with its scrollback. tty_wait REGEX [TENTHS]: the
# pane shows a line matching REGEX within TENTHS x 0.1 s (default 20 s),
# else the pane's end is shown as TAP comments. tty_keys KEYS...: typed.
tty_screen() { tmux -S "$sock" capture-pane -p -S -200 2>/dev/null; }
tty_wait() {
    for _ in $(seq "${2:-200}"); do
        tty_screen | grep -Eq -- "$1" && return 0
        sleep 0.1
    done
    tty_screen | sed '/^$/d; s/^/#   /' | tail -15
    return 1
}
tty_keys() { tmux -S "$sock" send-keys "$@"; }

# doc_examples FILE DIR: the SQL of each numbered worked example under
# "## Examples" of FILE (docs/queries.md) into DIR/ex-N.sql.
doc_examples() {
    awk -v dir="$2" '
        /^## Examples/ { on = 1; next }
        /^## / && on { on = 0 }
        on && /^[0-9]+\. / { k = $1 + 0 }
        on && /^ *```sql/ { insql = 1; f = dir "/ex-" k ".sql"; next }
        on && /^ *```/ && insql { insql = 0; close(f); next }
        insql { sub(/^ +/, ""); print > f }' "$1"
}

# Pictures (drdb log graph's SVG), read with xmllint. svg_need: the whole
# script skipped (its plan said) when xmllint is missing. svg_cls CLASS: an
# XPath condition, "the element has CLASS". svg_pairs FILE CONDITION A B
# SEP: "A<SEP>B" of each element matching CONDITION, sorted, each followed
# by a space.
svg_need() {
    command -v xmllint > /dev/null && return
    echo "1..1"; skip "xmllint (libxml2-utils) not installed"; exit 0
}
svg_cls() { echo "contains(concat(' ', @class, ' '), ' $1 ')"; }
svg_pairs() {
    xmllint --xpath "//*[$2]/@*[name()='$3' or name()='$4']" "$1" \
        2>/dev/null | sed -n 's/.*="\(.*\)"/\1/p' | paste -d"$5" - - |
        sort | tr '\n' ' '
}

# Two throwaway users, for the attacks of another user (tests/security).
# two_users_can: whether this test can make them (root, useradd, setpriv).
# two_users TAG: makes users drdbTAGv$$ and drdbTAGa$$ into $victim_user and
# $attacker_user, each with a home $tmp/home-USER (mode 755) of its own;
# exits the test as failed when useradd fails. two_users_drop: ends their
# processes and removes them (for the test's EXIT trap; nothing when none
# was made).
# as_user USER CMD...: CMD as USER, HOME its home, its key its own.
victim_user="" attacker_user=""
two_users_can() {
    [ "$(id -u)" = 0 ] && command -v useradd > /dev/null &&
        command -v setpriv > /dev/null
}
two_users() {
    victim_user=drdb${1}v$$ attacker_user=drdb${1}a$$
    useradd -M -d /nonexistent -s /usr/sbin/nologin "$victim_user" &&
        useradd -M -d /nonexistent -s /usr/sbin/nologin "$attacker_user" ||
        { fail "useradd"; echo "1..$n"; exit 1; }
    for _u in "$victim_user" "$attacker_user"; do
        mkdir -p "$tmp/home-$_u" && chown "$_u:" "$tmp/home-$_u" &&
            chmod 755 "$tmp/home-$_u"
    done
}
two_users_drop() {
    for _u in $victim_user $attacker_user; do
        # (userdel refuses a user with a process left: a kept agent)
        pkill -KILL -u "$_u" 2> /dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            userdel "$_u" 2> /dev/null && break
            sleep 0.2
        done
    done
    return 0
}
as_user() {
    _u=$1
    shift
    setpriv --reuid="$(id -u "$_u")" --regid="$(id -g "$_u")" --clear-groups \
        env -u XDG_CONFIG_HOME HOME="$tmp/home-$_u" "$@"
}
