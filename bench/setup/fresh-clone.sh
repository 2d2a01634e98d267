#!/usr/bin/env bash
# The README's two commands on a fresh machine: a Debian 12 root made with debootstrap
# (minbase), a `git clone` of this repository in it; the packages scripts/setup.sh
# installs, then those scripts/test.sh adds, each timed and counted (WARPLINT_INSTALL_ONLY=1);
# with FRESH_BUILD=1 then scripts/examples.sh (the build without tests and the examples)
# timed. Needs root, debootstrap and the Debian archive. docs/install.md has the figures.
# usage: fresh-clone.sh WORK_DIR [JOBS]
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$1 jobs=${2:-2}
mirror=${WARPLINT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${WARPLINT_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd)
root=$work/root
umount "$root/proc" 2>/dev/null || true
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
t0=$(date +%s)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1
echo "debootstrap: $(( $(date +%s) - t0 )) s"
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
  "$mirror" "$mirror" "$security" > "$root/etc/apt/sources.list"
mount -t proc proc "$root/proc"
git clone -q "$src" "$root/root/warplint"
echo "clone: $(git -C "$root/root/warplint" log -1 --format='%h %s' | cut -c1-80)"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
  WARPLINT_JOBS="$jobs" bash -c "cd /root/warplint && $1"; }
count() { chroot "$root" dpkg-query -W | wc -l; }

base=$(count)
# 1. scripts/setup.sh's packages (what building and running need).
t0=$(date +%s)
in_root "WARPLINT_INSTALL_ONLY=1 ./scripts/setup.sh" >"$work/setup-install.log" 2>&1 ||
  { tail -30 "$work/setup-install.log"; exit 1; }
t1=$(date +%s)
after_setup=$(count)
echo "scripts/setup.sh packages: $((t1 - t0)) s; installed packages $base -> $after_setup" \
  "(+$((after_setup - base)) with their dependencies; 8 named in scripts/setup.sh)"
in_root "du -sm /var/cache/apt/archives | cut -f1" | sed 's/^/  downloaded (MiB): /'
in_root "apt-get clean"

# 2. scripts/test.sh's extras on top.
t0=$(date +%s)
in_root "WARPLINT_INSTALL_ONLY=1 ./scripts/test.sh" >"$work/test-install.log" 2>&1 ||
  { tail -30 "$work/test-install.log"; exit 1; }
t1=$(date +%s)
after_test=$(count)
echo "scripts/test.sh packages: $((t1 - t0)) s; installed packages $after_setup -> $after_test" \
  "(+$((after_test - after_setup)) with their dependencies; 26 named in scripts/test.sh)"
in_root "du -sm /var/cache/apt/archives | cut -f1" | sed 's/^/  downloaded (MiB): /'
in_root "apt-get clean"

# 3. FRESH_BUILD=1: scripts/examples.sh (the build without tests, then the examples).
if [ "${FRESH_BUILD:-0}" = 1 ]; then
  t0=$(date +%s)
  in_root "./scripts/examples.sh" >"$work/examples.log" 2>&1 || { tail -30 "$work/examples.log"; exit 1; }
  echo "scripts/examples.sh (build without tests, -j$jobs, then the examples): $(( $(date +%s) - t0 )) s"
fi
