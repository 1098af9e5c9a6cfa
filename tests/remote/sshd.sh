# tests/remote/sshd.sh - the remote tests' own sshd (sourced): listens on
# 127.0.0.2 and 127.0.0.3 (two "hosts") on a free port, with a host key
# and an authorized key made in $tmp and a known_hosts file for ssh (-o
# UserKnownHostsFile); nothing of the machine's SSH configuration changes.
# Needs $tmp and skip_all (called with the reason when sshd cannot start);
# sets $port and $sshd_pid (the caller's cleanup kills it), and makes
# $tmp/userkey (authorized), $tmp/otherkey (not) and $tmp/known_hosts.
sshd=/usr/sbin/sshd
[ -x "$sshd" ] || skip_all "no $sshd (install openssh-server: bootstrap.sh)"
command -v ssh > /dev/null || skip_all "no ssh (install openssh-client)"
command -v ssh-keygen > /dev/null || skip_all "no ssh-keygen"
# Run as root, sshd wants its privilege-separation directory (the one the
# ssh service makes at boot): made when missing, nothing else changes.
if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
    mkdir -p /run/sshd 2>/dev/null && chmod 755 /run/sshd ||
        skip_all "cannot make /run/sshd, which sshd needs when run as root"
fi
ssh-keygen -q -t ed25519 -N '' -f "$tmp/hostkey" -C test-host &&
ssh-keygen -q -t ed25519 -N '' -f "$tmp/userkey" -C test-user &&
ssh-keygen -q -t ed25519 -N '' -f "$tmp/otherkey" -C test-other ||
    skip_all "ssh-keygen failed"
cp "$tmp/userkey.pub" "$tmp/authorized_keys"
chmod 600 "$tmp/authorized_keys"
start_sshd() {
    cat > "$tmp/sshd_config" <<EOF
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
EOF
    "$sshd" -D -f "$tmp/sshd_config" -E "$tmp/sshd.log" &
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
port=
for try in 1 2 3 4 5; do
    port=$((20000 + ($$ * 7 + try * 1013) % 40000))
    : > "$tmp/known_hosts"
    for h in 127.0.0.2 127.0.0.3; do
        echo "[$h]:$port $(cat "$tmp/hostkey.pub")" >> "$tmp/known_hosts"
    done
    start_sshd && break
    port=
done
[ -n "$port" ] || skip_all "sshd does not start: $(tail -1 "$tmp/sshd.log" 2>/dev/null)"

