#!/bin/sh
# Installs every Debian package drdb needs to build, test and run, only when
# missing. Idempotent and non-interactive; when everything is present it only
# asks dpkg (well under a second). Run as root (or with sudo available).
set -eu

PKGS="build-essential pkg-config python3 meson ninja-build git
gdb libreadline-dev mpich libmpich-dev gfortran
zstd libzstd-dev libsqlite3-dev libdw-dev nettle-dev
clang libclang-rt-14-dev
tmux procps
jq libxml2-utils chromium graphviz
openssh-server openssh-client
slurmctld slurmd slurm-client"

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

echo "bootstrap: installing:$missing" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
        echo "bootstrap: missing packages:$missing; run this script as root or install sudo" >&2
        exit 1
    }
    SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "bootstrap: done" >&2
