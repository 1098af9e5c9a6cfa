# tests/lib-sshd.sh - a throwaway sshd for a test or benchmark (sourced):
# it listens on 127.0.0.2 and 127.0.0.3 (two "hosts") on a free port, with
# a host key and an authorized user key made in the caller's temporary
# directory $tmp and a known_hosts file for ssh (-o UserKnownHostsFile);
# nothing of the machine's SSH configuration changes.
#
#   sshd_start   makes $tmp/hostkey, $tmp/userkey, $tmp/authorized_keys,
#                $tmp/known_hosts, starts sshd (its pid in $sshd_pid, its
#                port in $port) and waits until ssh logs in: 0, or 1 with
#                the reason in $sshd_why (sshd or ssh missing, no start)
#   sshd_stop    ends it (call it from the EXIT trap)
#   (tests/remote/lib-node.sh: the marked drdb of the "node" and what of
#   a test runs there)
#
# ssh reaches it with -p $port (drdb: --ssh-option Port=$port),
# IdentityFile=$tmp/userkey, IdentitiesOnly=yes and
# UserKnownHostsFile=$tmp/known_hosts.
sshd_pid= port= sshd_why=

sshd_stop() {
    [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null
    sshd_pid=
}

# sshd__try: one start on $port; 0 once ssh logs in.
sshd__try() {
    cat > "$tmp/sshd_config" <<EOC
Port $port
ListenAddress 127.0.0.2
ListenAddress 127.0.0.3
HostKey $tmp/hostkey
AuthorizedKeysFile $tmp/authorized_keys
PidFile $tmp/sshd.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AcceptEnv XDG_RUNTIME_DIR
LogLevel ERROR
EOC
    "$_sshd" -D -f "$tmp/sshd_config" -E "$tmp/sshd.log" &
    sshd_pid=$!
    for _ in $(seq 30); do
        if ssh -T -p "$port" -i "$tmp/userkey" -o IdentitiesOnly=yes \
                -o BatchMode=yes -o UserKnownHostsFile="$tmp/known_hosts" \
                127.0.0.2 true 2> /dev/null; then
            return 0
        fi
        kill -0 "$sshd_pid" 2> /dev/null || break
        sleep 0.1
    done
    kill "$sshd_pid" 2> /dev/null
    wait "$sshd_pid" 2> /dev/null
    sshd_pid=
    return 1
}

sshd_start() {
    _sshd=/usr/sbin/sshd
    [ -x "$_sshd" ] || { sshd_why="no $_sshd (install openssh-server: bootstrap.sh)"; return 1; }
    command -v ssh > /dev/null || { sshd_why="no ssh (install openssh-client)"; return 1; }
    command -v ssh-keygen > /dev/null || { sshd_why="no ssh-keygen"; return 1; }
    # Run as root, sshd wants its privilege-separation directory (the one
    # the ssh service makes at boot): made when missing, nothing else
    # changes.
    if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
        mkdir -p /run/sshd 2>/dev/null && chmod 755 /run/sshd ||
            { sshd_why="cannot make /run/sshd, which sshd needs when run as root"; return 1; }
    fi
    ssh-keygen -q -t ed25519 -N '' -f "$tmp/hostkey" -C test-host &&
    ssh-keygen -q -t ed25519 -N '' -f "$tmp/userkey" -C test-user ||
        { sshd_why="ssh-keygen failed"; return 1; }
    cp "$tmp/userkey.pub" "$tmp/authorized_keys"
    chmod 600 "$tmp/authorized_keys"
    for _try in 1 2 3 4 5; do
        port=$((20000 + ($$ * 7 + _try * 1013) % 40000))
        : > "$tmp/known_hosts"
        for _h in 127.0.0.2 127.0.0.3; do
            echo "[$_h]:$port $(cat "$tmp/hostkey.pub")" >> "$tmp/known_hosts"
        done
        sshd__try && return 0
    done
    port=
    sshd_why="sshd does not start: $(tail -1 "$tmp/sshd.log" 2>/dev/null)"
    return 1
}
